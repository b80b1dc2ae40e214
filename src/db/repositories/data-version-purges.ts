import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../database.js';

/*
 * CDN purging on import (docs/cdn.md#purging-on-import): the importer records, per data version it
 * commits, which catalogues it changed; the service nodes claim the versions not purged yet, purge
 * the edges for them and mark them purged. The events a version changed are its `event_changes` rows.
 */

/** Rows of purged versions are kept this long (what `calendar` operators may want to look back on). */
export const PURGED_VERSIONS_KEEP_DAYS = 30;

/** Which catalogues an import changed. */
export interface CatalogueChanges {
  venues: boolean;
  organizers: boolean;
  categories: boolean;
}

/** A data version a node claimed to purge. */
export interface ClaimedVersion extends CatalogueChanges {
  version: string;
}

/**
 * In the import's transaction, as its last write: the version it commits and what it changed
 * besides events. `clock_timestamp()`, not the transaction's start: the lag to the purge is
 * measured from (nearly) the commit. Old purged rows go.
 */
export async function recordDataVersion(trx: Transaction<Database>, version: string, changed: CatalogueChanges): Promise<void> {
  await sql`
    delete from data_version_purges
    where purged_at is not null and committed_at < now() - make_interval(days => ${PURGED_VERSIONS_KEEP_DAYS})
  `.execute(trx);
  await sql`
    insert into data_version_purges (version, committed_at, venues_changed, organizers_changed, categories_changed)
    values (${version}::bigint, clock_timestamp(), ${changed.venues}, ${changed.organizers}, ${changed.categories})
  `.execute(trx);
}

/**
 * Claims the versions up to `upTo` that no node has purged, nor claimed within the last
 * `leaseSeconds` (a node that claimed and died leaves its claim to the next one after the lease).
 * Concurrent claims by several nodes each get a version at most once: the row's update lock makes
 * the second re-check the claim it waited for.
 */
export async function claimVersionsToPurge(db: Kysely<Database>, upTo: string, leaseSeconds: number): Promise<ClaimedVersion[]> {
  const result = await sql<{ version: string | number; venues_changed: boolean; organizers_changed: boolean; categories_changed: boolean }>`
    update data_version_purges set purge_claimed_at = now()
    where purged_at is null and version <= ${upTo}::bigint
      and (purge_claimed_at is null or purge_claimed_at < now() - make_interval(secs => ${leaseSeconds}))
    returning version, venues_changed, organizers_changed, categories_changed
  `.execute(db);
  return result.rows
    .map((row) => ({ version: String(row.version), venues: row.venues_changed, organizers: row.organizers_changed, categories: row.categories_changed }))
    .sort((a, b) => (BigInt(a.version) < BigInt(b.version) ? -1 : 1));
}

/**
 * The ids of the events these versions changed or removed, at most `limit` (the caller purges
 * everything past a limit). Each id is listed under the version that changed it last: an event a
 * later version changed again is purged with that one.
 */
export async function eventsChangedAt(db: Kysely<Database>, versions: readonly string[], limit: number): Promise<string[]> {
  const result = await sql<{ event_id: string }>`
    select event_id from event_changes where version = any(${versions}::bigint[]) limit ${limit}
  `.execute(db);
  return result.rows.map((row) => row.event_id);
}

/** Marks versions purged; returns the seconds from each one's commit to now (the database's clock for both). */
export async function markVersionsPurged(db: Kysely<Database>, versions: readonly string[]): Promise<number[]> {
  const result = await sql<{ lag_seconds: string | number }>`
    update data_version_purges set purged_at = clock_timestamp()
    where version = any(${versions}::bigint[]) and purged_at is null
    returning extract(epoch from clock_timestamp() - committed_at) as lag_seconds
  `.execute(db);
  return result.rows.map((row) => Number(row.lag_seconds));
}

/** Gives claimed versions back (a node stopping mid-purge): the next claim by any node takes them. */
export async function releaseVersionClaims(db: Kysely<Database>, versions: readonly string[]): Promise<void> {
  await sql`update data_version_purges set purge_claimed_at = null where version = any(${versions}::bigint[]) and purged_at is null`.execute(db);
}
