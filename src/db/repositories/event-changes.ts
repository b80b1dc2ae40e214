import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import { readDataVersion } from './calendar-state.js';

/*
 * The change log of `changes` (docs/change-sync.md): `event_changes` holds, per event id, the data
 * version of the import that last changed what the API shows of it, and tombstones for removed ids.
 * The importer writes it in its own transaction (a failed import leaves it as it was) with
 * set-based statements, a batch or the whole table at a time, never a list held in memory.
 */

/** Tombstones older than this are purged by the next import (the cursor window, plus a day). */
export const TOMBSTONE_KEEP_DAYS = 91;

/**
 * What an import will raise the data version to: imports of a schema run one at a time (their
 * advisory lock), so the version read under the lock plus one is the one this import commits.
 */
export async function nextDataVersion(trx: Transaction<Database>): Promise<string> {
  return (BigInt((await readDataVersion(trx)) ?? 0) + 1n).toString();
}

/** What an import compares a listed event with: its stored digest, and the values the digest leaves out. */
export interface StoredDigest {
  hash: string;
  createdAt: Date;
  updatedAt: Date;
  /** In the event's order (a retirement rewrites these lists, not the digests). */
  categories: string[];
}

/**
 * The digests and timestamps stored for `ids` (events the database holds; tombstones and rows without a
 * digest left out): what an import compares each listed event with before writing it
 * (import/stored-digests.ts). Three index probes per id.
 */
export async function storedDigests(trx: Transaction<Database>, ids: readonly string[]): Promise<Map<string, StoredDigest>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ event_id: string; content_hash: string; created_at: Date; updated_at: Date; categories: string[] }>`
    select c.event_id, c.content_hash, e.created_at, e.updated_at,
      array(select ec.category_id from event_categories ec where ec.event_id = c.event_id order by ec.position) as categories
    from event_changes c join events e on e.id = c.event_id
    where c.event_id = any(${ids}::text[]) and not c.removed and c.content_hash is not null
  `.execute(trx);
  return new Map(
    rows.map((r) => [r.event_id, { hash: r.content_hash, createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at), categories: r.categories }]),
  );
}

/** Rewrites stored digests in place (the same records, in the current form): versions untouched. */
export async function rewriteDigests(trx: Transaction<Database>, events: readonly { id: string; hash: string }[]): Promise<void> {
  if (events.length === 0) return;
  await sql`
    update event_changes set content_hash = w.hash
    from unnest(${events.map((e) => e.id)}::text[], ${events.map((e) => e.hash)}::text[]) as w(id, hash)
    where event_changes.event_id = w.id
  `.execute(trx);
}

/**
 * Records a batch of written events (new, changed, or back after a removal: the import compared them
 * with what was stored and writes only those) at the import's version, with their digests.
 */
export async function recordWrittenEvents(trx: Transaction<Database>, version: string, events: readonly { id: string; hash: string }[]): Promise<void> {
  if (events.length === 0) return;
  await sql`
    insert into event_changes (event_id, version, content_hash)
    select w.id, ${version}::bigint, w.hash
    from unnest(${events.map((e) => e.id)}::text[], ${events.map((e) => e.hash)}::text[]) as w(id, hash)
    on conflict (event_id) do update
      set version = excluded.version, content_hash = excluded.content_hash, removed = false, changed_at = now()
  `.execute(trx);
}

/**
 * `--replace`: deletes the events the file does not list and leaves a tombstone for each, in one
 * statement. Returns how many were deleted.
 */
export async function removeEventsNotListed(trx: Transaction<Database>, version: string, listedIds: readonly string[]): Promise<number> {
  const result = await sql<{ removed: string | number }>`
    with gone as (
      delete from events where not (id = any(${listedIds}::text[])) returning id
    ), marked as (
      insert into event_changes (event_id, version, removed, content_hash)
      select id, ${version}::bigint, true, null from gone
      on conflict (event_id) do update
        set version = excluded.version, removed = true, content_hash = null, changed_at = now()
      returning 1
    )
    select count(*) as removed from marked
  `.execute(trx);
  return Number(result.rows[0]?.removed ?? 0);
}

/**
 * An event shows its venues' and organizers' names, slugs, addresses and places, and its categories'
 * labels, slugs, visibility and parent: the events of a venue, organizer or category the import changed
 * are changed too, whether or not the file lists them (the read model's layers rely on it:
 * read-model/layers/catalogue-changes.ts).
 */
export async function recordCatalogueChanges(
  trx: Transaction<Database>,
  version: string,
  changed: { venues: readonly string[]; organizers: readonly string[]; categories: readonly string[] },
): Promise<void> {
  if (changed.venues.length === 0 && changed.organizers.length === 0 && changed.categories.length === 0) return;
  await sql`
    update event_changes set version = ${version}::bigint, changed_at = now()
    where not removed and version <> ${version}::bigint and event_id in (
      select id from events where venue_id = any(${changed.venues}::text[])
      union select event_id from occurrences where venue_id = any(${changed.venues}::text[])
      union select event_id from event_organizers where organizer_id = any(${changed.organizers}::text[])
      union select event_id from event_categories where category_id = any(${changed.categories}::text[])
    )
  `.execute(trx);
}

/** Retiring a category rewrites the category lists of the events filed under it. */
export async function recordCategoryRetirement(trx: Transaction<Database>, version: string, categoryId: string): Promise<void> {
  await sql`
    update event_changes set version = ${version}::bigint, changed_at = now()
    where not removed and event_id in (select event_id from event_categories where category_id = ${categoryId})
  `.execute(trx);
}

/** Drops the tombstones past the window (docs/change-sync.md): cursors that old are refused anyway. */
export async function purgeOldTombstones(trx: Transaction<Database>): Promise<void> {
  await sql`delete from event_changes where removed and changed_at < now() - make_interval(days => ${TOMBSTONE_KEEP_DAYS})`.execute(trx);
}

/** What the time phase lists. */
export interface TimeChanges {
  /** The database's data version, read in the same statement. */
  dataVersion: string;
  ids: string[];
}

/**
 * The time phase of `changes`: ids whose shown state changed by time alone in (from, to]: one of
 * their dates ended (the next one is promoted, or the event is gone), or their publishing date
 * passed. In byte order of the ids (collate "C", like the index: a language collation costs
 * microseconds per comparison, and a keyset needs only some total order) after `afterId`. (The data
 * phase lists from the read model's copy of the log: read-model/snapshot/snapshot-change-log.ts.)
 */
export async function readTimeChanges(db: Kysely<Database>, range: { from: Date; to: Date; afterId: string; limit: number }): Promise<TimeChanges> {
  const result = await sql<{ data_version: string | number; event_id: string | null }>`
    select cs.version as data_version, c.event_id
    from calendar_state cs
    left join lateral (
      select t.event_id from (
        select o.event_id from occurrences o where o.ends_at > ${range.from} and o.ends_at <= ${range.to}
        union
        select p.id from events p where p.publishing_date > ${range.from} and p.publishing_date <= ${range.to}
      ) t
      where t.event_id collate "C" > ${range.afterId}::text collate "C"
      order by t.event_id collate "C"
      limit ${range.limit}
    ) c on true
    order by c.event_id collate "C"
  `.execute(db);
  const rows = result.rows;
  return { dataVersion: String(rows[0]?.data_version ?? 0), ids: rows.flatMap((r) => (r.event_id === null ? [] : [r.event_id])) };
}
