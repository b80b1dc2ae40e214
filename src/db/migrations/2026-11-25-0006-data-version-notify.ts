import { sql, type Kysely } from 'kysely';

/**
 * Every service node keeps a read model of the calendar per data version (src/read-model/). A raised
 * `calendar_state.version` is announced on channel `calendar_data_version` (payload: the schema and
 * the new version), from the importer's own transaction, so the notice arrives exactly when the new
 * data becomes visible, whichever program wrote it.
 *
 * The read model answers `events` pages from memory: the indexes that let PostgreSQL walk a page in
 * order (the span index, the event-order covering index) are no longer read, and only cost imports.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function announce_data_version() returns trigger
    language plpgsql
    as $$
    begin
      perform pg_notify('calendar_data_version', tg_table_schema || ' ' || new.version::text);
      return new;
    end
    $$
  `.execute(db);
  await sql`
    create trigger calendar_state_announce after update of version on calendar_state
    for each row when (new.version is distinct from old.version) execute function announce_data_version()
  `.execute(db);
  await sql`drop index if exists occurrences_span_idx`.execute(db);
  await sql`drop index if exists occurrences_event_order_idx`.execute(db);
}
