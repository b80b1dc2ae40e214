import { sql, type Kysely } from 'kysely';

/**
 * The whole-result count of `events` takes the first matching date of each event (its venue feeds
 * the venue facet). Read from this index, the dates come in that order with the columns the
 * date-level filters test, so PostgreSQL walks it once instead of sorting every date: at 100k
 * events (250k dates) about 80 ms less per count. Byte-wise (`C`) like the statements' own keys.
 * Only scans of all-visible pages skip the table, so it pays once (auto)vacuum has seen an import.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index occurrences_event_order_idx on occurrences (event_id collate "C", start_at, id)
    include (venue_id, ends_at, publishing_date, local_minute, cancelled, sold_out)
  `.execute(db);
}
