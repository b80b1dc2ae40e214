import type { Kysely } from 'kysely';
import type { Suggestion } from '../../generated/schema-types.js';
import type { Database, EventFields, EventRecord, OccurrenceRow } from '../db/database.js';
import { distanceKm, roundDistanceKm } from '../domain/distance-km.js';
import type { EventQuery } from '../domain/event-query.js';
import type { SuggestInput } from '../domain/suggest-input.js';
import { EVENT_SUPER, isEventPublished, upcomingDatesOf, type CalendarSnapshot, type SnapshotCatalogue } from './snapshot/calendar-snapshot.js';
import { onOneDataVersion } from './data-version-moved.js';
import type { DateColumn } from './records/date-columns.js';
import { dateRecordsOfLayers } from './records/date-records.js';
import { eventRecordsAt, eventRecordsOfLayers } from './records/event-records.js';
import { findLayeredPage, type LayeredWords } from './layers/layered-result-page.js';
import { layeredEventOf, layersOf, type LayeredSnapshot } from './layers/layered-snapshot.js';
import { listInTurns } from './list-in-turns.js';
import type { ReadModel } from './read-model.js';
import { layeredWordMatch, type SearchMode } from './search/search-matches.js';
import { eventLabelsOf, findLayeredSuggestions, type SuggestedEventLabel } from './typeahead/layered-suggestions.js';
import type { FacetCount, FacetKind } from './walk/result-page.js';

/**
 * One node of a result: an event with one of its dates promoted into the event's date fields.
 * `groupedDay` (days since 1970-01-01) is set when nodes are grouped per Oslo day: repetitions then
 * stay within that day. `repetitions` is filled when the operation selects them.
 */
export interface CalendarNode {
  event: EventRecord;
  occurrence: OccurrenceRow;
  groupedDay: number | null;
  repetitions: OccurrenceRow[] | null;
  /** Venues and organizers of the same version, so that a node's are looked up without waiting. */
  catalogue: SnapshotCatalogue;
  /** `Filter.near` given: km from its point to the promoted date's venue, rounded (distance-km.ts); else null. */
  distanceKm: number | null;
}

/** The columns an operation's Event fields read (see NodeOptions.columns). */
export interface SelectedColumns {
  event: readonly (keyof EventFields)[];
  date: readonly DateColumn[];
}

export interface NodeOptions {
  /** Load each node's later dates too (the operation selects `repetitions`). */
  repetitions: boolean;
  /**
   * Read only these columns: of `events`, what the selected fields read (event-columns.ts); of the
   * dates, what the snapshot does not hold (date-columns.ts). Absent or null: every column. The
   * resolvers set it from the operation's selection (schema/node-options.ts): the records are then
   * partial, fit for the fields of that operation alone.
   */
  columns?: SelectedColumns | null | undefined;
}

export interface EventsPageRequest extends NodeOptions {
  query: EventQuery;
  page: number;
  pageSize: number;
  facets: readonly FacetKind[];
  wantsTotal: boolean;
}

export interface EventsPage {
  nodes: CalendarNode[];
  hasMore: boolean;
  totalCount: number | null;
  facets: Partial<Record<FacetKind, FacetCount[]>>;
}

export interface Box {
  minLatitude: number;
  maxLatitude: number;
  minLongitude: number;
  maxLongitude: number;
}

/** What an EVENT suggestion shows of its event (sorted: the statement's key, record-statements.ts). */
const SUGGESTED_EVENT_COLUMNS = ['id', 'slug', 'title_en', 'title_nb'] as const satisfies readonly (keyof EventFields)[];

/** An area answer with more events than this is large: built under the read model's `largeAreaAnswers`, in chunks. */
const LARGE_AREA_ANSWER = 1000;
/** Events whose records one pair of statements reads. */
const AREA_READ_CHUNK = 2500;
/**
 * Items completed per turn of the event loop: about 10 ms of work at ~20 µs per event with the
 * fields a map shows (measured with bench/area.ts), so a request arriving meanwhile waits that long.
 */
const AREA_TURN_CHUNK = 500;

/** A node to read: an event and a date of one layer of the version (layered-snapshot.ts). */
interface NodeRef {
  snapshot: CalendarSnapshot;
  event: number;
  date: number;
  groupedDay: number | null;
}

/** The search words matched in each layer (`layeredWordMatch`): one statement per word. */
export async function layeredWordMatches(
  db: Kysely<Database>,
  layers: LayeredSnapshot,
  words: readonly string[],
  mode: SearchMode,
): Promise<LayeredWords> {
  const matches = await Promise.all(words.map((word) => layeredWordMatch(db, layers, word, mode)));
  return { bases: layers.bases.map((_, i) => matches.map((m) => m.bases[i]!)), delta: matches.flatMap((m) => (m.delta ? [m.delta] : [])) };
}

/**
 * What one request reads of the calendar. Every answer comes from one version of the read model
 * (its layers, pinned for the request: layered-snapshot.ts) and records of that same data version:
 * when an import lands in between, the part being answered starts over on the new version.
 */
export class CalendarReader {
  private pinned: Promise<LayeredSnapshot> | null = null;

  constructor(
    private readonly model: ReadModel,
    private readonly db: Kysely<Database>,
    private readonly now: Date,
  ) {}

  /** Venues, organizers and categories of the request's snapshot. */
  async catalogue(): Promise<SnapshotCatalogue> {
    return (await this.snapshot()).catalogue;
  }

  /** A page of `events`, its total and facets. */
  eventsPage(request: EventsPageRequest): Promise<EventsPage> {
    return this.consistently(async (layers) => {
      const q = request.query;
      const pageOf = async (mode: SearchMode) => {
        const words = await layeredWordMatches(this.db, layers, q.searchWords, mode);
        return findLayeredPage(layers, request, words);
      };
      let result = await pageOf('literal');
      // "A literal match anywhere means no approximate matches."
      if (q.searchWords.length > 0 && result.totalCount === 0) result = await pageOf('approximate');
      const refs = result.nodes.map(({ snapshot, event, date }) => ({ snapshot, event, date, groupedDay: q.groupByDay ? snapshot.dateDay[date]! : null }));
      const nodes = await this.loadNodes(layers, refs, request);
      const near = q.near;
      if (near) {
        // Every node passed `near`, so its date has a venue with a location (the layers share the venues).
        refs.forEach(({ snapshot, date }, i) => {
          const venue = snapshot.dateVenue[date]!;
          const km = distanceKm(near.latitude, near.longitude, snapshot.venueLatitudes[venue]!, snapshot.venueLongitudes[venue]!);
          nodes[i]!.distanceKm = roundDistanceKm(km);
        });
      }
      return {
        nodes,
        hasMore: result.hasMore,
        totalCount: result.totalCount,
        facets: result.facets,
      };
    });
  }

  /**
   * Typeahead suggestions (suggestions.ts), labelled: the catalogue's from the snapshot, the events'
   * titles and slugs read at the snapshot's version (one statement per layer, for the few events
   * suggested: across layers, their labels rank them).
   */
  suggest(input: SuggestInput): Promise<Suggestion[]> {
    return this.consistently(async (layers) => {
      const words = input.queries.filter.searchWords;
      // Both phases of `searchTerm` read before counting: each suggestion's total may need either.
      const [literal, approximate] =
        words.length > 0
          ? await Promise.all([layeredWordMatches(this.db, layers, words, 'literal'), layeredWordMatches(this.db, layers, words, 'approximate')])
          : [{ bases: layers.bases.map(() => []), delta: [] }, null];
      const records = new Map<CalendarSnapshot, Map<number, SuggestedEventLabel>>();
      // A delta's labels are in memory; the base's (or a full build's) suggested events are read.
      const labelsOf = async (snapshot: CalendarSnapshot, events: readonly number[]) => {
        const read = await eventLabelsOf(snapshot, events, (layer, list) => eventRecordsAt(this.db, layer, list, SUGGESTED_EVENT_COLUMNS));
        const kept = records.get(snapshot) ?? new Map<number, SuggestedEventLabel>();
        for (const [event, record] of read) kept.set(event, record);
        records.set(snapshot, kept);
        return read;
      };
      const request = { queries: input.queries, words: input.words, limit: input.limit };
      const found = await findLayeredSuggestions(layers, request, { literal, approximate }, labelsOf);
      for (const snapshot of layersOf(layers)) {
        const unread = found.filter((s) => s.kind === 'EVENT' && s.snapshot === snapshot && !records.get(snapshot)?.has(s.entity)).map((s) => s.entity);
        if (unread.length > 0) await labelsOf(snapshot, unread);
      }
      return found.map(({ kind, entity, hits, snapshot }): Suggestion => {
        // Numbered in its layer: each layer's catalogue numbers its entities (catalogue-changes.ts).
        const { catalogue } = snapshot;
        switch (kind) {
          case 'VENUE': {
            const venue = catalogue.venuesByName[entity]!;
            return { kind, value: venue.slug, label_nb: venue.name, label_en: venue.name, hits };
          }
          case 'ORGANIZER': {
            const organizer = catalogue.organizersByName[entity]!;
            return { kind, value: organizer.slug, label_nb: organizer.name, label_en: organizer.name, hits };
          }
          case 'CATEGORY': {
            const category = catalogue.categories[entity]!;
            return { kind, value: category.id, label_nb: category.name_nb, label_en: category.name_en, hits };
          }
          case 'TAG': {
            const tag = snapshot.suggestions.tagNames[entity]!;
            return { kind, value: tag, label_nb: tag, label_en: tag, hits };
          }
          case 'EVENT': {
            const event = records.get(snapshot)?.get(entity);
            // Read at the snapshot's version: present unless the data changed outside an import.
            if (!event) throw new Error(`event ${snapshot.eventIds[entity]} changed outside an import (data version ${snapshot.version})`);
            return { kind, value: event.slug, label_nb: event.title_nb, label_en: event.title_en, hits };
          }
        }
      });
    });
  }

  /**
   * The events with these ids, in that order, each with its next date that has not ended promoted;
   * events without one, unpublished or unknown are left out.
   */
  upcomingNodes(eventIds: readonly string[], options: NodeOptions): Promise<CalendarNode[]> {
    return this.consistently((layers) => this.upcomingNodesAt(layers, eventIds, options));
  }

  /**
   * Runs `work` on one snapshot, with `upcomingNodes` reading from that same snapshot: what it lists
   * from the snapshot and the nodes it reads are of one data version. When an import lands in between
   * (or `work` throws DataVersionMoved), the whole of `work` starts over on a newer snapshot.
   */
  atOneSnapshot<T>(work: (snapshot: LayeredSnapshot, upcomingNodes: (eventIds: readonly string[], options: NodeOptions) => Promise<CalendarNode[]>) => Promise<T>): Promise<T> {
    return this.consistently((layers) => work(layers, (eventIds, options) => this.upcomingNodesAt(layers, eventIds, options)));
  }

  private upcomingNodesAt(layers: LayeredSnapshot, eventIds: readonly string[], options: NodeOptions): Promise<CalendarNode[]> {
    const refs: NodeRef[] = [];
    for (const id of eventIds) {
      const found = layeredEventOf(layers, id);
      const ref = found && this.upcomingRef(found.snapshot, found.event);
      if (ref) refs.push(ref);
    }
    return this.loadNodes(layers, refs, options);
  }

  /** Container events with a date that has not ended, chronological. */
  upcomingSuperEvents(options: NodeOptions): Promise<CalendarNode[]> {
    return this.consistently(async (layers) => {
      const refs: NodeRef[] = [];
      for (const snapshot of layersOf(layers)) {
        for (let e = 0; e < snapshot.eventIds.length; e++) {
          if ((snapshot.eventFlags[e]! & EVENT_SUPER) === 0) continue;
          const ref = this.upcomingRef(snapshot, e);
          if (ref) refs.push(ref);
        }
      }
      return this.loadNodes(layers, refs.sort(listingOrder), options);
    });
  }

  /**
   * Events with a date that has not ended at a venue inside the box (edges included), each with its
   * next date promoted (wherever it is), chronological.
   *
   * A box may hold the whole calendar (tens of thousands of events, megabytes of answer), so a large
   * answer is built under bounds (docs/performance.md, "Whole-world allUpcomingEventsInArea"): one
   * at a time per read model, so per process (`largeAreaAnswers`: the others wait their turn, briefly, or get a 503); its
   * records are read AREA_READ_CHUNK events at a time (each statement's rows are parsed as they
   * arrive, and the statements stay small); and its items are handed to the executor
   * AREA_TURN_CHUNK at a time, one turn of the event loop each, so other requests interleave.
   */
  async eventsInArea(box: Box, options: NodeOptions): Promise<(CalendarNode | Promise<CalendarNode>)[]> {
    let found: { layers: LayeredSnapshot; refs: NodeRef[] } | undefined;
    const refsOf = (layers: LayeredSnapshot) => {
      if (found?.layers !== layers) found = { layers, refs: mergedInListingOrder(layersOf(layers).map((snapshot) => this.areaRefs(snapshot, box))) };
      return found.refs;
    };
    const small = await this.consistently(async (layers) => {
      const refs = refsOf(layers);
      return refs.length <= LARGE_AREA_ANSWER ? this.loadNodes(layers, refs, options) : null;
    });
    if (small) return small;
    const release = await this.model.largeAreaAnswers.enter();
    try {
      // The snapshot may have moved while waiting: the refs are found again then.
      const nodes = await this.consistently(async (layers) => {
        const refs = refsOf(layers);
        const chunks: NodeRef[][] = [];
        for (let start = 0; start < refs.length; start += AREA_READ_CHUNK) chunks.push(refs.slice(start, start + AREA_READ_CHUNK));
        // Two chunks in flight: the database reads the next while this process parses the last.
        const read: CalendarNode[][] = new Array<CalendarNode[]>(chunks.length);
        let next = 0;
        const reader = async () => {
          for (let k = next++; k < chunks.length; k = next++) read[k] = await this.loadNodes(layers, chunks[k]!, options);
        };
        await Promise.all([reader(), reader()]);
        return read.flat();
      });
      const { list, done } = listInTurns(nodes, AREA_TURN_CHUNK);
      // The slot is held until the executor has completed every item.
      void done.finally(release);
      return list;
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * The area's nodes (one per event, its next date promoted), chronological. Typed arrays only, no
   * comparator sort: the promoted dates are marked, then picked up in `dateOrder`, which already
   * lists dates by start, then event id (a sort of 17k nodes with a comparator took 30 ms).
   */
  private areaRefs(snapshot: CalendarSnapshot, box: Box): NodeRef[] {
    const { venueLatitudes, venueLongitudes, dateVenue, dateEvent, dateEnds, eventDateOffsets, dateOrder } = snapshot;
    const inside = new Uint8Array(venueLatitudes.length);
    for (let v = 0; v < inside.length; v++) {
      const lat = venueLatitudes[v]!;
      const lon = venueLongitudes[v]!;
      // NaN (no location) fails every comparison.
      if (lat >= box.minLatitude && lat <= box.maxLatitude && lon >= box.minLongitude && lon <= box.maxLongitude) inside[v] = 1;
    }
    const now = this.now.getTime();
    const seen = new Uint8Array(snapshot.eventIds.length);
    const promoted = new Uint8Array(snapshot.dateCount);
    let count = 0;
    for (let d = 0; d < snapshot.dateCount; d++) {
      const venue = dateVenue[d]!;
      const event = dateEvent[d]!;
      if (venue < 0 || inside[venue] !== 1 || seen[event] === 1 || dateEnds[d]! <= now) continue;
      seen[event] = 1;
      if (!isEventPublished(snapshot, event, now)) continue;
      // Its next date that has not ended (its dates are chronological), wherever that date is.
      for (let next = eventDateOffsets[event]!; next < eventDateOffsets[event + 1]!; next++) {
        if (dateEnds[next]! > now) {
          promoted[next] = 1;
          count++;
          break;
        }
      }
    }
    const refs: NodeRef[] = new Array<NodeRef>(count);
    let at = 0;
    for (let i = 0; i < dateOrder.length && at < count; i++) {
      const date = dateOrder[i]!;
      if (promoted[date] === 1) refs[at++] = { snapshot, event: dateEvent[date]!, date, groupedDay: null };
    }
    return refs;
  }

  private upcomingRef(snapshot: CalendarSnapshot, event: number): NodeRef | null {
    const now = this.now.getTime();
    if (event < 0 || !isEventPublished(snapshot, event, now)) return null;
    const [next] = upcomingDatesOf(snapshot, event, now);
    return next === undefined ? null : { snapshot, event, date: next, groupedDay: null };
  }

  /** The records of the nodes (and of their later dates), in one wave of two statements (the layers of a version share it). */
  private async loadNodes(layers: LayeredSnapshot, refs: readonly NodeRef[], options: NodeOptions): Promise<CalendarNode[]> {
    if (refs.length === 0) return [];
    const now = this.now.getTime();
    const laterDates = refs.map(({ snapshot, event, date, groupedDay }) => {
      if (!options.repetitions) return null;
      // "The event's later dates that have not ended"; grouped by day: that day's later dates only.
      const upcoming = upcomingDatesOf(snapshot, event, now);
      return upcoming.filter((d) => d > date && (groupedDay === null || snapshot.dateDay[d] === groupedDay));
    });
    // Per layer, its events and dates asked (each once).
    const eventsOf = new Map<CalendarSnapshot, Set<number>>();
    const datesOf = new Map<CalendarSnapshot, Set<number>>();
    const own = <T>(map: Map<CalendarSnapshot, Set<T>>, snapshot: CalendarSnapshot) => {
      let set = map.get(snapshot);
      if (!set) map.set(snapshot, (set = new Set()));
      return set;
    };
    refs.forEach((ref, i) => {
      own(eventsOf, ref.snapshot).add(ref.event);
      const dates = own(datesOf, ref.snapshot).add(ref.date);
      for (const d of laterDates[i] ?? []) dates.add(d);
    });
    const columns = options.columns;
    // The events' statement checks the data version for both (the dates' may not run at all).
    const [events, occurrences] = await Promise.all([
      eventRecordsOfLayers(this.db, new Map([...eventsOf].map(([snapshot, set]) => [snapshot, [...set]])), columns ? columns.event : null),
      dateRecordsOfLayers(this.db, new Map([...datesOf].map(([snapshot, set]) => [snapshot, [...set]])), columns ? columns.date : null),
    ]);
    return refs.map((ref, i) => {
      const { snapshot } = ref;
      const event = events.get(snapshot)?.get(ref.event);
      const ownDates = occurrences.get(snapshot);
      const occurrence = ownDates?.get(ref.date);
      // Both statements read the version, so both records exist unless the data was changed
      // without raising the version (not by an import): reading again could not mend that.
      if (!event || !occurrence) throw new Error(`event ${snapshot.eventIds[ref.event]} changed outside an import (data version ${snapshot.version})`);
      const later = laterDates[i];
      return {
        event,
        occurrence,
        groupedDay: ref.groupedDay,
        repetitions: later ? later.flatMap((d) => ownDates?.get(d) ?? []) : null,
        catalogue: snapshot.catalogue,
        distanceKm: null,
      };
    });
  }

  private snapshot(): Promise<LayeredSnapshot> {
    this.pinned ??= this.model.snapshot();
    this.pinned.catch(() => {
      this.pinned = null;
    });
    return this.pinned;
  }

  private consistently<T>(work: (layers: LayeredSnapshot) => Promise<T>): Promise<T> {
    return onOneDataVersion(
      async () => work(await this.snapshot()),
      (moved) => {
        if (moved.version !== undefined) this.model.require(moved.version);
        this.pinned = null;
      },
    );
  }
}

/** The listing order across layers: by the date's start, then event id (code-unit order), then date id. */
function listingOrder(a: NodeRef, b: NodeRef): number {
  const byStart = a.snapshot.dateStart[a.date]! - b.snapshot.dateStart[b.date]!;
  if (byStart !== 0) return byStart;
  const aId = a.snapshot.eventIds[a.event]!;
  const bId = b.snapshot.eventIds[b.event]!;
  if (aId !== bId) return aId < bId ? -1 : 1;
  return a.snapshot.dateId[a.date]! - b.snapshot.dateId[b.date]!;
}

/** Lists each in listing order, merged into one (a single list as it is), two at a time. */
function mergedInListingOrder(lists: NodeRef[][]): NodeRef[] {
  if (lists.length === 1) return lists[0]!;
  if (lists.length > 2) {
    const half = Math.ceil(lists.length / 2);
    return mergedInListingOrder([mergedInListingOrder(lists.slice(0, half)), mergedInListingOrder(lists.slice(half))]);
  }
  const [a, b] = lists as [NodeRef[], NodeRef[]];
  const merged: NodeRef[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) merged.push(j >= b.length || (i < a.length && listingOrder(a[i]!, b[j]!) <= 0) ? a[i++]! : b[j++]!);
  return merged;
}
