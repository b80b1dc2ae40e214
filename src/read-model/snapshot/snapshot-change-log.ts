import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ChangesSince } from './changes-since.js';
import { firstWhere } from '../first-where.js';
import { GrowingColumn } from './growing-column.js';

/**
 * The change log of `changes` (db/repositories/event-changes.ts) as of one data version: every row of
 * `event_changes`, in the order the sync walks it, (version, id) with ids in byte order (`collate
 * "C"`, the order of the index and of the cursors the service has handed out).
 */
export interface SnapshotChangeLog {
  versions: Float64Array;
  ids: readonly string[];
  /** 1 for a tombstone. */
  removed: Uint8Array;
  /**
   * A layered version's log (`layerSnapshotChangeLog`): these entries are the last full build's, shared;
   * those of ids in `relogged` are skipped (logged again since), and `later` (the rows since, all of
   * higher versions) follows them.
   */
  layered?: { relogged: ReadonlySet<string>; later: SnapshotChangeLog } | undefined;
}

/** Every entry of the log in walking order (a layered log's shared entries not logged again, then its later ones). */
function eachEntry(log: SnapshotChangeLog, visit: (id: string, version: number, removed: number) => void): void {
  const relogged = log.layered?.relogged;
  for (let i = 0; i < log.ids.length; i++) if (!relogged?.has(log.ids[i]!)) visit(log.ids[i]!, log.versions[i]!, log.removed[i]!);
  if (log.layered) eachEntry(log.layered.later, visit);
}

/**
 * Compares strings by code point, which is the byte order of their UTF-8 (PostgreSQL's `collate
 * "C"`). JavaScript's `<` compares UTF-16 code units, which differs only where a surrogate (a code
 * point above U+FFFF) meets a unit from U+E000 to U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return surrogatesLast(x) - surrogatesLast(y);
    return x - y;
  }
  return a.length - b.length;
}

const surrogatesLast = (unit: number) => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);

interface LogRow {
  event_id: string;
  version: string | number;
  removed: boolean;
}

/** Rows per statement: bounds the rows held at once at any size. */
const ROWS_PER_READ = 50_000;

/** An id as the new snapshot holds it (one copy of each id in memory); ended and removed ids as given. */
export type SharedId = (id: string) => string;

/** SharedId over the events of one read (their ids and the map of id to event number). */
export function sharedIdOf(eventIds: readonly string[], eventIndex: ReadonlyMap<string, number>): SharedId {
  return (id) => {
    const known = eventIndex.get(id);
    return known === undefined ? id : eventIds[known]!;
  };
}

/** Appends the rows of `event_changes` after `from` (all of them when null), in walking order, in keyset pages. */
async function appendRows(
  trx: Transaction<Database>,
  from: string | null,
  into: { versions: GrowingColumn<Float64Array>; ids: string[]; removed: GrowingColumn<Uint8Array> },
  sharedId: SharedId,
): Promise<void> {
  for (let after: { version: number; id: string } | null = null; ; ) {
    const rows: LogRow[] = (
      await sql<LogRow>`
        select event_id, version, removed from event_changes
        where true
        ${from === null ? sql`` : sql`and version > ${from}::bigint`}
        ${after ? sql`and (version, event_id collate "C") > (${after.version}::bigint, ${after.id}::text collate "C")` : sql``}
        order by version, event_id collate "C"
        limit ${ROWS_PER_READ}
      `.execute(trx)
    ).rows;
    for (const row of rows) {
      into.ids.push(sharedId(row.event_id));
      into.versions.push(Number(row.version));
      into.removed.push(row.removed ? 1 : 0);
    }
    if (rows.length < ROWS_PER_READ) break;
    const last: LogRow = rows[rows.length - 1]!;
    after = { version: Number(last.version), id: last.event_id };
  }
}

const emptyColumns = () => ({
  versions: new GrowingColumn(new Float64Array(0), (n) => new Float64Array(n)),
  ids: [] as string[],
  removed: new GrowingColumn(new Uint8Array(0), (n) => new Uint8Array(n)),
});

const packed = (columns: ReturnType<typeof emptyColumns>): SnapshotChangeLog => ({
  versions: columns.versions.array.slice(0, columns.versions.length),
  ids: columns.ids,
  removed: columns.removed.array.slice(0, columns.removed.length),
});

/**
 * Reads the whole log in its walking order, in keyset pages. An id the snapshot holds is kept as the
 * snapshot's own string (one copy of each id in memory); only ended and removed ids add strings.
 */
export async function readSnapshotChangeLog(trx: Transaction<Database>, sharedId: SharedId): Promise<SnapshotChangeLog> {
  const columns = emptyColumns();
  await appendRows(trx, null, columns, sharedId);
  return packed(columns);
}

/**
 * The log of a newer version from the log of the snapshot it replaces (`previous`, of version `since`):
 * that log without the ids logged again since, then the rows after `since` (every one of a higher
 * version, so they walk after it). Only the new rows are read. A row at or below `since` only ever
 * leaves the table otherwise (a later import moves it up, or purges an old tombstone); when the
 * tombstones left there are not exactly the tombstones kept, a purge happened and null is returned:
 * read it whole.
 */
export async function extendSnapshotChangeLog(
  trx: Transaction<Database>,
  previous: SnapshotChangeLog,
  since: string,
  sharedId: SharedId,
): Promise<{ log: SnapshotChangeLog; changes: ChangesSince } | null> {
  const added = emptyColumns();
  await appendRows(trx, since, added, sharedId);
  const relogged = new Set(added.ids);
  const columns = emptyColumns();
  let keptTombstones = 0;
  eachEntry(previous, (id, version, removed) => {
    if (relogged.has(id)) return;
    columns.ids.push(sharedId(id));
    columns.versions.push(version);
    columns.removed.push(removed);
    keptTombstones += removed;
  });
  if (keptTombstones !== (await tombstonesUpTo(trx, since))) return null;
  let removedEvents = 0;
  for (let i = 0; i < added.ids.length; i++) {
    columns.ids.push(added.ids[i]!);
    columns.versions.push(added.versions.array[i]!);
    columns.removed.push(added.removed.array[i]!);
    removedEvents += added.removed.array[i]!;
  }
  return { log: packed(columns), changes: { since, changedEvents: added.ids.length - removedEvents, removedEvents } };
}

/**
 * A layered version's log (layered-snapshot.ts) over the log of the last full build (`full`, a plain
 * log, of version `fullVersion`), costing what changed since that build: its entries are shared, the
 * rows after `fullVersion` read (all of higher versions, so they walk after it) and the shared entries of
 * their ids skipped. The purge check is `extendSnapshotChangeLog`'s (one pass over the shared entries,
 * nothing copied): null when a row at or below `fullVersion` left otherwise. `changes`: since
 * `previousVersion`, the version the layers replace.
 */
export async function layerSnapshotChangeLog(
  trx: Transaction<Database>,
  full: SnapshotChangeLog,
  fullVersion: string,
  previousVersion: string,
  sharedId: SharedId,
): Promise<{ log: SnapshotChangeLog; changes: ChangesSince } | null> {
  const later = emptyColumns();
  await appendRows(trx, fullVersion, later, sharedId);
  const relogged = new Set(later.ids);
  let keptTombstones = 0;
  for (let i = 0; i < full.ids.length; i++) if (full.removed[i] === 1 && !relogged.has(full.ids[i]!)) keptTombstones++;
  if (keptTombstones !== (await tombstonesUpTo(trx, fullVersion))) return null;
  let changedEvents = 0;
  let removedEvents = 0;
  const previous = Number(previousVersion);
  for (let i = 0; i < later.ids.length; i++) {
    if (later.versions.array[i]! <= previous) continue;
    if (later.removed.array[i] === 1) removedEvents++;
    else changedEvents++;
  }
  return { log: { ...full, layered: { relogged, later: packed(later) } }, changes: { since: previousVersion, changedEvents, removedEvents } };
}

/**
 * The tombstones at or below `version`: the purge check. Only a tombstone ever leaves the table
 * (purgeOldTombstones), so counting them alone says whether one did, and reads the few rows of the
 * tombstones' partial index; counting every row at or below the version read the whole table (a
 * parallel scan of 1M rows, 200–330 ms at 1 000 000 events, on every layered version).
 */
async function tombstonesUpTo(trx: Transaction<Database>, version: string): Promise<number> {
  const { rows } = await sql<{ kept: string | number }>`select count(*) as kept from event_changes where removed and version <= ${version}::bigint`.execute(trx);
  return Number(rows[0]?.kept ?? 0);
}

/** One id the data phase lists, with its keyset position. */
export interface LoggedChange {
  id: string;
  version: number;
}

/**
 * The data phase of a sync round (docs/change-sync.md): ids whose change version lies in (from, to],
 * after the keyset position, in walking order, at most `limit`. `live` leaves tombstones out (a full
 * sync lists what exists).
 */
export function changesInLog(
  log: SnapshotChangeLog,
  range: { from: number; to: number; after: { version: number; id: string } | null; live: boolean; limit: number },
): LoggedChange[] {
  const { versions, ids, removed } = log;
  // Within a round, the keyset position is past `from`; before it, `version > from` alone starts the walk.
  const start = range.after && range.after.version > range.from ? range.after : { version: range.from, id: null };
  // The first entry past `start`: (version, id) > (start.version, start.id), or version > start.version.
  const low = firstWhere(0, versions.length, (k) => {
    const version = versions[k]!;
    return version > start.version || (version === start.version && start.id !== null && compareCodePoints(ids[k]!, start.id) > 0);
  });
  const listed: LoggedChange[] = [];
  const relogged = log.layered?.relogged;
  for (let i = low; i < versions.length && listed.length < range.limit; i++) {
    const version = versions[i]!;
    if (version > range.to) return listed;
    if (range.live && removed[i] === 1) continue;
    if (relogged?.has(ids[i]!)) continue;
    listed.push({ id: ids[i]!, version });
  }
  // A layered log: its later rows walk after every shared entry.
  if (log.layered && listed.length < range.limit) listed.push(...changesInLog(log.layered.later, { ...range, limit: range.limit - listed.length }));
  return listed;
}
