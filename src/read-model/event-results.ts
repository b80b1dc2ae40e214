import { distanceKm } from '../domain/distance-km.js';
import { onlyConditions, type EventQuery } from '../domain/event-query.js';
import {
  DATE_CANCELLED,
  DATE_SOLD_OUT,
  EVENT_FEATURED,
  EVENT_FEATURED_SPECIAL,
  MODE_OFFLINE,
  MODE_ONLINE,
  type CalendarSnapshot,
  type PackedLists,
} from './calendar-snapshot.js';
import { firstWhere } from './first-where.js';
import type { WordMatch } from './search-matches.js';
import { countAtMost, RANK_BLOCK_SHIFT, unpublishedCountIndexes, type CountIndexes, type PairLists, type SortedLists } from './walk-indexes.js';

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

/** A query's window in ms, each bound open where the query gives none. */
export interface WindowBounds {
  /** The later of `fromDate` and now: a date counts while it has not ended then (a date that has ended is never listed). */
  notEndedAt: number;
  /** `fromStartDate`: a date counts when it starts then or later (-Infinity without). */
  fromStart: number;
  /** `untilDate` or a `when` preset's end: a date counts when it starts before (+Infinity without). */
  until: number;
}

export function windowBounds(q: EventQuery): WindowBounds {
  return {
    notEndedAt: Math.max(q.from.getTime(), q.now.getTime()),
    fromStart: q.fromStart ? q.fromStart.getTime() : Number.NEGATIVE_INFINITY,
    until: q.until ? q.until.getTime() : Number.POSITIVE_INFINITY,
  };
}

/** A bitmap over `size` entries with the given members set (an unknown member, undefined, left out). */
function membership(size: number, members: Iterable<number | undefined>): Uint8Array {
  const set = new Uint8Array(size);
  for (const m of members) if (m !== undefined) set[m] = 1;
  return set;
}

/** Whether any value of entity `i`'s packed list is a member. */
function anyListed({ offsets, values }: PackedLists, i: number, members: Uint8Array): boolean {
  for (let k = offsets[i]!; k < offsets[i + 1]!; k++) if (members[values[k]!] === 1) return true;
  return false;
}

/** Whether entity `i`'s packed list holds `value`. */
function listsValue({ offsets, values }: PackedLists, i: number, value: number): boolean {
  for (let k = offsets[i]!; k < offsets[i + 1]!; k++) if (values[k] === value) return true;
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
    if (tag !== -1 && !listsValue(eventTags, e, tag)) return false;
    if (categories && !anyListed(eventCategories, e, categories)) return false;
    if (notCategories && anyListed(eventCategories, e, notCategories)) return false;
    for (const organizers of organizerSets) if (!anyListed(eventOrganizers, e, organizers)) return false;
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
 * How is planned per filter (`planWalk`): every strategy gives the same page, total and facets as
 * visiting every event (`everyNode`, the reference), only cheaper where its conditions allow.
 */
export function findResultPage(snapshot: CalendarSnapshot, request: ResultRequest): ResultPage {
  const plan = planWalk(snapshot, request);
  switch (plan.strategy) {
    case 'first-nodes':
      return firstNodes(snapshot, request);
    case 'closed-form':
      return closedForm(snapshot, request, plan.unpublished);
    case 'entity-closed-form':
      return entityClosedForm(snapshot, request, plan);
    case 'in-order':
      return inOrder(snapshot, request, plan.from, plan.to);
    case 'venue-runs':
    case 'event-runs':
      return everyNode(snapshot, request, plan.runs);
    case 'full-walk':
      return everyNode(snapshot, request);
  }
}

/**
 * The date-level conditions and search words of a query, as one predicate on a date index (and its
 * event). `venues`: the allowed venues (allowedVenues of the query, the default), or a narrower set a
 * caller adds a venue condition with.
 */
function dateCondition(
  snapshot: CalendarSnapshot,
  q: EventQuery,
  words: readonly WordMatch[],
  venues = allowedVenues(snapshot, q),
): (date: number, event: number) => boolean {
  const { notEndedAt, fromStart, until } = windowBounds(q);
  const hours = q.hoursRange;
  const startMinute = hours ? hours.startMinute : 0;
  const endMinute = hours ? hours.endMinute : 0;
  const wraps = startMinute >= endMinute;
  const excludedFlags = (q.cancelledNotIncluded ? DATE_CANCELLED : 0) | (q.soldOutNotIncluded ? DATE_SOLD_OUT : 0);
  const { dateStart, dateEnds, dateVenue, dateMinute, dateFlags } = snapshot;
  return (i, event) => {
    const start = dateStart[i]!;
    if (dateEnds[i]! <= notEndedAt || start >= until || start < fromStart) return false;
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
 * word, or, grouping by day, its first such date of each Oslo day. The rule of the full walk's inner
 * loop as a function of one event (everyNode keeps it inline for speed, and says what it measured),
 * and what `suggest` counts its hits with (suggestions.ts): test/api/suggest.test.ts holds every hit to
 * `events`' totalCount.
 */
export type EventNodes = (event: number, onNode?: (date: number) => void) => number;

/**
 * The EventNodes of a query. `venues`: the allowed venues (allowedVenues of the query, the default), or
 * a narrower set a caller adds a venue condition with.
 */
export function eventNodes(snapshot: CalendarSnapshot, query: EventQuery, words: readonly WordMatch[], venues: Uint8Array | null = allowedVenues(snapshot, query)): EventNodes {
  const datePasses = dateCondition(snapshot, query, words, venues);
  const eventPasses = eventCondition(snapshot, query);
  const groupByDay = query.groupByDay;
  const { until } = windowBounds(query);
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

/**
 * Every node, for the total and facets; the page kept as the best nodes so far. Every event is visited
 * once, in order, with its dates (stored together, so the walk reads memory in sequence): an event
 * failing the event-level conditions is skipped whole. Without `runs`, the reference every other
 * strategy must agree with (`full-walk`; test/read-model/equivalence.test.ts); with, the events of those
 * posting lists alone (`venue-runs`, `event-runs`), each judged as the full walk judges it.
 */
export function everyNode(snapshot: CalendarSnapshot, request: ResultRequest, runs: readonly Uint32Array[] | null = null): ResultPage {
  const { query: q, page, pageSize } = request;
  const venues = allowedVenues(snapshot, q);
  const datePasses = dateCondition(snapshot, q, request.words, venues);
  const eventPasses = eventCondition(snapshot, q);
  const groupByDay = q.groupByDay;
  const hits = new FacetHits(snapshot, request.facets);
  const { venues: venueHits, organizers: organizerHits, categories: categoryHits } = hits;
  const best = new BestNodes(snapshot, (page + 1) * pageSize + 1);
  const { eventDateOffsets, dateStart, dateVenue, dateDay, eventOrganizers, eventCategories, categoryListed } = snapshot;
  const events = snapshot.eventIds.length;
  const bounds = windowBounds(q);
  const { notEndedAt, until } = bounds;
  let count = 0;
  // With few allowed venues, the events without a date at one of them are skipped at once (marked
  // from the venues' own dates: no sort, the events are still visited in order).
  const ranges = venues && !runs ? venueRankRanges(snapshot, venues, bounds) : null;
  const marks = ranges ? markEventsOf(snapshot, ranges) : runs ? walkScratch(snapshot) : null;
  // With runs (`venue-runs`, `event-runs`): their events alone, each once, those whose dates have all ended skipped.
  const lastEnd = snapshot.walk.eventLastEnd;

  for (const run of runs ?? [null]) {
    const visits = run ? run.length : events;
    for (let k = 0; k < visits; k++) {
      const event = run ? run[k]! : k;
      if (run) {
        if (marks!.judged[event] === marks!.stamp || !(lastEnd[event]! > notEndedAt)) continue;
        marks!.judged[event] = marks!.stamp;
      } else if (marks && marks.judged[event] !== marks.stamp) continue;
      // eventNodes' rule (above), inline: through it, a call per event, this walk cost 4–14 % more (100k events: plain 3.3 → 3.6 ms).
      const first = eventDateOffsets[event]!;
      const end = eventDateOffsets[event + 1]!;
      if (first === end || !eventPasses(event)) continue;
      let nodes = 0;
      let day = Number.NaN;
      for (let i = first; i < end; i++) {
        // An event's dates are stored by start: none after this one starts before `untilDate` (or a
        // `when` window's end), so a long series is not walked to its end for a window it has left.
        if (dateStart[i]! >= until) break;
        if (groupByDay && dateDay[i] === day) continue;
        if (!datePasses(i, event)) continue;
        nodes++;
        best.offer(i);
        // FacetHits' counting (below), inline here and below: through its methods this walk cost 6–12 % more (plain 3.3 → 3.7 ms).
        const venue = dateVenue[i]!;
        if (venueHits && venue >= 0) venueHits[venue] = venueHits[venue]! + 1;
        if (!groupByDay) break;
        day = dateDay[i]!;
      }
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
  }

  const nodes = best
    .sorted()
    .slice(page * pageSize, page * pageSize + pageSize)
    .map((date) => ({ event: snapshot.dateEvent[date]!, date }));
  return { nodes, hasMore: count > (page + 1) * pageSize, totalCount: count, facets: hits.ranked() };
}

/** Marks (in the snapshot's scratch, stamped) every event with a date in these ranges. */
function markEventsOf(snapshot: CalendarSnapshot, ranges: readonly Uint32Array[]): { judged: Uint32Array; stamp: number } {
  const { stamp, judged } = walkScratch(snapshot);
  const { dateOrder, dateEvent } = snapshot;
  for (const range of ranges) for (let n = 0; n < range.length; n++) judged[dateEvent[dateOrder[range[n]!]!]!] = stamp;
  return { judged, stamp };
}

/**
 * Scratch marks per snapshot for the walk in listing order and for marking the events of a few
 * venues or runs (no walk yields, so one set serves all): `walkScratch` gives them with a fresh stamp.
 */
interface WalkScratch {
  stamp: number;
  /** Stamp of the walk that judged the event's event-level conditions; the verdict in `passes`. */
  judged: Uint32Array;
  passes: Uint8Array;
  /** Stamp of the walk that made a node of the event; that node's Oslo day in `day`. */
  noded: Uint32Array;
  day: Int32Array;
}

/** Per snapshot (keyed by it, gone with it): walks of one snapshot share its marks, other snapshots have their own. */
const scratches = new WeakMap<CalendarSnapshot, WalkScratch>();

function walkScratch(snapshot: CalendarSnapshot): WalkScratch {
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

/**
 * `first-nodes`: the first nodes in listing order, up to the page and one more: no total, no facets. The
 * dates are walked in listing order and the walk stops once the page and one more node are found.
 */
function firstNodes(snapshot: CalendarSnapshot, request: ResultRequest): ResultPage {
  const { query: q, page, pageSize } = request;
  const venues = allowedVenues(snapshot, q);
  const bounds = windowBounds(q);
  // The allowed venues' dates alone, when they are few: the same dates in the same order (their
  // ranges merged as the walk goes, so it still stops once the page is found), but for those the
  // venue condition would refuse anyway. Else the dates of the query's window of the listing order.
  const ranges = venues ? venueRankRanges(snapshot, venues, bounds) : null;
  let ranks: RankMerge | RankWindow;
  if (ranges) ranks = new RankMerge(ranges);
  else {
    const { from, to } = listingWindow(snapshot, q);
    ranks = new RankWindow(snapshot, from, to, bounds.notEndedAt);
  }
  const lastNode = (page + 1) * pageSize;
  const { nodes, count } = nodesInOrder(snapshot, request, ranks, lastNode + 1, null);
  return {
    nodes,
    hasMore: count > lastNode,
    // Exact when the walk ran out of dates before the page was full.
    totalCount: count <= lastNode ? count : null,
    facets: {},
  };
}

/**
 * The positions [from, to) of the dates starting in [fromStart, until) among `ranks`, positions of the
 * listing order ascending (a venue's run of it), or, without, among the listing order itself.
 */
function startWindow(snapshot: CalendarSnapshot, ranks: Uint32Array | null, { fromStart, until }: Pick<WindowBounds, 'fromStart' | 'until'>): [number, number] {
  const length = ranks ? ranks.length : snapshot.dateCount;
  return [fromStart === Number.NEGATIVE_INFINITY ? 0 : firstStartingAt(snapshot, ranks, fromStart), until === Number.POSITIVE_INFINITY ? length : firstStartingAt(snapshot, ranks, until)];
}

/** The first of those positions whose date starts at or after `t` (their number when none does). */
function firstStartingAt(snapshot: CalendarSnapshot, ranks: Uint32Array | null, t: number): number {
  const { dateOrder, dateStart } = snapshot;
  if (!ranks) return firstWhere(0, dateOrder.length, (rank) => !(dateStart[dateOrder[rank]!]! < t));
  return firstWhere(0, ranks.length, (p) => !(dateStart[dateOrder[ranks[p]!]!]! < t));
}

/**
 * Each allowed venue's positions in the listing order of its dates that start in [fromStart, until)
 * (ascending runs of `venueDateRanks`, not copied); null when they are most of the dates (over half),
 * where walking every date costs no more.
 */
function venueRankRanges(snapshot: CalendarSnapshot, allowed: Uint8Array, bounds: WindowBounds): Uint32Array[] | null {
  const { offsets, values } = snapshot.venueDateRanks;
  const ranges: Uint32Array[] = [];
  let total = 0;
  for (let v = 0; v < allowed.length; v++) {
    if (allowed[v] !== 1) continue;
    const own = values.subarray(offsets[v], offsets[v + 1]);
    const [from, to] = startWindow(snapshot, own, bounds);
    if (to <= from) continue;
    ranges.push(own.subarray(from, to));
    total += to - from;
    if (total > snapshot.dateCount >> 1) return null;
  }
  return ranges;
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

/**
 * How `findResultPage` finds a filter's page, total and facets (docs/performance.md, "A planned walk"):
 * - `first-nodes`: no total and no facet asked; the dates in listing order until the page is found.
 * - `closed-form`: no condition but "not ended" (and publishing), not grouped: the total and every
 *   facet are counts over columns sorted once per snapshot (walk-indexes.ts), a binary search each;
 *   the page is the first nodes of the dates in listing order.
 * - `entity-closed-form`: the same with one category, organizer or venue condition (one id or slug)
 *   besides: the total and every facet are counts over that entity's sorted columns (walk-indexes.ts,
 *   `EntityPairs`); the page its events' first nodes (its posting list, or the dates in listing order).
 * - `in-order`: the dates of a window of the listing order (`fromStartDate` to `untilDate`, a `when`
 *   preset's) in that order, every condition tested per date: a node is an event's first passing date
 *   met (of its day, grouped), so the page is the first nodes met.
 * - `venue-runs`: the events with a date at an allowed venue alone (the venues' posting lists), each
 *   tested as the full walk tests it; the page kept as the best nodes so far.
 * - `event-runs`: the same over the events of a category or organizer condition (its posting list).
 * - `full-walk`: every event (`everyNode`): search, `near` around a city, hour ranges or flags over the
 *   whole calendar, grouping by day without a window... where nothing above is cheaper.
 * Of those that apply, the one that reads the fewest dates (weighted by how it reads memory) is chosen.
 */
export type WalkPlan =
  | { strategy: 'first-nodes' | 'full-walk' }
  | { strategy: 'closed-form'; unpublished: number }
  | EntityClosedFormPlan
  | { strategy: 'in-order'; from: number; to: number }
  | { strategy: 'venue-runs'; runs: Uint32Array[] }
  | { strategy: 'event-runs'; runs: Uint32Array[] };

export type WalkStrategy = WalkPlan['strategy'];

/**
 * Relative cost per event visited: the full walk reads every event in sequence; a run reads its events
 * in the same direction, skipping the others (fewer reads from each cache line); a walk in listing order
 * jumps from event to event for each date of the window (random access). Measured at 100k events
 * (bench/read-model-build.ts prints each shape's planned and full walk times).
 */
const FULL_WALK_COST = 1;
const RUN_COST = 4;
const IN_ORDER_COST = 2;
/** The closed form's page is walked in listing order: deep pages take the full walk. */
const CLOSED_FORM_MOST_NODES = 5000;
/** The closed forms take the events unpublished at now off with count indexes of their own: at most this many (or a sixteenth of all events), so those stay small. */
const CLOSED_FORM_MOST_UNPUBLISHED = 1000;

/** `entity-closed-form`'s plan: the one entity the filter names, and how many events are unpublished at now. */
export interface EntityClosedFormPlan {
  strategy: 'entity-closed-form';
  kind: 'category' | 'organizer' | 'venue';
  entity: number;
  unpublished: number;
}

/**
 * The one category, organizer or venue a filter names when it has no other condition but `fromDate`
 * (and publishing): `categories` of one id, `organizers`/`organizerSlug` of one slug, or `venues`/
 * `venueSlug` of one slug; null otherwise (an unknown one too: the walks answer it).
 */
function singleEntity(snapshot: CalendarSnapshot, request: ResultRequest): Pick<EntityClosedFormPlan, 'kind' | 'entity'> | null {
  const q = request.query;
  if (request.words.length > 0 || !onlyConditions(q, ['categories', 'organizerSlugSets', 'venueSlugSets'])) return null;
  const one = (sets: readonly (readonly string[])[]) => (sets.length === 1 && new Set(sets[0]).size === 1 ? sets[0]![0]! : null);
  const category = q.categories ? one([q.categories]) : null;
  const organizer = one(q.organizerSlugSets);
  const venue = one(q.venueSlugSets);
  const named = (q.categories ? 1 : 0) + (q.organizerSlugSets.length > 0 ? 1 : 0) + (q.venueSlugSets.length > 0 ? 1 : 0);
  if (named !== 1) return null;
  const found =
    category != null
      ? { kind: 'category' as const, entity: snapshot.categoryByKey.get(category) }
      : organizer != null
        ? { kind: 'organizer' as const, entity: snapshot.organizerBySlug.get(organizer) }
        : venue != null
          ? { kind: 'venue' as const, entity: snapshot.venueBySlug.get(venue) }
          : null;
  return found && found.entity !== undefined ? { kind: found.kind, entity: found.entity } : null;
}

/** The cheapest exact way to answer the request (see WalkPlan). */
export function planWalk(snapshot: CalendarSnapshot, request: ResultRequest): WalkPlan {
  if (!request.wantsTotal && request.facets.length === 0) return { strategy: 'first-nodes' };
  const q = request.query;
  const eventLevel =
    q.categories != null ||
    q.notCategories.length > 0 ||
    q.organizerSlugSets.length > 0 ||
    q.tag != null ||
    q.mode != null ||
    q.superEvent != null ||
    q.onlyFeatured ||
    q.onlyFeaturedSpecialEvent;
  const venues = allowedVenues(snapshot, q);
  const dateLevel =
    venues != null || q.until != null || q.fromStart != null || q.hoursRange != null || q.cancelledNotIncluded || q.soldOutNotIncluded || request.words.length > 0;
  const unpublished = closedFormUnpublished(snapshot, request);
  if (unpublished !== null) {
    if (!eventLevel && !dateLevel && !q.groupByDay) return { strategy: 'closed-form', unpublished };
    const single = singleEntity(snapshot, request);
    if (single) return { strategy: 'entity-closed-form', ...single, unpublished };
  }

  let plan: WalkPlan = { strategy: 'full-walk' };
  let cost = snapshot.eventIds.length * FULL_WALK_COST;
  const { from: first, to: last } = listingWindow(snapshot, q);
  if (Math.max(0, last - first) * IN_ORDER_COST < cost) {
    plan = { strategy: 'in-order', from: first, to: Math.max(first, last) };
    cost = Math.max(0, last - first) * IN_ORDER_COST;
  }
  if (venues) {
    const runs = runsOf(snapshot.walk.venueEvents, Array.from(venues.keys()).filter((v) => venues[v] === 1));
    if (runs.events * RUN_COST < cost) {
      plan = { strategy: 'venue-runs', runs: runs.lists };
      cost = runs.events * RUN_COST;
    }
  }
  const events = eventRunsOf(snapshot, q);
  if (events && events.events * RUN_COST < cost) plan = { strategy: 'event-runs', runs: events.lists };
  return plan;
}

/**
 * Whether the closed forms may answer, as far as the page and publishing go: the page within the first
 * CLOSED_FORM_MOST_NODES nodes, and few enough events unpublished at now that count indexes of their own
 * stay small (their number, then: a prefix of `publishedLate`); null otherwise.
 */
function closedFormUnpublished(snapshot: CalendarSnapshot, request: ResultRequest): number | null {
  if ((request.page + 1) * request.pageSize >= CLOSED_FORM_MOST_NODES) return null;
  const unpublished = unpublishedAt(snapshot, request.query.now.getTime());
  return unpublished <= Math.max(CLOSED_FORM_MOST_UNPUBLISHED, snapshot.eventIds.length >> 4) ? unpublished : null;
}

/** How many events are unpublished at `now`: a prefix of `publishedLate` (the latest-published first). */
function unpublishedAt(snapshot: CalendarSnapshot, now: number): number {
  const { publishedLate } = snapshot.walk;
  const publishing = snapshot.eventPublishing;
  return firstWhere(0, publishedLate.length, (k) => !(publishing[publishedLate[k]!]! > now));
}

/** The posting lists of these entities (each once; an unknown one, undefined, has no event), and their length. */
function runsOf(lists: SortedLists<Uint32Array>, entities: Iterable<number | undefined>): { lists: Uint32Array[]; events: number } {
  const runs: Uint32Array[] = [];
  let events = 0;
  for (const entity of new Set(entities)) {
    if (entity === undefined) continue;
    runs.push(lists.values.subarray(lists.offsets[entity], lists.offsets[entity + 1]));
    events += runs.at(-1)!.length;
  }
  return { lists: runs, events };
}

/** The events an event-level condition allows as posting lists: the shortest of `categories` and each organizer set's; null without. */
function eventRunsOf(snapshot: CalendarSnapshot, q: EventQuery): { lists: Uint32Array[]; events: number } | null {
  const { categoryEvents, organizerEvents } = snapshot.walk;
  let best = q.categories ? runsOf(categoryEvents, q.categories.map((c) => snapshot.categoryByKey.get(c))) : null;
  for (const slugs of q.organizerSlugSets) {
    const found = runsOf(organizerEvents, slugs.map((slug) => snapshot.organizerBySlug.get(slug)));
    if (!best || found.events < best.events) best = found;
  }
  return best;
}

/**
 * The positions [from, to) of the listing order a walk of the query's window reads: the dates starting
 * in [fromStartDate, untilDate), and under category and organizer conditions no earlier than the first
 * date starting at the lower bound less the longest date of the events those conditions allow
 * (walk-indexes.ts, `categoryLongestDate`): every date before has ended. `to` may be below `from`:
 * nothing to read.
 */
function listingWindow(snapshot: CalendarSnapshot, q: EventQuery): { from: number; to: number } {
  const bounds = windowBounds(q);
  const [first, to] = startWindow(snapshot, null, bounds);
  const longest = longestAllowedDate(snapshot, q);
  // +Infinity: no such condition; -Infinity: no event allowed, nothing to walk.
  if (longest === Number.POSITIVE_INFINITY) return { from: first, to };
  if (longest === Number.NEGATIVE_INFINITY) return { from: snapshot.dateCount, to };
  return { from: Math.max(first, firstStartingAt(snapshot, null, bounds.notEndedAt - longest)), to };
}

/**
 * The longest date of the events the query's category and organizer conditions allow, as far as the
 * walk indexes tell (per condition, the longest of its entities'; the shortest of the conditions'):
 * +Infinity without such a condition, -Infinity when it allows no event.
 */
function longestAllowedDate(snapshot: CalendarSnapshot, q: EventQuery): number {
  const { categoryLongestDate, organizerLongestDate } = snapshot.walk;
  let longest = Number.POSITIVE_INFINITY;
  if (q.categories) {
    let under = Number.NEGATIVE_INFINITY;
    for (const key of q.categories) {
      const category = snapshot.categoryByKey.get(key);
      if (category !== undefined) under = Math.max(under, categoryLongestDate[category]!);
    }
    longest = Math.min(longest, under);
  }
  for (const slugs of q.organizerSlugSets) {
    let under = Number.NEGATIVE_INFINITY;
    for (const slug of slugs) {
      const organizer = snapshot.organizerBySlug.get(slug);
      if (organizer !== undefined) under = Math.max(under, organizerLongestDate[organizer]!);
    }
    longest = Math.min(longest, under);
  }
  return longest;
}

/**
 * The positions [from, to) of the listing order whose dates have not ended at `alive`, skipping whole
 * blocks whose dates have all ended (`rankBlockEnds`).
 */
class RankWindow {
  private rank: number;
  private readonly dateOrder: Uint32Array;
  private readonly dateEnds: Float64Array;
  private readonly blockEnds: Float64Array;

  constructor(
    snapshot: CalendarSnapshot,
    from: number,
    private readonly to: number,
    private readonly alive: number,
  ) {
    this.rank = from;
    this.dateOrder = snapshot.dateOrder;
    this.dateEnds = snapshot.dateEnds;
    this.blockEnds = snapshot.walk.rankBlockEnds;
  }

  next(): number {
    const { to, alive, dateOrder, dateEnds, blockEnds } = this;
    const blockMask = (1 << RANK_BLOCK_SHIFT) - 1;
    for (let rank = this.rank; rank < to; rank++) {
      if ((rank & blockMask) === 0) {
        while (rank < to && blockEnds[rank >> RANK_BLOCK_SHIFT]! <= alive) rank += blockMask + 1;
        if (rank >= to) break;
      }
      if (dateEnds[dateOrder[rank]!]! > alive) {
        this.rank = rank + 1;
        return rank;
      }
    }
    this.rank = to;
    return -1;
  }
}

/**
 * Counters of the facets asked (null: not asked), filled node by node (`add`, `venueNode`) or, by the
 * closed forms, count by count into the arrays; `ranked` gives the answer's facets. The one place a
 * node counts for its venue, its event's organizers and its event's listed categories.
 */
class FacetHits {
  readonly venues: Uint32Array | null;
  readonly organizers: Uint32Array | null;
  readonly categories: Uint32Array | null;

  constructor(
    private readonly snapshot: CalendarSnapshot,
    facets: readonly FacetKind[],
  ) {
    this.venues = facets.includes('venues') ? new Uint32Array(snapshot.venueIds.length) : null;
    this.organizers = facets.includes('organizers') ? new Uint32Array(snapshot.organizerIds.length) : null;
    this.categories = facets.includes('categories') ? new Uint32Array(snapshot.categoryIds.length) : null;
  }

  /** `nodes` more nodes of the event (`date`: one of them, when one, for its venue; -1: counted by `venueNode`). */
  add(event: number, nodes: number, date: number): void {
    const { organizers, categories } = this;
    if (date >= 0) this.venueNode(date);
    if (organizers) {
      const { offsets, values } = this.snapshot.eventOrganizers;
      for (let k = offsets[event]!; k < offsets[event + 1]!; k++) organizers[values[k]!] = organizers[values[k]!]! + nodes;
    }
    if (categories) {
      const { offsets, values } = this.snapshot.eventCategories;
      const listed = this.snapshot.categoryListed;
      for (let k = offsets[event]!; k < offsets[event + 1]!; k++) {
        const category = values[k]!;
        if (listed[category] === 1) categories[category] = categories[category]! + nodes;
      }
    }
  }

  /** One node at this date, for its venue (a date without a venue counts for none). */
  venueNode(date: number): void {
    const venues = this.venues;
    if (!venues) return;
    const venue = this.snapshot.dateVenue[date]!;
    if (venue >= 0) venues[venue] = venues[venue]! + 1;
  }

  ranked(): ResultPage['facets'] {
    const { venues, organizers, categories, snapshot } = this;
    return {
      ...(venues ? { venues: rankFacet(venues, snapshot.venueIds) } : {}),
      ...(organizers ? { organizers: rankFacet(organizers, snapshot.organizerIds) } : {}),
      ...(categories ? { categories: rankFacet(categories, snapshot.categoryIds) } : {}),
    };
  }
}

/** Entries with hits, most hits first, ties by id (code-unit order). */
function rankFacet(hits: Uint32Array, ids: readonly string[]): FacetCount[] {
  const counted: FacetCount[] = [];
  for (let i = 0; i < hits.length; i++) if (hits[i]! > 0) counted.push({ id: ids[i]!, hits: hits[i]! });
  return counted.sort((a, b) => b.hits - a.hits || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Positions of the listing order, ascending, one at a time (-1: no more): a RankWindow or a RankMerge. */
interface Ranks {
  next(): number;
}

/**
 * The nodes among the dates `ranks` gives in listing order, every condition tested per date: an event's
 * first passing date met is its node (grouped by day: its first of each day, the days coming in order
 * too). Stops after `most` nodes; counts facets when asked. The page's nodes are kept, the others counted.
 */
function nodesInOrder(snapshot: CalendarSnapshot, request: ResultRequest, ranks: Ranks, most: number, hits: FacetHits | null): { nodes: NodeIndex[]; count: number } {
  const { query: q, page, pageSize } = request;
  const datePasses = dateCondition(snapshot, q, request.words);
  const eventPasses = eventCondition(snapshot, q);
  const groupByDay = q.groupByDay;
  const { stamp, judged, passes, noded, day } = walkScratch(snapshot);
  const { dateOrder, dateEvent, dateDay } = snapshot;
  const firstNode = page * pageSize;
  const lastNode = firstNode + pageSize;
  const nodes: NodeIndex[] = [];
  let count = 0;
  while (count < most) {
    const rank = ranks.next();
    if (rank < 0) break;
    const i = dateOrder[rank]!;
    const event = dateEvent[i]!;
    if (noded[event] === stamp && (!groupByDay || day[event] === dateDay[i])) continue;
    if (judged[event] !== stamp) {
      judged[event] = stamp;
      passes[event] = eventPasses(event) ? 1 : 0;
    }
    if (passes[event] === 0 || !datePasses(i, event)) continue;
    noded[event] = stamp;
    day[event] = dateDay[i]!;
    if (count >= firstNode && count < lastNode) nodes.push({ event, date: i });
    count++;
    hits?.add(event, 1, i);
  }
  return { nodes, count };
}

/**
 * `in-order`: every node met walking the ranks [from, to) of the listing order (the query's window,
 * planned), counted as met with their facets; the page is the first ones met.
 */
function inOrder(snapshot: CalendarSnapshot, request: ResultRequest, from: number, to: number): ResultPage {
  const hits = new FacetHits(snapshot, request.facets);
  const ranks = new RankWindow(snapshot, from, to, windowBounds(request.query).notEndedAt);
  const { nodes, count } = nodesInOrder(snapshot, request, ranks, Number.POSITIVE_INFINITY, hits);
  return { nodes, hasMore: count > (request.page + 1) * request.pageSize, totalCount: count, facets: hits.ranked() };
}

/** How many values of the ascending run values[from .. to) are after t (an entity's last ends: its events with a date not ended at t). */
function countAfter(values: Float64Array, from: number, to: number, t: number): number {
  return to - from - countAtMost(values, from, to, t);
}

/**
 * A closed form's count over the events published at now, every count being a sum over events: every
 * event's (`countOver` the snapshot's indexes, sign 1), less the `unpublished` ones' (the first of
 * `publishedLate`, over count indexes of their own, sign -1), plus the events those indexes cover that
 * were published since they were built, counted back one by one (`countEvent`). `countOver` adds `sign`
 * times each facet's count into the request's hits; `countEvent` an event's own.
 */
function countPublished(
  snapshot: CalendarSnapshot,
  unpublished: number,
  countOver: (indexes: CountIndexes, sign: 1 | -1) => number,
  countEvent: (event: number) => number,
): number {
  const walk = snapshot.walk;
  let count = countOver(walk, 1);
  if (unpublished > 0) {
    const { indexes, covered } = unpublishedCountIndexes(snapshot, walk, unpublished);
    count -= countOver(indexes, -1);
    for (let k = unpublished; k < covered; k++) count += countEvent(walk.publishedLate[k]!);
  }
  return count;
}

/**
 * `closed-form`: with no condition but "not ended at t" (t the later of fromDate and now), an event has
 * one node iff its last end is after t, at the venue of its first date that ends after t. Per venue
 * (walk-indexes.ts, promotion intervals), organizer and category, that is a count over a sorted column;
 * the events unpublished at now are counted the same way over their own indexes and taken off.
 */
function closedForm(snapshot: CalendarSnapshot, request: ResultRequest, unpublished: number): ResultPage {
  const { page, pageSize } = request;
  const t = windowBounds(request.query).notEndedAt;
  const hits = new FacetHits(snapshot, request.facets);
  const count = countPublished(
    snapshot,
    unpublished,
    (indexes, sign) => addClosedCounts(snapshot, indexes, t, hits, sign),
    (event) => addClosedEvent(snapshot, event, t, hits),
  );
  // The page: the first nodes in listing order (the total is known, so the walk stops after the page).
  const lastNode = (page + 1) * pageSize;
  const { nodes } = nodesInOrder(snapshot, request, new RankWindow(snapshot, 0, snapshot.dateCount, t), lastNode, null);
  return { nodes, hasMore: count > lastNode, totalCount: count, facets: hits.ranked() };
}

/** The closed form's nodes at t of the events `indexes` covers: returns their number, adds `sign` times each facet's count into `hits`. */
function addClosedCounts(snapshot: CalendarSnapshot, indexes: CountIndexes, t: number, hits: FacetHits, sign: 1 | -1): number {
  const { slotFirstDates, slotPrevEnds, slotEnds, organizerLastEnds, categoryLastEnds } = indexes;
  let count = 0;
  for (let s = 0; s < slotFirstDates.length; s++) {
    const nodes =
      slotFirstDates[s]! +
      countAtMost(slotPrevEnds.values, slotPrevEnds.offsets[s]!, slotPrevEnds.offsets[s + 1]!, t) -
      countAtMost(slotEnds.values, slotEnds.offsets[s]!, slotEnds.offsets[s + 1]!, t);
    count += nodes;
    // The last slot holds the dates without a venue.
    if (hits.venues && s < hits.venues.length) hits.venues[s] = hits.venues[s]! + sign * nodes;
  }
  if (hits.organizers) {
    const { offsets, values } = organizerLastEnds;
    for (let o = 0; o < hits.organizers.length; o++) hits.organizers[o] = hits.organizers[o]! + sign * countAfter(values, offsets[o]!, offsets[o + 1]!, t);
  }
  if (hits.categories) {
    const { offsets, values } = categoryLastEnds;
    const listed = snapshot.categoryListed;
    for (let c = 0; c < hits.categories.length; c++) if (listed[c] === 1) hits.categories[c] = hits.categories[c]! + sign * countAfter(values, offsets[c]!, offsets[c + 1]!, t);
  }
  return count;
}

/** The closed form's node at t of one event (its first date not ended), if it has one: its count (0 or 1), its facets added into `hits`. */
function addClosedEvent(snapshot: CalendarSnapshot, event: number, t: number, hits: FacetHits): number {
  const date = firstDateNotEnded(snapshot, event, t);
  if (date < 0) return 0;
  hits.add(event, 1, date);
  return 1;
}

/** The event's first date that has not ended at t, or -1 when every one has: its node in the closed forms. */
function firstDateNotEnded(snapshot: CalendarSnapshot, event: number, t: number): number {
  if (!(snapshot.walk.eventLastEnd[event]! > t)) return -1;
  let date = snapshot.eventDateOffsets[event]!;
  while (!(snapshot.dateEnds[date]! > t)) date++;
  return date;
}

/**
 * `entity-closed-form`: the closed form's rule (a node is the first date of a published event that has
 * not ended at t) under one category, organizer or venue condition. For a category or an organizer x,
 * an event of x has a node iff its last end is after t: the total is x's count of those (a binary
 * search), a facet's count for y the same over x's events that list y (`EntityPairs`), and the venue
 * facet the promotion intervals of x's events' dates per slot. For a venue v, the node is the event's
 * first date at v not ended at t: an event has one iff its last end at v is after t; the venue facet is
 * v's total. The events unpublished at now are counted the same way over their own indexes and taken off.
 */
function entityClosedForm(snapshot: CalendarSnapshot, request: ResultRequest, plan: EntityClosedFormPlan): ResultPage {
  const { page, pageSize } = request;
  const t = windowBounds(request.query).notEndedAt;
  const { kind, entity, unpublished } = plan;
  const walk = snapshot.walk;
  const hits = new FacetHits(snapshot, request.facets);
  const count = countPublished(
    snapshot,
    unpublished,
    (indexes, sign) => addEntityCounts(snapshot, indexes, plan, t, hits, sign),
    (event) => addEntityEvent(snapshot, plan, event, t, hits),
  );
  if (hits.venues && kind === 'venue') hits.venues[entity] = count;
  // The page: the first nodes, from the entity's events (its posting list, each judged as the full walk
  // judges it) or from the dates in listing order (every condition tested per date), whichever reads less.
  const lastNode = (page + 1) * pageSize;
  const events = kind === 'category' ? walk.categoryEvents : kind === 'organizer' ? walk.organizerEvents : walk.venueEvents;
  const run = events.values.subarray(events.offsets[entity], events.offsets[entity + 1]);
  const inOrderDates = count > 0 ? Math.min(snapshot.dateCount, ((lastNode + 1) * snapshot.dateCount) / count) : snapshot.dateCount;
  const nodes =
    kind !== 'venue' && run.length * RUN_COST < inOrderDates * IN_ORDER_COST
      ? everyNode(snapshot, { ...request, page: 0, pageSize: lastNode, facets: [] }, [run]).nodes.slice(page * pageSize)
      : firstNodes(snapshot, request).nodes;
  return { nodes, hasMore: count > lastNode, totalCount: count, facets: hits.ranked() };
}

/**
 * The entity closed form's node at t of one event, if it has one (its first date not ended; under a venue,
 * its first such date at the venue): its count (0 or 1), its facets added into `hits`.
 */
function addEntityEvent(snapshot: CalendarSnapshot, plan: EntityClosedFormPlan, event: number, t: number, hits: FacetHits): number {
  const { kind, entity } = plan;
  const { eventDateOffsets, dateEnds, dateVenue } = snapshot;
  let node = -1;
  if (kind === 'venue') {
    for (let i = eventDateOffsets[event]!; i < eventDateOffsets[event + 1]! && node < 0; i++) if (dateVenue[i] === entity && dateEnds[i]! > t) node = i;
  } else if (listsValue(kind === 'category' ? snapshot.eventCategories : snapshot.eventOrganizers, event, entity)) {
    node = firstDateNotEnded(snapshot, event, t);
  }
  if (node < 0) return 0;
  hits.add(event, 1, node);
  return 1;
}

/**
 * The entity closed form's nodes at t of the events `indexes` covers: returns their number under the
 * plan's entity, adds `sign` times each facet's count into `hits` (a venue's own facet entry, its total,
 * is the caller's).
 */
function addEntityCounts(snapshot: CalendarSnapshot, indexes: CountIndexes, plan: EntityClosedFormPlan, t: number, hits: FacetHits, sign: 1 | -1): number {
  const { kind, entity } = plan;
  const lastEnds = kind === 'category' ? indexes.categoryLastEnds : kind === 'organizer' ? indexes.organizerLastEnds : indexes.venueLastEnds;
  const pairs = kind === 'category' ? indexes.categoryPairs : kind === 'organizer' ? indexes.organizerPairs : indexes.venuePairs;
  if (hits.organizers) addEndingAfter(pairs.organizers, entity, t, hits.organizers, sign, () => true);
  const listed = snapshot.categoryListed;
  if (hits.categories) addEndingAfter(pairs.categories, entity, t, hits.categories, sign, (c) => listed[c] === 1);
  if (hits.venues && pairs.slots) {
    const { groupOffsets, groupKeys, valueOffsets, values } = pairs.slots;
    for (let g = groupOffsets[entity]!; g < groupOffsets[entity + 1]!; g++) {
      const slot = groupKeys[g]!;
      // The last slot holds the dates without a venue.
      if (slot >= hits.venues.length) continue;
      const nodes = countAtMost(values[0]!, valueOffsets[g]!, valueOffsets[g + 1]!, t) - countAtMost(values[1]!, valueOffsets[g]!, valueOffsets[g + 1]!, t);
      hits.venues[slot] = hits.venues[slot]! + sign * nodes;
    }
  }
  return countAfter(lastEnds.values, lastEnds.offsets[entity]!, lastEnds.offsets[entity + 1]!, t);
}

/** How many values of each group of x are after t (groups keyed by an entity y), added `sign` times into `hits[y]` where `wanted(y)`. */
function addEndingAfter(lists: PairLists, x: number, t: number, hits: Uint32Array, sign: 1 | -1, wanted: (y: number) => boolean): void {
  const { groupOffsets, groupKeys, valueOffsets, values } = lists;
  const ends = values[0]!;
  for (let g = groupOffsets[x]!; g < groupOffsets[x + 1]!; g++) {
    const y = groupKeys[g]!;
    if (!wanted(y)) continue;
    hits[y] = hits[y]! + sign * countAfter(ends, valueOffsets[g]!, valueOffsets[g + 1]!, t);
  }
}
