import { sql, type Kysely } from 'kysely';

/**
 * Change sync (`changes`, docs/change-sync.md). One row per event id the calendar holds or held:
 * `version` is the data version of the import that last changed what the API shows of the event
 * (the data version is the change sequence: imports raise it by one, one at a time, and the read
 * model answers per version, so a page's bound and its records belong to the same version).
 * `removed` rows are tombstones (`import --replace`), purged by imports after the documented window.
 * `content_hash` lets an import that writes an event unchanged leave it out of the changes.
 *
 * The events whose promoted date moved, or that ended, between two syncs (time changes what
 * `events` shows without any import) are found by the existing `occurrences_ends_idx`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table event_changes (
      event_id text primary key,
      version bigint not null,
      removed boolean not null default false,
      content_hash text,
      changed_at timestamptz not null default now()
    )
  `.execute(db);
  // Keyset pages walk (version, id) in byte order ("C"): sorting ids by a language's collation costs
  // microseconds each, and the order only has to be a total one.
  await sql`create index event_changes_version_idx on event_changes (version, event_id collate "C")`.execute(db);
  await sql`create index event_changes_tombstones_idx on event_changes (changed_at) where removed`.execute(db);
  // Events stored before this migration count as changed at the current version (no hash yet: the
  // next import that lists them records one, and reports them once more).
  await sql`
    insert into event_changes (event_id, version)
    select e.id, cs.version from events e cross join calendar_state cs
  `.execute(db);
  await sql`analyze event_changes`.execute(db);
}
