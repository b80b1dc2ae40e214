import { sql, type Kysely, type Transaction } from 'kysely';
import { connectionLossReason } from '../../db/connection-errors.js';
import type { Database } from '../../db/database.js';
import { eventIndexOf, type CalendarSnapshot } from './calendar-snapshot.js';
import { readChangesSince, type ChangesSince } from './changes-since.js';
import { extendSnapshotChangeLog, layerSnapshotChangeLog, readSnapshotChangeLog, sharedIdOf, type SharedId } from './snapshot-change-log.js';
import { fullBuildOf, fullLayers, maskedBase, withSegmentRebuilt, type FullBuild, type LayeredSnapshot } from '../layers/layered-snapshot.js';
import { segmentCount, segmentOfId, type EventSelection } from '../segments/event-segments.js';
import { SuggestionIndexBuilder } from '../typeahead/suggestion-index.js';
import { pickCatalogueColumns, readCatalogue, type CatalogueColumns, type CatalogueRead } from './read-snapshot-catalogue.js';
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
 * of every table), and packs it into columns: one snapshot. Only dates that had not ended
 * `RETAINED_ENDED_MS` before `now` are read, and only events with such a date.
 */
export async function loadSnapshot(db: Kysely<Database>, now: Date): Promise<CalendarSnapshot> {
  return (await loadFullBuildSince(db, now, null, null)).full.segments[0]!;
}

/**
 * A full build of the newest version (layered-snapshot.ts), for the read model that replaces `previous`
 * (null: its first), in segments of at most `segmentEvents` events (segments/event-segments.ts; null: one
 * snapshot), read one after another in the same view, each built whole (its suggestion index too) before
 * the next is read: what the build holds at once is the segments built and one segment's transients.
 * What changed since `previous` is read in the same view (exactly what lies between the two), and the
 * change log is `previous`'s extended by the rows after its version rather than read whole (snapshot-change-log.ts).
 */
export async function loadFullBuildSince(
  db: Kysely<Database>,
  now: Date,
  previous: Pick<LayeredSnapshot, 'version' | 'changeLog'> | null,
  segmentEvents: number | null,
): Promise<{ full: FullBuild; changes: ChangesSince | null }> {
  const cutoff = new Date(now.getTime() - RETAINED_ENDED_MS);
  return inOneView(db, async (trx) => {
    const view = await viewHead(trx);
    const count = segmentCount(segmentEvents === null ? 0 : await liveEvents(trx, cutoff), segmentEvents);
    const built: SegmentRead[] = [];
    for (let segment = 0; segment < count; segment++) built.push(await readSegment(trx, view, cutoff, count > 1 ? { segment, of: count } : null));
    // An id logged is kept as its segment's own string (one copy of each id in memory).
    const sharedId: SharedId = (id) => {
      for (const { columns, eventIndex } of built) {
        const known = eventIndex.get(id);
        if (known !== undefined) return columns.eventIds[known]!;
      }
      return id;
    };
    // Not from an older version (a read replica behind the one `previous` came from): its log is no prefix of that one's.
    const fromPrevious = previous !== null && BigInt(view.version) >= BigInt(previous.version);
    const extended = fromPrevious ? await extendSnapshotChangeLog(trx, previous.changeLog, previous.version, sharedId) : null;
    const changeLog = extended ? extended.log : await readSnapshotChangeLog(trx, sharedId);
    const changes = extended ? extended.changes : previous && (await readChangesSince(trx, previous.version));
    const segments = built.map(({ columns, suggestions }): CalendarSnapshot => ({ version: view.version, ...columns, changeLog, suggestions }));
    return { full: fullBuildOf(segments), changes };
  });
}

/**
 * Segment `index` of `full` read again at the newest version, at `now`'s clock, in one view (a step of a
 * compaction one segment at a time: read-model.ts), with the change log as of that version: `current`'s
 * (the layers serving) extended by the rows since, or read whole. Holds one segment's transients.
 */
export async function loadSegmentSince(
  db: Kysely<Database>,
  now: Date,
  full: FullBuild,
  index: number,
  current: Pick<LayeredSnapshot, 'version' | 'changeLog'>,
): Promise<FullBuild> {
  const cutoff = new Date(now.getTime() - RETAINED_ENDED_MS);
  return inOneView(db, async (trx) => {
    const view = await viewHead(trx);
    const count = full.segments.length;
    const { columns, suggestions, eventIndex } = await readSegment(trx, view, cutoff, count > 1 ? { segment: index, of: count } : null);
    const sharedId = sharedIdOf(columns.eventIds, eventIndex);
    const extended = BigInt(view.version) >= BigInt(current.version) ? await extendSnapshotChangeLog(trx, current.changeLog, current.version, sharedId) : null;
    const changeLog = extended ? extended.log : await readSnapshotChangeLog(trx, sharedId);
    return withSegmentRebuilt(full, index, { version: view.version, ...columns, changeLog, suggestions }, changeLog);
  });
}

/** What every segment of a view is read with: the view's version, its highest date id, its catalogue. */
interface ViewHead {
  version: string;
  occurrencesUpTo: number;
  catalogue: CatalogueRead;
}

async function viewHead(trx: Transaction<Database>): Promise<ViewHead> {
  const { version } = await trx.selectFrom('calendar_state').select('version').executeTakeFirstOrThrow();
  return { version: String(version), occurrencesUpTo: await highestOccurrenceId(trx), catalogue: await readCatalogue(trx) };
}

/** One segment's columns and suggestion index, built whole, and its ids' numbers (for the change log's shared ids). */
interface SegmentRead {
  columns: Omit<CalendarSnapshot, 'version' | 'changeLog' | 'suggestions'>;
  suggestions: CalendarSnapshot['suggestions'];
  eventIndex: ReadonlyMap<string, number>;
}

/** The events of `selection` (null: all) and their dates, read in the view, with their suggestion index. */
async function readSegment(trx: Transaction<Database>, { catalogue, occurrencesUpTo }: ViewHead, cutoff: Date, selection: EventSelection | null): Promise<SegmentRead> {
  const suggestions = new SuggestionIndexBuilder();
  const events = await readEvents(trx, cutoff, catalogue, suggestions, selection);
  const dates = await readDates(trx, cutoff, events, catalogue, selection);
  const columns = { ...catalogue.snapshot, ...events.snapshot, ...dates, occurrencesUpTo };
  return { columns, suggestions: suggestions.build(columns, events.readOrder, cutoff.getTime()), eventIndex: events.eventIndex };
}

/** Events with a date not ended at `cutoff`: what a full build holds, to split it in segments. */
async function liveEvents(trx: Transaction<Database>, cutoff: Date): Promise<number> {
  const { rows } = await sql<{ live: number }>`select count(*)::float8 as live from events where last_ends_at > ${cutoff}`.execute(trx);
  return Number(rows[0]?.live ?? 0);
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
  const { segments } = full;
  // Segments rebuilt apart (a compaction goes one segment at a time) differ in version, dates read and clock:
  // what changed is what changed since each event's segment was built, and the delta keeps what the oldest keeps.
  const cutoff = new Date(Math.min(...segments.map((segment) => segment.suggestions.publishingHorizon)));
  const oldest = segments.reduce((a, b) => (BigInt(b.version) < BigInt(a.version) ? b : a));
  const occurrencesFrom = Math.min(...segments.map((segment) => segment.occurrencesUpTo));
  const segmentMask = segments.length - 1;
  const read = await inOneView(db, async (trx) => {
    // The delta keeps its few events' labels: layered typeahead ranks them without a read.
    const suggestions = new SuggestionIndexBuilder({ keepLabels: true });
    const { version: read } = await trx.selectFrom('calendar_state').select('version').executeTakeFirstOrThrow();
    const version = String(read);
    if (BigInt(version) < BigInt(previous.version)) return { kind: 'fallback' as const, fallback: 'older-version' as const };
    if (version === previous.version) return { kind: 'same' as const };
    const catalogue = await readCatalogue(trx);
    const catalogueChanges = segments.map((segment) => catalogueChange(segment.catalogue, catalogue.snapshot.catalogue));
    if (catalogueChanges.some((change) => change.kind === 'full')) return { kind: 'fallback' as const, fallback: 'catalogue' as const };
    const occurrencesUpTo = await highestOccurrenceId(trx);
    // Changed or removed by the log, or rewritten by an import that listed them unchanged (their dates then have new ids).
    // Each with the segment its id falls in (event-segments.ts), where it is masked when the full build holds it.
    const { rows: candidates } = await sql<{ event_id: string; segment: number; logged: number; rewritten: number }>`
      select event_id, ${segmentOfId('event_id', segmentMask)} as segment, max(logged) as logged, max(rewritten) as rewritten from (
        select event_id, version::float8 as logged, 0::float8 as rewritten from event_changes where version > ${oldest.version}::bigint
        union all select event_id, 0, id::float8 from occurrences where id > ${String(occurrencesFrom)}::bigint) changed
      group by event_id`.execute(trx);
    const rows = candidates.filter(({ segment, logged, rewritten }) => logged > Number(segments[segment]!.version) || rewritten > segments[segment]!.occurrencesUpTo);
    if (rows.length > deltaLargest) return { kind: 'fallback' as const, fallback: 'delta-size' as const };
    const changed = rows.map((r) => r.event_id);
    const events = await readEvents(trx, cutoff, catalogue, suggestions, { ids: changed });
    const dates = await readDates(trx, cutoff, events, catalogue, { ids: changed });
    const sharedId = sharedIdOf(events.snapshot.eventIds, events.eventIndex);
    // The full build's log shared, the rows since it read (what changed since, not the whole log).
    const layered = await layerSnapshotChangeLog(trx, full.changeLog, full.logVersion, previous.version, sharedId);
    const changeLog = layered ? layered.log : await readSnapshotChangeLog(trx, sharedId);
    const changes = layered ? layered.changes : await readChangesSince(trx, previous.version);
    return {
      kind: 'read' as const,
      version,
      changed: rows,
      catalogue: catalogue.snapshot,
      stale: catalogueChanges.map((change) => (change.kind === 'layered' ? change.stale : null)),
      columns: { ...events.snapshot, ...dates, occurrencesUpTo },
      changeLog,
      readOrder: events.readOrder,
      changes,
      suggestions,
    };
  });
  if (read.kind === 'fallback') return { fallback: read.fallback };
  if (read.kind === 'same') return { layered: previous, changes: { since: previous.version, changedEvents: 0, removedEvents: 0 }, changedSinceFull: 0 };
  // The same catalogue rows as a segment's: its columns are shared, its numbering is the delta's. A changed
  // catalogue: the delta numbers the newest one its own way, the layers meet by id (catalogue-changes.ts).
  const same = segments.findIndex((_, i) => read.stale[i] === null);
  const catalogueColumns: CatalogueColumns = same >= 0 ? segments[same]! : read.catalogue;
  const columns = { ...pickCatalogueColumns(catalogueColumns), ...read.columns };
  const delta: CalendarSnapshot = {
    version: read.version,
    ...columns,
    changeLog: read.changeLog,
    suggestions: read.suggestions.build(columns, read.readOrder, cutoff.getTime()),
  };
  const masked: number[][] = full.segments.map(() => []);
  for (const { event_id: id, segment } of read.changed) {
    const event = eventIndexOf(full.segments[segment]!, id);
    if (event >= 0) masked[segment]!.push(event);
  }
  const masks = masked.map((events) => Uint32Array.from(events).sort());
  const layered: LayeredSnapshot = {
    ...fullLayers(full),
    version: read.version,
    bases: full.segments.map((segment, i) => maskedBase(segment, masks[i]!, read.version, read.changeLog)),
    maskedIn: masks.map((mask) => mask.length),
    delta,
    masked: masks.reduce((sum, mask) => sum + mask.length, 0),
    changeLog: read.changeLog,
    catalogue: delta.catalogue,
    staleInBases: read.stale,
  };
  return { layered, changes: read.changes, changedSinceFull: read.changed.length };
}

/** The highest `occurrences.id` in the transaction's view (0 without dates): see CalendarSnapshot.occurrencesUpTo. */
async function highestOccurrenceId(trx: Transaction<Database>): Promise<number> {
  const { rows } = await sql<{ top: number }>`select coalesce(max(id), 0)::float8 as top from occurrences`.execute(trx);
  return Number(rows[0]?.top ?? 0);
}
