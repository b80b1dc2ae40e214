import { distanceKm } from '../domain/distance-km.js';
import type { EventQuery } from '../domain/event-query.js';
import {
  DATE_CANCELLED,
  DATE_SOLD_OUT,
  EVENT_FEATURED,
  EVENT_FEATURED_SPECIAL,
  MODE_OFFLINE,
  MODE_ONLINE,
  type CalendarSnapshot,
} from './calendar-snapshot.js';
import type { WordMatch } from './search-matches.js';

export type FacetKind = 'venues' | 'organizers' | 'categories';

export interface FacetCount {
  id: string;
  hits: number;
}

/** One node: an event and the date promoted for it (indices into the snapshot). */
export interface NodeIndex {
  event: number;
  date: number;
}

export interface ResultRequest {
  query: EventQuery;
  /** One per search word of the query, in the phase asked (literal or approximate); empty without a search. */
  words: readonly WordMatch[];
  page: number;
  pageSize: number;
  facets: readonly FacetKind[];
  /** Count every node even when no facet is asked (for `totalCount` / `pageInfo`). */
  wantsTotal: boolean;
}

export interface ResultPage {
  nodes: NodeIndex[];
  /** Whether the next page has content. */
  hasMore: boolean;
  /** Null when the scan stopped after the page (nothing asked it to count). */
  totalCount: number | null;
  /** Counts of the facets asked for, most hits first (ties by id). */
  facets: Partial<Record<FacetKind, FacetCount[]>>;
}

/** A bitmap over `size` entries with the given members set. */
function membership(size: number, members: Iterable<number | undefined>): Uint8Array {
  const set = new Uint8Array(size);
  for (const m of members) if (m !== undefined) set[m] = 1;
  return set;
}

/** Whether any value of entity `i`'s packed list is a member. */
function anyListed(offsets: Uint32Array, values: Uint32Array, i: number, members: Uint8Array): boolean {
  for (let k = offsets[i]!; k < offsets[i + 1]!; k++) if (members[values[k]!] === 1) return true;
  return false;
}

/**
 * The venue-level conditions (venue slugs, municipality, postal codes, near) as one set of allowed
 * venue numbers, or null when the query has none. Venues are few (hundreds to thousands) next to
 * dates, so `near` costs one distance per venue, not per date.
 */
export function allowedVenues(snapshot: CalendarSnapshot, q: EventQuery): Uint8Array | null {
  if (q.venueSlugSets.length === 0 && q.municipality == null && q.postalCodes == null && q.near == null) return null;
  const venues = snapshot.venueIds.length;
  const allowed = new Uint8Array(venues).fill(1);
  for (const slugs of q.venueSlugSets) {
    const inSet = membership(venues, slugs.map((slug) => snapshot.venueBySlug.get(slug)));
    for (let v = 0; v < venues; v++) allowed[v] = allowed[v]! & inSet[v]!;
  }
  if (q.municipality != null) {
    const wanted = q.municipality.toLowerCase();
    for (let v = 0; v < venues; v++) if (snapshot.venueMunicipalities[v] !== wanted) allowed[v] = 0;
  }
  if (q.postalCodes != null) {
    const codes = new Set(q.postalCodes);
    for (let v = 0; v < venues; v++) {
      const code = snapshot.venuePostalCodes[v];
      if (code == null || !codes.has(code)) allowed[v] = 0;
    }
  }
  if (q.near != null) {
    const { latitude, longitude, radiusKm } = q.near;
    const { venueLatitudes, venueLongitudes } = snapshot;
    // A venue without a location has NaN coordinates: NaN <= radius is false, so it is left out.
    for (let v = 0; v < venues; v++) {
      if (!(distanceKm(latitude, longitude, venueLatitudes[v]!, venueLongitudes[v]!) <= radiusKm)) allowed[v] = 0;
    }
  }
  return allowed;
}

/** The event-level conditions of a query as a predicate on event numbers (publishing included). */
function eventCondition(snapshot: CalendarSnapshot, q: EventQuery): (event: number) => boolean {
  const now = q.now.getTime();
  const categoryCount = snapshot.categoryIds.length;
  const categories = q.categories ? membership(categoryCount, q.categories.map((c) => snapshot.categoryByKey.get(c))) : null;
  const notCategories = q.notCategories.length > 0 ? membership(categoryCount, q.notCategories.map((c) => snapshot.categoryByKey.get(c))) : null;
  const organizerSets = q.organizerSlugSets.map((slugs) =>
    membership(snapshot.organizerIds.length, slugs.map((slug) => snapshot.organizerBySlug.get(slug))),
  );
  // A tag or super event no event has: nothing matches (-2 never equals a stored number).
  const tag = q.tag == null ? -1 : (snapshot.tagKeys.get(q.tag) ?? -2);
  const superEvent = q.superEvent == null ? -1 : (snapshot.superEventKeys.get(q.superEvent) ?? -2);
  const mode = q.mode == null ? -1 : q.mode === 'online' ? MODE_ONLINE : MODE_OFFLINE;
  const requiredFlags = (q.onlyFeatured ? EVENT_FEATURED : 0) | (q.onlyFeaturedSpecialEvent ? EVENT_FEATURED_SPECIAL : 0);
  const { eventPublishing, eventMode, eventFlags, eventSuperEvent, eventTags, eventCategories, eventOrganizers } = snapshot;
  return (e) => {
    const publishing = eventPublishing[e]!;
    if (publishing > now) return false;
    if (mode !== -1 && eventMode[e] !== mode) return false;
    if ((eventFlags[e]! & requiredFlags) !== requiredFlags) return false;
    if (superEvent !== -1 && eventSuperEvent[e] !== superEvent) return false;
    if (tag !== -1) {
      let tagged = false;
      for (let k = eventTags.offsets[e]!; k < eventTags.offsets[e + 1]!; k++) if (eventTags.values[k] === tag) tagged = true;
      if (!tagged) return false;
    }
    if (categories && !anyListed(eventCategories.offsets, eventCategories.values, e, categories)) return false;
    if (notCategories && anyListed(eventCategories.offsets, eventCategories.values, e, notCategories)) return false;
    for (const organizers of organizerSets) if (!anyListed(eventOrganizers.offsets, eventOrganizers.values, e, organizers)) return false;
    return true;
  };
}

/**
 * The asked page of a filter, its total and facets.
 *
 * A node is an event's first date (or, grouping by day, its first date of each Oslo day) that
 * satisfies every date-level condition and search word while its event satisfies the event-level
 * ones: "an event matches when one of its dates satisfies all". Nodes are listed by the promoted
 * date's start, then event id, then date id. The effective lower bound is the later of `fromDate`
 * and now: a date that has ended is never listed.
 *
 * With a total or a facet asked, every event is visited once, in order, with its dates (stored
 * together, so the walk reads memory in sequence): an event failing the event-level conditions is
 * skipped whole, and the page is kept as the best nodes seen so far (a bounded heap). Without, the
 * dates are walked in listing order and the walk stops once the page and one more node are found.
 */
export function findResultPage(snapshot: CalendarSnapshot, request: ResultRequest): ResultPage {
  const scansAll = request.wantsTotal || request.facets.length > 0;
  return scansAll ? everyNode(snapshot, request) : firstNodes(snapshot, request);
}

/** The date-level conditions and search words of a query, as one predicate on a date index. */
function dateCondition(
  snapshot: CalendarSnapshot,
  request: Pick<ResultRequest, 'query' | 'words'>,
  venues = allowedVenues(snapshot, request.query),
): (date: number, event: number) => boolean {
  const q = request.query;
  const words = request.words;
  const from = Math.max(q.from.getTime(), q.now.getTime());
  const until = q.until ? q.until.getTime() : Number.POSITIVE_INFINITY;
  const fromStart = q.fromStart ? q.fromStart.getTime() : Number.NEGATIVE_INFINITY;
  const hours = q.hoursRange;
  const startMinute = hours ? hours.startMinute : 0;
  const endMinute = hours ? hours.endMinute : 0;
  const wraps = startMinute >= endMinute;
  const excludedFlags = (q.cancelledNotIncluded ? DATE_CANCELLED : 0) | (q.soldOutNotIncluded ? DATE_SOLD_OUT : 0);
  const { dateStart, dateEnds, dateVenue, dateMinute, dateFlags } = snapshot;
  return (i, event) => {
    const start = dateStart[i]!;
    if (dateEnds[i]! <= from || start >= until || start < fromStart) return false;
    if ((dateFlags[i]! & excludedFlags) !== 0) return false;
    if (hours) {
      const minute = dateMinute[i]!;
      if (wraps ? minute < startMinute && minute >= endMinute : minute < startMinute || minute >= endMinute) return false;
    }
    const venue = dateVenue[i]!;
    if (venues && (venue < 0 || venues[venue] !== 1)) return false;
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!;
      if (word.events[event] !== 1 && !(venue >= 0 && word.venues[venue] === 1)) return false;
    }
    return true;
  };
}

/**
 * How many nodes an event has under a query, telling `onNode` each node's date: none when it fails the
 * event-level conditions; else its first date that satisfies every date-level condition and search
 * word, or, grouping by day, its first such date of each Oslo day. What `totalCount` and the facets
 * count (everyNode), and what `suggest` counts its hits with (suggestions.ts): one rule, one place.
 */
export type EventNodes = (event: number, onNode?: (date: number) => void) => number;

/**
 * The EventNodes of a query. `venues`: the allowed venues (allowedVenues of the query, the default), or
 * a narrower set a caller adds a venue condition with.
 */
export function eventNodes(snapshot: CalendarSnapshot, query: EventQuery, words: readonly WordMatch[], venues: Uint8Array | null = allowedVenues(snapshot, query)): EventNodes {
  const datePasses = dateCondition(snapshot, { query, words }, venues);
  const eventPasses = eventCondition(snapshot, query);
  const groupByDay = query.groupByDay;
  const until = query.until ? query.until.getTime() : Number.POSITIVE_INFINITY;
  const { eventDateOffsets, dateDay, dateStart } = snapshot;
  return (event, onNode) => {
    const first = eventDateOffsets[event]!;
    const end = eventDateOffsets[event + 1]!;
    if (first === end || !eventPasses(event)) return 0;
    let nodes = 0;
    let day = Number.NaN;
    for (let i = first; i < end; i++) {
      // An event's dates are stored by start: none after this one starts before `untilDate` (or a
      // `when` window's end), so a long series is not walked to its end for a window it has left.
      if (dateStart[i]! >= until) break;
      if (groupByDay && dateDay[i] === day) continue;
      if (!datePasses(i, event)) continue;
      nodes++;
      onNode?.(i);
      if (!groupByDay) break;
      day = dateDay[i]!;
    }
    return nodes;
  };
}

/** Every node, for the total and facets; the page kept as the best nodes so far. */
function everyNode(snapshot: CalendarSnapshot, request: ResultRequest): ResultPage {
  const { query: q, page, pageSize, facets } = request;
  const venues = allowedVenues(snapshot, q);
  const nodesOf = eventNodes(snapshot, q, request.words, venues);
  const venueHits = facets.includes('venues') ? new Uint32Array(snapshot.venueIds.length) : null;
  const organizerHits = facets.includes('organizers') ? new Uint32Array(snapshot.organizerIds.length) : null;
  const categoryHits = facets.includes('categories') ? new Uint32Array(snapshot.categoryIds.length) : null;
  const best = new BestNodes(snapshot, (page + 1) * pageSize + 1);
  const { dateVenue, eventOrganizers, eventCategories, categoryListed } = snapshot;
  const events = snapshot.eventIds.length;
  const until = q.until ? q.until.getTime() : Number.POSITIVE_INFINITY;
  const onNode = (date: number) => {
    best.offer(date);
    const venue = dateVenue[date]!;
    if (venueHits && venue >= 0) venueHits[venue] = venueHits[venue]! + 1;
  };
  let count = 0;
  // With few allowed venues, the events without a date at one of them are skipped at once (marked
  // from the venues' own dates: no sort, the events are still visited in order).
  const ranges = venues ? venueRankRanges(snapshot, venues, q.fromStart ? q.fromStart.getTime() : Number.NEGATIVE_INFINITY, until) : null;
  const marks = ranges ? markEventsOf(snapshot, ranges) : null;

  for (let event = 0; event < events; event++) {
    if (marks && marks.judged[event] !== marks.stamp) continue;
    const nodes = nodesOf(event, onNode);
    if (nodes === 0) continue;
    count += nodes;
    if (organizerHits) {
      for (let k = eventOrganizers.offsets[event]!; k < eventOrganizers.offsets[event + 1]!; k++) {
        const organizer = eventOrganizers.values[k]!;
        organizerHits[organizer] = organizerHits[organizer]! + nodes;
      }
    }
    if (categoryHits) {
      for (let k = eventCategories.offsets[event]!; k < eventCategories.offsets[event + 1]!; k++) {
        const category = eventCategories.values[k]!;
        if (categoryListed[category] === 1) categoryHits[category] = categoryHits[category]! + nodes;
      }
    }
  }

  const ordered = best.sorted();
  const nodes = ordered.slice(page * pageSize, page * pageSize + pageSize).map((date) => ({ event: snapshot.dateEvent[date]!, date }));
  return {
    nodes,
    hasMore: count > (page + 1) * pageSize,
    totalCount: count,
    facets: {
      ...(venueHits ? { venues: rankFacet(venueHits, snapshot.venueIds) } : {}),
      ...(organizerHits ? { organizers: rankFacet(organizerHits, snapshot.organizerIds) } : {}),
      ...(categoryHits ? { categories: rankFacet(categoryHits, snapshot.categoryIds) } : {}),
    },
  };
}

/**
 * Scratch marks per snapshot for the walk in listing order and for marking the events of a few
 * venues (neither yields, so one set serves all).
 */
interface Scratch {
  stamp: number;
  /** Stamp of the walk that judged the event's event-level conditions; the verdict in `passes`. */
  judged: Uint32Array;
  passes: Uint8Array;
  /** Stamp of the walk that made a node of the event; that node's Oslo day in `day`. */
  noded: Uint32Array;
  day: Int32Array;
}

/** Per snapshot (keyed by it, gone with it): walks of one snapshot share its marks, other snapshots have their own. */
const scratches = new WeakMap<CalendarSnapshot, Scratch>();

function scratchFor(snapshot: CalendarSnapshot): Scratch {
  const events = snapshot.eventIds.length;
  let scratch = scratches.get(snapshot);
  if (!scratch) {
    scratch = { stamp: 0, judged: new Uint32Array(events), passes: new Uint8Array(events), noded: new Uint32Array(events), day: new Int32Array(events) };
    scratches.set(snapshot, scratch);
  }
  if (scratch.stamp === 0xffffffff) {
    scratch.stamp = 0;
    scratch.judged.fill(0);
    scratch.noded.fill(0);
  }
  scratch.stamp++;
  return scratch;
}

/** The first nodes in listing order, up to the page and one more: no total, no facets. */
function firstNodes(snapshot: CalendarSnapshot, request: ResultRequest): ResultPage {
  const { query: q, page, pageSize } = request;
  const venues = allowedVenues(snapshot, q);
  const datePasses = dateCondition(snapshot, request, venues);
  const eventPasses = eventCondition(snapshot, q);
  const groupByDay = q.groupByDay;
  const scratch = scratchFor(snapshot);
  const { stamp, judged, passes, noded, day } = scratch;
  const { dateOrder, dateEvent, dateDay, dateStart } = snapshot;
  const until = q.until ? q.until.getTime() : Number.POSITIVE_INFINITY;
  // The allowed venues' dates alone, when they are few: the same dates in the same order (their
  // ranges merged as the walk goes, so it still stops once the page is found), but for those the
  // venue condition would refuse anyway.
  const ranges = venues ? venueRankRanges(snapshot, venues, q.fromStart ? q.fromStart.getTime() : Number.NEGATIVE_INFINITY, until) : null;
  const merged = ranges ? new RankMerge(ranges) : null;
  const firstNode = page * pageSize;
  const lastNode = firstNode + pageSize;
  const nodes: NodeIndex[] = [];
  let count = 0;
  for (let n = 0; count <= lastNode; n++) {
    const rank = merged ? merged.next() : n < dateOrder.length ? n : -1;
    if (rank < 0) break;
    const i = dateOrder[rank]!;
    // In listing order: no later date starts early enough.
    if (dateStart[i]! >= until) break;
    const event = dateEvent[i]!;
    if (noded[event] === stamp && (!groupByDay || day[event] === dateDay[i])) continue;
    if (judged[event] !== stamp) {
      judged[event] = stamp;
      passes[event] = eventPasses(event) ? 1 : 0;
    }
    if (passes[event] === 0 || !datePasses(i, event)) continue;
    noded[event] = stamp;
    day[event] = dateDay[i]!;
    if (count >= firstNode) nodes.push({ event, date: i });
    count++;
  }
  return {
    nodes: nodes.slice(0, pageSize),
    hasMore: nodes.length > pageSize,
    // Exact when the walk ran out of dates before the page was full.
    totalCount: count <= lastNode ? count : null,
    facets: {},
  };
}

/** The rank bounds [from, to) within one venue's ranks of the dates starting in [fromStart, until). */
function startBounds(snapshot: CalendarSnapshot, ranks: Uint32Array, fromStart: number, until: number): [number, number] {
  const { dateOrder, dateStart } = snapshot;
  // The first position whose date starts at or after `bound` (a venue's ranks list its dates by start).
  const firstAtOrAfter = (bound: number) => {
    let low = 0;
    let high = ranks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (dateStart[dateOrder[ranks[middle]!]!]! < bound) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return [fromStart === Number.NEGATIVE_INFINITY ? 0 : firstAtOrAfter(fromStart), until === Number.POSITIVE_INFINITY ? ranks.length : firstAtOrAfter(until)];
}

/**
 * Each allowed venue's positions in the listing order of its dates that start in [fromStart, until)
 * (ascending runs of `venueDateRanks`, not copied); null when they are most of the dates (over half),
 * where walking every date costs no more.
 */
function venueRankRanges(snapshot: CalendarSnapshot, allowed: Uint8Array, fromStart: number, until: number): Uint32Array[] | null {
  const { offsets, values } = snapshot.venueDateRanks;
  const ranges: Uint32Array[] = [];
  let total = 0;
  for (let v = 0; v < allowed.length; v++) {
    if (allowed[v] !== 1) continue;
    const own = values.subarray(offsets[v], offsets[v + 1]);
    const [from, to] = startBounds(snapshot, own, fromStart, until);
    if (to <= from) continue;
    ranges.push(own.subarray(from, to));
    total += to - from;
    if (total > snapshot.dateCount >> 1) return null;
  }
  return ranges;
}

/** Marks (in the snapshot's scratch, stamped) every event with a date in these ranges. */
function markEventsOf(snapshot: CalendarSnapshot, ranges: readonly Uint32Array[]): { judged: Uint32Array; stamp: number } {
  const { stamp, judged } = scratchFor(snapshot);
  const { dateOrder, dateEvent } = snapshot;
  for (const range of ranges) for (let n = 0; n < range.length; n++) judged[dateEvent[dateOrder[range[n]!]!]!] = stamp;
  return { judged, stamp };
}

/**
 * Ascending runs of ranks merged into one ascending sequence, one rank at a time (a binary heap of
 * the runs' heads): a walk that stops early merges only what it read.
 */
class RankMerge {
  /** Run numbers, ordered as a min-heap by their current head. */
  private readonly heap: number[] = [];
  private readonly at: Uint32Array;

  constructor(private readonly runs: readonly Uint32Array[]) {
    this.at = new Uint32Array(runs.length);
    for (let r = 0; r < runs.length; r++) if (runs[r]!.length > 0) this.push(r);
  }

  /** The next rank, or -1 when every run is used up. */
  next(): number {
    const heap = this.heap;
    if (heap.length === 0) return -1;
    const run = heap[0]!;
    const rank = this.runs[run]![this.at[run]!]!;
    this.at[run] = this.at[run]! + 1;
    if (this.at[run] < this.runs[run]!.length) this.siftDown(0);
    else {
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        this.siftDown(0);
      }
    }
    return rank;
  }

  private head(run: number): number {
    return this.runs[run]![this.at[run]!]!;
  }

  private push(run: number): void {
    const heap = this.heap;
    heap.push(run);
    let child = heap.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.head(heap[parent]!) <= this.head(heap[child]!)) break;
      [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
      child = parent;
    }
  }

  private siftDown(from: number): void {
    const heap = this.heap;
    for (let parent = from; ; ) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < heap.length && this.head(heap[left]!) < this.head(heap[smallest]!)) smallest = left;
      if (right < heap.length && this.head(heap[right]!) < this.head(heap[smallest]!)) smallest = right;
      if (smallest === parent) return;
      [heap[parent], heap[smallest]] = [heap[smallest]!, heap[parent]!];
      parent = smallest;
    }
  }
}

/**
 * The `limit` first nodes by listing order among those offered (a max-heap of date indices whose
 * top is the last one kept), so a page is found in one pass without sorting every node.
 */
class BestNodes {
  private readonly heap: number[] = [];
  private readonly start: Float64Array;
  private readonly event: Uint32Array;
  private readonly id: Float64Array;

  constructor(snapshot: CalendarSnapshot, private readonly limit: number) {
    this.start = snapshot.dateStart;
    this.event = snapshot.dateEvent;
    this.id = snapshot.dateId;
  }

  /** Whether date a is listed before date b. */
  private before(a: number, b: number): boolean {
    const sa = this.start[a]!;
    const sb = this.start[b]!;
    if (sa !== sb) return sa < sb;
    const ea = this.event[a]!;
    const eb = this.event[b]!;
    if (ea !== eb) return ea < eb;
    return this.id[a]! < this.id[b]!;
  }

  offer(date: number): void {
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(date);
      let child = heap.length - 1;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (!this.before(heap[parent]!, heap[child]!)) break;
        [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
        child = parent;
      }
      return;
    }
    if (!this.before(date, heap[0]!)) return;
    heap[0] = date;
    let parent = 0;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let largest = parent;
      if (left < heap.length && this.before(heap[largest]!, heap[left]!)) largest = left;
      if (right < heap.length && this.before(heap[largest]!, heap[right]!)) largest = right;
      if (largest === parent) break;
      [heap[parent], heap[largest]] = [heap[largest]!, heap[parent]!];
      parent = largest;
    }
  }

  sorted(): number[] {
    return [...this.heap].sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
  }
}

/** Entries with hits, most hits first, ties by id (code-unit order). */
function rankFacet(hits: Uint32Array, ids: readonly string[]): FacetCount[] {
  const counted: FacetCount[] = [];
  for (let i = 0; i < hits.length; i++) if (hits[i]! > 0) counted.push({ id: ids[i]!, hits: hits[i]! });
  return counted.sort((a, b) => b.hits - a.hits || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
