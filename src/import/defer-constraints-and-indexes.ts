import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';

// Below this many events, updating the indexes row by row is cheap enough.
export const BULK_LOAD_EVENTS = 5_000;

/** The tables an import writes rows of events into, in bulk. */
export type BulkTable = 'events' | 'occurrences' | 'event_categories' | 'event_organizers';
export const BULK_TABLES: readonly BulkTable[] = ['events', 'occurrences', 'event_categories', 'event_organizers'];

/**
 * The first load of a large calendar follows "Populating a Database" in the PostgreSQL manual: the
 * foreign keys and secondary indexes of the event tables are dropped and created again once the
 * rows are in. One validating join and one index build per index are several times cheaper than
 * checking and updating them row by row (a trigram index above all). Primary keys and unique
 * constraints stay, as the upsert relies on them. Only done while the event tables held nothing
 * before the import: dropping them locks those tables until the transaction ends.
 *
 * Returns what creates them again.
 */
export async function deferConstraintsAndIndexes(trx: Transaction<Database>): Promise<() => Promise<void>> {
  const tables = [...BULK_TABLES];
  const foreignKeys = await sql<{ table_name: string; name: string; definition: string }>`
    select c.conrelid::regclass::text as table_name, c.conname as name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_namespace n on n.oid = t.relnamespace
    where c.contype = 'f' and n.nspname = current_schema() and t.relname = any(${tables}::text[])
  `.execute(trx);
  const indexes = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition
    from pg_indexes i
    where i.schemaname = current_schema()
      and i.tablename = any(${tables}::text[])
      and not exists (
        select 1 from pg_constraint c
        join pg_namespace n on n.oid = c.connamespace
        where c.conname = i.indexname and n.nspname = i.schemaname
      )
  `.execute(trx);
  for (const fk of foreignKeys.rows) await sql`alter table ${sql.raw(fk.table_name)} drop constraint ${sql.id(fk.name)}`.execute(trx);
  for (const index of indexes.rows) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  return async () => {
    for (const index of indexes.rows) await sql.raw(index.definition).execute(trx);
    for (const fk of foreignKeys.rows) {
      await sql`alter table ${sql.raw(fk.table_name)} add constraint ${sql.id(fk.name)} ${sql.raw(fk.definition)}`.execute(trx);
    }
  };
}
