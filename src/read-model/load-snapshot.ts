import { sql, type Kysely, type Transaction } from 'kysely';
import type { CategoryRow, Database, OrganizerRow, VenueRow } from '../db/database.js';
import { norwegianNameKey } from '../db/repositories/catalogue.js';
import {
  EVENT_FEATURED,
  EVENT_FEATURED_SPECIAL,
  EVENT_SUPER,
  DATE_CANCELLED,
  DATE_NO_END,
  DATE_SOLD_OUT,
  MODE_OFFLINE,
  MODE_ONLINE,
  MODE_OTHER,
  eventIndexOf,
  type CalendarSnapshot,
  type PackedLists,
  type SnapshotCatalogue,
} from './calendar-snapshot.js';
import { GrowingColumn } from './growing-column.js';
import { readChangesSince, type ChangesSince } from './changes-since.js';
import { extendSnapshotChangeLog, layerSnapshotChangeLog, readSnapshotChangeLog } from './snapshot-change-log.js';
import { buildWalkIndexes } from './walk-indexes.js';
import { fullLayers, maskedBase, type LayeredSnapshot } from './layered-snapshot.js';
import { SuggestionIndexBuilder } from './suggestion-index.js';

/**
 * Dates that ended up to this long before the build are kept: a request's "now" may lag the
 * builder's clock a little (a request that started before the build), and tests set clocks back.
 */
export const RETAINED_ENDED_MS = 24 * 60 * 60 * 1000;

/** Rows per statement while reading events and dates: bounds the rows held at once at any size. */
const ROWS_PER_READ = 50_000;

/** Runs `work` in one read-only repeatable-read transaction: one consistent view of every table, one data version. */
function inOneView<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
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
  const suggestions = new SuggestionIndexBuilder();
  const read = await inOneView(db, async (trx) => {
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
    return { version: String(version), columns: { ...catalogue.snapshot, ...events.snapshot, ...dates, occurrencesUpTo }, changeLog, readOrder: events.readOrder, changes };
  });
  // Built once the transaction is over: it reads nothing more.
  const snapshot = { version: read.version, ...read.columns, changeLog: read.changeLog, suggestions: suggestions.build(read.columns, read.readOrder, cutoff.getTime()) };
  return { snapshot, changes: read.changes };
}

/** Why a newer version could not be layered on the last full build: a full build is needed. */
export type LayeredFallback = 'catalogue' | 'older-version' | 'delta-size';

/**
 * The newest data version as layers over `previous`'s full build (layered-snapshot.ts), read in one
 * read-only repeatable-read transaction: the version, the catalogue (a change of it falls back to a
 * full build: it renumbers or relabels what every layer shares), the ids `event_changes` logged after
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
  const suggestions = new SuggestionIndexBuilder();
  const read = await inOneView(db, async (trx) => {
    const { version: read } = await trx.selectFrom('calendar_state').select('version').executeTakeFirstOrThrow();
    const version = String(read);
    if (BigInt(version) < BigInt(previous.version)) return { kind: 'fallback' as const, fallback: 'older-version' as const };
    if (version === previous.version) return { kind: 'same' as const };
    const catalogue = await readCatalogue(trx);
    if (!sameCatalogue(catalogue.snapshot.catalogue, full.catalogue)) return { kind: 'fallback' as const, fallback: 'catalogue' as const };
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
    return { kind: 'read' as const, version, ids: changed, columns: { ...events.snapshot, ...dates, occurrencesUpTo }, changeLog, readOrder: events.readOrder, changes };
  });
  if (read.kind === 'fallback') return { fallback: read.fallback };
  if (read.kind === 'same') return { layered: previous, changes: { since: previous.version, changedEvents: 0, removedEvents: 0 }, changedSinceFull: 0 };
  // The catalogue is the full build's (the same rows): its columns are shared, its numbering is the delta's.
  const catalogueColumns: CatalogueColumns = full;
  const columns = { ...pickCatalogueColumns(catalogueColumns), ...read.columns };
  const delta: CalendarSnapshot = {
    version: read.version,
    ...columns,
    changeLog: read.changeLog,
    suggestions: suggestions.build(columns, read.readOrder, cutoff.getTime()),
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
  };
  return { layered, changes: read.changes, changedSinceFull: read.ids.length };
}

/** The highest `occurrences.id` in the transaction's view (0 without dates): see CalendarSnapshot.occurrencesUpTo. */
async function highestOccurrenceId(trx: Transaction<Database>): Promise<number> {
  const { rows } = await sql<{ top: number }>`select coalesce(max(id), 0)::float8 as top from occurrences`.execute(trx);
  return Number(rows[0]?.top ?? 0);
}

/** Whether two catalogues hold the same venue, organizer and category rows (so number and label them alike). */
function sameCatalogue(a: SnapshotCatalogue, b: SnapshotCatalogue): boolean {
  return (
    JSON.stringify(a.venuesByName) === JSON.stringify(b.venuesByName) &&
    JSON.stringify(a.organizersByName) === JSON.stringify(b.organizersByName) &&
    JSON.stringify(a.categories) === JSON.stringify(b.categories)
  );
}

function pickCatalogueColumns(c: CatalogueColumns): CatalogueColumns {
  return {
    catalogue: c.catalogue,
    venueIds: c.venueIds,
    venueBySlug: c.venueBySlug,
    venueFoldedNames: c.venueFoldedNames,
    venueMunicipalities: c.venueMunicipalities,
    venuePostalCodes: c.venuePostalCodes,
    venueLatitudes: c.venueLatitudes,
    venueLongitudes: c.venueLongitudes,
    organizerIds: c.organizerIds,
    organizerBySlug: c.organizerBySlug,
    organizerFoldedNames: c.organizerFoldedNames,
  };
}

type CatalogueColumns = Pick<
  CalendarSnapshot,
  | 'catalogue'
  | 'venueIds'
  | 'venueBySlug'
  | 'venueFoldedNames'
  | 'venueMunicipalities'
  | 'venuePostalCodes'
  | 'venueLatitudes'
  | 'venueLongitudes'
  | 'organizerIds'
  | 'organizerBySlug'
  | 'organizerFoldedNames'
>;

interface CatalogueRead {
  snapshot: CatalogueColumns;
  venueIndex: Map<string, number>;
  organizerIndex: Map<string, number>;
  categoryFolded: Map<string, string>;
}

async function readCatalogue(trx: Transaction<Database>): Promise<CatalogueRead> {
  const venueRows = await trx
    .selectFrom('venues')
    .selectAll()
    .select(sql<string>`calendar_fold(name)`.as('folded'))
    .orderBy(norwegianNameKey('name'))
    .orderBy('id')
    .execute();
  const organizerRows = await trx
    .selectFrom('organizers')
    .selectAll()
    .select(sql<string>`calendar_fold(name)`.as('folded'))
    .orderBy(norwegianNameKey('name'))
    .orderBy('id')
    .execute();
  const categoryRows = await trx
    .selectFrom('categories')
    .selectAll()
    .select(sql<string>`calendar_fold(name_nb || ' ' || name_en)`.as('folded'))
    .orderBy('position')
    .orderBy('id')
    .execute();

  const venuesByName: VenueRow[] = venueRows.map(({ folded: _folded, ...venue }) => venue);
  const organizersByName: OrganizerRow[] = organizerRows.map(({ folded: _folded, ...organizer }) => organizer);
  const categories: CategoryRow[] = categoryRows.map(({ folded: _folded, ...category }) => category);
  const venueIndex = new Map(venueRows.map((v, i) => [v.id, i]));
  const organizerIndex = new Map(organizerRows.map((o, i) => [o.id, i]));
  const venueLatitudes = new Float64Array(venueRows.length);
  const venueLongitudes = new Float64Array(venueRows.length);
  venueRows.forEach((v, i) => {
    venueLatitudes[i] = v.latitude ?? Number.NaN;
    venueLongitudes[i] = v.longitude ?? Number.NaN;
  });
  return {
    snapshot: {
      catalogue: {
        venues: new Map(venuesByName.map((v) => [v.id, v])),
        organizers: new Map(organizersByName.map((o) => [o.id, o])),
        categories,
        categoriesById: new Map(categories.map((c) => [c.id, c])),
        venuesByName,
        organizersByName,
      },
      venueIds: venueRows.map((v) => v.id),
      venueBySlug: new Map(venueRows.map((v, i) => [v.slug, i])),
      venueFoldedNames: venueRows.map((v) => v.folded),
      venueMunicipalities: venueRows.map((v) => (v.municipality == null ? null : v.municipality.toLowerCase())),
      venuePostalCodes: venueRows.map((v) => v.postal_code),
      venueLatitudes,
      venueLongitudes,
      organizerIds: organizerRows.map((o) => o.id),
      organizerBySlug: new Map(organizerRows.map((o, i) => [o.slug, i])),
      organizerFoldedNames: organizerRows.map((o) => o.folded),
    },
    venueIndex,
    organizerIndex,
    categoryFolded: new Map(categoryRows.map((c) => [c.id, c.folded])),
  };
}

type EventColumns = Pick<
  CalendarSnapshot,
  | 'categoryIds'
  | 'categoryByKey'
  | 'categoryListed'
  | 'categoryFoldedNames'
  | 'eventIds'
  | 'eventPublishing'
  | 'eventMode'
  | 'eventFlags'
  | 'eventSuperEvent'
  | 'superEventKeys'
  | 'eventTags'
  | 'tagKeys'
  | 'eventCategories'
  | 'eventOrganizers'
>;

interface EventsRead {
  snapshot: EventColumns;
  eventIndex: Map<string, number>;
  /** `readOrder[i]`: the position in read order of event i. */
  readOrder: Uint32Array;
}

interface EventRow {
  id: string;
  slug: string;
  title_nb: string | null;
  title_en: string | null;
  publishing_ms: number | null;
  mode: string;
  tags: string[];
  super_event_id: string | null;
  featured: boolean;
  featured_special_event: boolean;
  is_super_event: boolean;
  category_ids: string[];
  organizer_ids: string[];
}

/** Keys numbered in first-seen order. */
class KeyNumbers {
  readonly numbers = new Map<string, number>();
  numberOf(key: string): number {
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = this.numbers.size;
      this.numbers.set(key, n);
    }
    return n;
  }
}

/** A packed list per entity, appended entity by entity in read order. */
class ListBuilder {
  private readonly starts = new GrowingColumn(new Uint32Array(0), (n) => new Uint32Array(n));
  private readonly values = new GrowingColumn(new Uint32Array(0), (n) => new Uint32Array(n));
  add(list: Iterable<number>): void {
    this.starts.push(this.values.length);
    for (const value of list) this.values.push(value);
  }
  /** The lists packed in the order `order` gives (entity order[i] becomes entity i). */
  packed(order: Uint32Array): PackedLists {
    const starts = this.starts.array;
    const values = this.values.array;
    const count = this.starts.length;
    const end = (entity: number) => (entity + 1 < count ? starts[entity + 1]! : this.values.length);
    const offsets = new Uint32Array(order.length + 1);
    for (let i = 0; i < order.length; i++) offsets[i + 1] = offsets[i]! + end(order[i]!) - starts[order[i]!]!;
    const packed = new Uint32Array(offsets[order.length]!);
    for (let i = 0; i < order.length; i++) packed.set(values.subarray(starts[order[i]!], end(order[i]!)), offsets[i]);
    return { offsets, values: packed };
  }
}

/** `column` reordered: element order[i] becomes element i. */
function permuted<T extends Float64Array | Int32Array | Uint8Array>(column: T, order: Uint32Array, make: (size: number) => T): T {
  const result = make(order.length);
  for (let i = 0; i < order.length; i++) result[i] = column[order[i]!]!;
  return result;
}

async function readEvents(
  trx: Transaction<Database>,
  cutoff: Date,
  catalogue: CatalogueRead,
  suggestions: SuggestionIndexBuilder,
  only: readonly string[] | null = null,
): Promise<EventsRead> {
  const categories = new KeyNumbers();
  // Listed categories first, so that their numbers follow the calendar's order.
  for (const c of catalogue.snapshot.catalogue.categories) categories.numberOf(c.id);
  const tags = new KeyNumbers();
  const superEvents = new KeyNumbers();
  // Filled in read order (the database's id order), one row at a time: no row is held past its page.
  const ids: string[] = [];
  const publishing = new GrowingColumn(new Float64Array(0), (n) => new Float64Array(n));
  const mode = new GrowingColumn(new Uint8Array(0), (n) => new Uint8Array(n));
  const flags = new GrowingColumn(new Uint8Array(0), (n) => new Uint8Array(n));
  const superEvent = new GrowingColumn(new Int32Array(0), (n) => new Int32Array(n));
  const tagLists = new ListBuilder();
  const categoryLists = new ListBuilder();
  const organizerLists = new ListBuilder();
  for (let after: string | null = null; ; ) {
    const page: EventRow[] = await trx
      .selectFrom('events as e')
      .select([
        'e.id',
        'e.slug',
        'e.title_nb',
        'e.title_en',
        sql<number | null>`date_part('epoch', e.publishing_date) * 1000`.as('publishing_ms'),
        'e.mode',
        'e.tags',
        'e.super_event_id',
        'e.featured',
        'e.featured_special_event',
        'e.is_super_event',
        sql<string[]>`coalesce((select array_agg(ec.category_id order by ec.position) from event_categories ec where ec.event_id = e.id), '{}')`.as('category_ids'),
        sql<string[]>`coalesce((select array_agg(eo.organizer_id order by eo.position) from event_organizers eo where eo.event_id = e.id), '{}')`.as('organizer_ids'),
      ])
      .where('e.last_ends_at', '>', cutoff)
      .$if(only !== null, (q) => q.where(sql<boolean>`e.id = any(${only}::text[])`))
      .$if(after !== null, (q) => q.where('e.id', '>', after!))
      .orderBy('e.id')
      .limit(ROWS_PER_READ)
      .execute();
    for (const row of page) {
      ids.push(row.id);
      publishing.push(row.publishing_ms == null ? Number.NaN : Number(row.publishing_ms));
      mode.push(row.mode === 'offline' ? MODE_OFFLINE : row.mode === 'online' ? MODE_ONLINE : MODE_OTHER);
      flags.push((row.featured ? EVENT_FEATURED : 0) | (row.featured_special_event ? EVENT_FEATURED_SPECIAL : 0) | (row.is_super_event ? EVENT_SUPER : 0));
      superEvent.push(row.super_event_id == null ? -1 : superEvents.numberOf(row.super_event_id));
      tagLists.add(new Set(row.tags.map((t) => tags.numberOf(t))));
      categoryLists.add(row.category_ids.map((c) => categories.numberOf(c)));
      const organizers: number[] = [];
      for (const o of row.organizer_ids) {
        const index = catalogue.organizerIndex.get(o);
        if (index !== undefined) organizers.push(index);
      }
      organizerLists.add(organizers);
      // Titles are folded here and not kept: the suggestion index holds their words (suggestion-index.ts).
      suggestions.addEvent(row.slug, row.title_nb, row.title_en);
    }
    if (page.length < ROWS_PER_READ) break;
    after = page[page.length - 1]!.id;
  }

  // Code-unit order, whatever the database's collation: event numbers then compare as ids do.
  const n = ids.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
  const eventIds = Array.from(order, (i) => ids[i]!);
  const eventIndex = new Map<string, number>();
  eventIds.forEach((id, i) => eventIndex.set(id, i));

  const categoryIds = [...categories.numbers.keys()];
  const categoryListed = new Uint8Array(categoryIds.length);
  categoryListed.fill(1, 0, catalogue.snapshot.catalogue.categories.length);
  return {
    snapshot: {
      categoryIds,
      categoryByKey: categories.numbers,
      categoryListed,
      categoryFoldedNames: categoryIds.map((id) => catalogue.categoryFolded.get(id) ?? ''),
      eventIds,
      eventPublishing: permuted(publishing.array, order, (size) => new Float64Array(size)),
      eventMode: permuted(mode.array, order, (size) => new Uint8Array(size)),
      eventFlags: permuted(flags.array, order, (size) => new Uint8Array(size)),
      eventSuperEvent: permuted(superEvent.array, order, (size) => new Int32Array(size)),
      superEventKeys: superEvents.numbers,
      eventTags: tagLists.packed(order),
      tagKeys: tags.numbers,
      eventCategories: categoryLists.packed(order),
      eventOrganizers: organizerLists.packed(order),
    },
    eventIndex,
    readOrder: order,
  };
}

type DateColumns = Pick<
  CalendarSnapshot,
  'eventDateOffsets' | 'dateCount' | 'dateOrder' | 'venueDateRanks' | 'walk' | 'dateStart' | 'dateEnds' | 'dateEvent' | 'dateVenue' | 'dateId' | 'dateDay' | 'dateMinute' | 'dateFlags'
>;

interface DateRow {
  id: number;
  event_id: string;
  start_ms: number;
  ends_ms: number;
  venue_id: string | null;
  local_minute: number;
  day: number;
  cancelled: boolean;
  sold_out: boolean;
  no_end: boolean;
}

async function readDates(
  trx: Transaction<Database>,
  cutoff: Date,
  events: EventsRead,
  catalogue: CatalogueRead,
  only: readonly string[] | null = null,
): Promise<DateColumns> {
  const start = new GrowingColumn(new Float64Array(0), (s) => new Float64Array(s));
  const ends = new GrowingColumn(new Float64Array(0), (s) => new Float64Array(s));
  const event = new GrowingColumn(new Uint32Array(0), (s) => new Uint32Array(s));
  const venue = new GrowingColumn(new Int32Array(0), (s) => new Int32Array(s));
  const id = new GrowingColumn(new Float64Array(0), (s) => new Float64Array(s));
  const day = new GrowingColumn(new Int32Array(0), (s) => new Int32Array(s));
  const minute = new GrowingColumn(new Uint16Array(0), (s) => new Uint16Array(s));
  const flags = new GrowingColumn(new Uint8Array(0), (s) => new Uint8Array(s));
  for (let after = -1; ; ) {
    const page: DateRow[] = await trx
      .selectFrom('occurrences as o')
      .select([
        sql<number>`o.id::float8`.as('id'),
        'o.event_id',
        sql<number>`date_part('epoch', o.start_at) * 1000`.as('start_ms'),
        sql<number>`date_part('epoch', o.ends_at) * 1000`.as('ends_ms'),
        'o.venue_id',
        'o.local_minute',
        sql<number>`o.local_day::date - date '1970-01-01'`.as('day'),
        'o.cancelled',
        'o.sold_out',
        sql<boolean>`o.end_at is null`.as('no_end'),
      ])
      .where('o.ends_at', '>', cutoff)
      .$if(only !== null, (q) => q.where(sql<boolean>`o.event_id = any(${only}::text[])`))
      .where('o.id', '>', after)
      .orderBy('o.id')
      .limit(ROWS_PER_READ)
      .execute();
    for (const row of page) {
      const eventNumber = events.eventIndex.get(row.event_id);
      // Cannot happen within one consistent read (the event's last end is at least this date's end).
      if (eventNumber === undefined) continue;
      start.push(Number(row.start_ms));
      ends.push(Number(row.ends_ms));
      event.push(eventNumber);
      venue.push(row.venue_id == null ? -1 : (catalogue.venueIndex.get(row.venue_id) ?? -1));
      id.push(Number(row.id));
      day.push(Number(row.day));
      minute.push(row.local_minute);
      flags.push((row.cancelled ? DATE_CANCELLED : 0) | (row.sold_out ? DATE_SOLD_OUT : 0) | (row.no_end ? DATE_NO_END : 0));
    }
    if (page.length < ROWS_PER_READ) break;
    after = Number(page[page.length - 1]!.id);
  }

  // Grouped by event, each event's dates chronological (ties by date id): one event's dates are
  // read together, in order, by the scans and by `repetitions`.
  const count = start.length;
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  const s = start.array;
  const e = event.array;
  const d = id.array;
  order.sort((a, b) => e[a]! - e[b]! || s[a]! - s[b]! || d[a]! - d[b]!);
  const permute = <T extends Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array>(column: GrowingColumn<T>, make: (size: number) => T): T => {
    const sorted = make(count);
    for (let i = 0; i < count; i++) sorted[i] = column.array[order[i]!]!;
    return sorted;
  };
  const dateEvent = permute(event, (n) => new Uint32Array(n));
  const dateStart = permute(start, (n) => new Float64Array(n));
  const dateId = permute(id, (n) => new Float64Array(n));
  const eventCount = events.snapshot.eventIds.length;
  const offsets = new Uint32Array(eventCount + 1);
  for (let i = 0; i < count; i++) offsets[dateEvent[i]! + 1] = offsets[dateEvent[i]! + 1]! + 1;
  for (let i = 0; i < eventCount; i++) offsets[i + 1] = offsets[i + 1]! + offsets[i]!;
  // The listing order: by start, then event id (event numbers follow ids), then date id.
  const dateOrder = new Uint32Array(count);
  for (let i = 0; i < count; i++) dateOrder[i] = i;
  dateOrder.sort((a, b) => dateStart[a]! - dateStart[b]! || dateEvent[a]! - dateEvent[b]! || dateId[a]! - dateId[b]!);
  const dateVenue = permute(venue, (n) => new Int32Array(n));
  const dateEnds = permute(ends, (n) => new Float64Array(n));

  return {
    eventDateOffsets: offsets,
    dateCount: count,
    dateOrder,
    venueDateRanks: ranksByVenue(dateOrder, dateVenue, catalogue.venueIndex.size),
    walk: buildWalkIndexes({ ...catalogue.snapshot, ...events.snapshot, eventDateOffsets: offsets, dateOrder, dateStart, dateEnds, dateVenue }),
    dateStart,
    dateEnds,
    dateEvent,
    dateVenue,
    dateId,
    dateDay: permute(day, (n) => new Int32Array(n)),
    dateMinute: permute(minute, (n) => new Uint16Array(n)),
    dateFlags: permute(flags, (n) => new Uint8Array(n)),
  };

}

/** Each venue's dates as positions in the listing order, ascending (a counting sort: one pass to count, one to place). */
function ranksByVenue(dateOrder: Uint32Array, dateVenue: Int32Array, venueCount: number): PackedLists {
  const offsets = new Uint32Array(venueCount + 1);
  for (let rank = 0; rank < dateOrder.length; rank++) {
    const venue = dateVenue[dateOrder[rank]!]!;
    if (venue >= 0) offsets[venue + 1] = offsets[venue + 1]! + 1;
  }
  for (let v = 0; v < venueCount; v++) offsets[v + 1] = offsets[v + 1]! + offsets[v]!;
  const values = new Uint32Array(offsets[venueCount]!);
  const next = offsets.slice(0, venueCount);
  for (let rank = 0; rank < dateOrder.length; rank++) {
    const venue = dateVenue[dateOrder[rank]!]!;
    if (venue >= 0) values[next[venue]!++] = rank;
  }
  return { offsets, values };
}
