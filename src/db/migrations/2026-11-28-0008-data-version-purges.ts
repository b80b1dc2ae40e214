import { sql, type Kysely } from 'kysely';

/**
 * CDN purging on import (docs/cdn.md#purging-on-import). One row per data version an import
 * commits, written in the import's transaction: when it committed, and which catalogues it changed
 * (the events it changed are the `event_changes` rows of its version). The service nodes claim the
 * rows not purged yet (`purge_claimed_at`, a lease), purge the CDN edges for them, and mark them
 * `purged_at`: exactly one node purges each version, whichever node saw it first.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table data_version_purges (
      version bigint primary key,
      committed_at timestamptz not null,
      venues_changed boolean not null,
      organizers_changed boolean not null,
      categories_changed boolean not null,
      purge_claimed_at timestamptz,
      purged_at timestamptz
    )
  `.execute(db);
  // The claim reads the few rows still to purge, however many versions are kept.
  await sql`create index data_version_purges_pending_idx on data_version_purges (version) where purged_at is null`.execute(db);
}
