import { sql, type Kysely, type Transaction } from 'kysely';
import { connectionLossReason } from '../../db/connection-errors.js';
import type { Database } from '../../db/database.js';
import { eventIndexOf, type CalendarSnapshot } from './calendar-snapshot.js';
import { readChangesSince, type ChangesSince } from './changes-since.js';
import { extendSnapshotChangeLog, layerSnapshotChangeLog, readSnapshotChangeLog } from './snapshot-change-log.js';
import { fullLayers, maskedBase, type LayeredSnapshot } from '../layers/layered-snapshot.js';
import { SuggestionIndexBuilder } from '../typeahead/suggestion-index.js';
import { pickCatalogueColumns, readCatalogue, type CatalogueColumns } from './read-snapshot-catalogue.js';
import { catalogueChange } from '../layers/catalogue-changes.js';
import { readEvents } from './read-snapshot-events.js';
import { readDates } from './read-snapshot-dates.js';

/**
 * Dates that ended up to this long before the build are kept: a request's "now" may lag the
 * builder's clock a little (a request that started before the build), and tests set clocks back.
 */
export const RETAINED_ENDED_MS = 24 * 60 * 60 * 1000;

/** Times a view is read again whole when its connection is lost under it (a terminated backend, a reset socket). */
const VIEW_RETRIES = 2;

/**
 * Runs `work` in one read-only repeatable-read transaction: one consistent view of every table, one
 * data version. A transaction whose connection is lost (db/connection-errors.ts: the database may answer
 * a fresh one at once) is read again whole, on a fresh connection: it only reads, so `work` must keep
 * what it builds inside itself. Before, the build failed and the node stayed on its old version until
 * the next notice or poll found the new one again.
 */
async function inOneView<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
    } catch (error) {
      if (attempt >= VIEW_RETRIES || connectionLossReason(error) === undefined) throw error;
    }
  }
}

/**
 * Reads one data version whole, in one read-only repeatable-read transaction (one consistent view
 * of every table), and packs it into columns. Only dates that had not ended `RETAINED_ENDED_MS`
 * before `now` are read, and only events with such a date.
 */
export async function loadSnapshot(db: Kysely<Database>, now: Date): Promise<CalendarSnapshot> {
  return (await loadSnapshotSince(db, now, null)).snapshot;
}

/**
 * loadSnapshot, for the read model that replaces `previous` (null: its first): what changed since
 * `previous` is read in the same view (exactly what lies between the two), and the change log is
 * `previous`'s extended by the rows after its version rather than read whole (snapshot-change-log.ts).
 */
export async function loadSnapshotSince(
  db: Kysely<Database>,
  now: Date,
  previous: Pick<CalendarSnapshot, 'version' | 'changeLog'> | null,
): Promise<{ snapshot: CalendarSnapshot; changes: ChangesSince | null }> {
  const cutoff = new Date(now.getTime() - RETAINED_ENDED_MS);
  const read = await inOneView(db, async (trx) => {
    const suggestions = new SuggestionIndexBuilder();
    const { version } = await trx.selectFrom('calendar_state').select('version').executeTakeFirstOrThrow();
    const occurrencesUpTo = await highestOccurrenceId(trx);
    const catalogue = await readCatalogue(trx);
    const events = await readEvents(trx, cutoff, catalogue, suggestions);
    const dates = await readDates(trx, cutoff, events, catalogue);
    const { eventIds } = events.snapshot;
    // Not from an older version (a read replica behind the one `previous` came from): its log is no prefix of that one's.
    const fromPrevious = previous !== null && BigInt(version) >= BigInt(previous.version);
    const extended = fromPrevious ? await extendSnapshotChangeLog(trx, previous.changeLog, previous.version, eventIds, events.eventIndex) : null;
    const changeLog = extended ? extended.log : await readSnapshotChangeLog(trx, eventIds, events.eventIndex);
    const changes = extended ? extended.changes : previous && (await readChangesSince(trx, previous.version));
    return { version: String(version), columns: { ...catalogue.snapshot, ...events.snapshot, ...dates, occurrencesUpTo }, changeLog, readOrder: events.readOrder, changes, suggestions };
  });
  // Built once the transaction is over: it reads nothing more.
  const snapshot = { version: read.version, ...read.columns, changeLog: read.changeLog, suggestions: read.suggestions.build(read.columns, read.readOrder, cutoff.getTime()) };
  return { snapshot, changes: read.changes };
}

/** Why a newer version could not be layered on the last full build: a full build is needed. */
export type LayeredFallback = 'catalogue' | 'older-version' | 'delta-size';

/**
 * The newest data version as layers over `previous`'s full build (layered-snapshot.ts), read in one
 * read-only repeatable-read transaction: the version, the catalogue (when it changed, the delta is built
 * on it with numbers of its own: catalogue-changes.ts; a category hidden or moved under another parent
 * falls back to a full build), the ids `event_changes` logged after
 * the full build's version (one row per id: its last change), and those events' records and dates as
 * a delta built by the same code as a full build, restricted to them, at the full build's clock (its
 * cutoff: `suggestions.publishingHorizon`), so that the layers are exactly a full build at that clock.
 * Costs what changed since the full build, not what the calendar holds. The same version again is
 * `previous` itself. More than `deltaLargest` ids changed: 'delta-size', decided before any of them
 * is read (a full build is cheaper then; reading the delta first would be work thrown away).
 * `changedSinceFull`: the ids changed, removed or rewritten since the full build, what a compaction is
 * decided by (0 for the same version again: nothing new to decide).
 */
export async function loadLayeredSnapshot(
  db: Kysely<Database>,
  previous: LayeredSnapshot,
  deltaLargest = Number.POSITIVE_INFINITY,
): Promise<{ layered: LayeredSnapshot; changes: ChangesSince; changedSinceFull: number } | { fallback: LayeredFallback }> {
  const full = previous.full;
  const cutoff = new Date(full.suggestions.publishingHorizon);
  const read = await inOneView(db, async (trx) => {
    // The delta keeps its few events' labels: layered typeahead ranks them without a read.
    const suggestions = new SuggestionIndexBuilder({ keepLabels: true });
    const { version: read } = await trx.selectFrom('calendar_state').select('version').executeTakeFirstOrThrow();
    const version = String(read);
    if (BigInt(version) < BigInt(previous.version)) return { kind: 'fallback' as const, fallback: 'older-version' as const };
    if (version === previous.version) return { kind: 'same' as const };
    const catalogue = await readCatalogue(trx);
    const catalogueChanged = catalogueChange(full.catalogue, catalogue.snapshot.catalogue);
    if (catalogueChanged.kind === 'full') return { kind: 'fallback' as const, fallback: 'catalogue' as const };
    const occurrencesUpTo = await highestOccurrenceId(trx);
    // Changed or removed by the log, or rewritten by an import that listed them unchanged (their dates then have new ids).
    const { rows } = await sql<{ event_id: string }>`
      select event_id from event_changes where version > ${full.version}::bigint
      union select event_id from occurrences where id > ${String(full.occurrencesUpTo)}::bigint`.execute(trx);
    const changed = rows.map((r) => r.event_id);
    if (changed.length > deltaLargest) return { kind: 'fallback' as const, fallback: 'delta-size' as const };
    const events = await readEvents(trx, cutoff, catalogue, suggestions, changed);
    const dates = await readDates(trx, cutoff, events, catalogue, changed);
    const { eventIds } = events.snapshot;
    // The full build's log shared, the rows since it read (what changed since, not the whole log).
    const layered = await layerSnapshotChangeLog(trx, full.changeLog, full.version, previous.version, eventIds, events.eventIndex);
    const changeLog = layered ? layered.log : await readSnapshotChangeLog(trx, eventIds, events.eventIndex);
    const changes = layered ? layered.changes : await readChangesSince(trx, previous.version);
    return {
      kind: 'read' as const,
      version,
      ids: changed,
      catalogue: catalogueChanged.kind === 'layered' ? { columns: catalogue.snapshot, stale: catalogueChanged.stale } : null,
      columns: { ...events.snapshot, ...dates, occurrencesUpTo },
      changeLog,
      readOrder: events.readOrder,
      changes,
      suggestions,
    };
  });
  if (read.kind === 'fallback') return { fallback: read.fallback };
  if (read.kind === 'same') return { layered: previous, changes: { since: previous.version, changedEvents: 0, removedEvents: 0 }, changedSinceFull: 0 };
  // The same catalogue rows: the full build's columns are shared, its numbering is the delta's. A changed
  // catalogue: the delta numbers the newest one its own way, the layers meet by id (catalogue-changes.ts).
  const catalogueColumns: CatalogueColumns = read.catalogue?.columns ?? full;
  const columns = { ...pickCatalogueColumns(catalogueColumns), ...read.columns };
  const delta: CalendarSnapshot = {
    version: read.version,
    ...columns,
    changeLog: read.changeLog,
    suggestions: read.suggestions.build(columns, read.readOrder, cutoff.getTime()),
  };
  const masked: number[] = [];
  for (const id of read.ids) {
    const event = eventIndexOf(full, id);
    if (event >= 0) masked.push(event);
  }
  const mask = Uint32Array.from(masked).sort();
  const layered: LayeredSnapshot = {
    ...fullLayers(full),
    version: read.version,
    base: maskedBase(full, mask, read.version, read.changeLog),
    delta,
    masked: mask.length,
    changeLog: read.changeLog,
    catalogue: delta.catalogue,
    staleInBase: read.catalogue?.stale ?? null,
  };
  return { layered, changes: read.changes, changedSinceFull: read.ids.length };
}

/** The highest `occurrences.id` in the transaction's view (0 without dates): see CalendarSnapshot.occurrencesUpTo. */
async function highestOccurrenceId(trx: Transaction<Database>): Promise<number> {
  const { rows } = await sql<{ top: number }>`select coalesce(max(id), 0)::float8 as top from occurrences`.execute(trx);
  return Number(rows[0]?.top ?? 0);
}
