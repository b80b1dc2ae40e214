/**
 * What the planned walk (walk/, planned in walk/plan-walk.ts) reads besides the snapshot's columns:
 * sorted columns and posting lists, built once per snapshot (load-snapshot.ts), never per request.
 */

/** Dates of a block of 2^RANK_BLOCK_SHIFT positions of the listing order share one entry of `rankBlockEnds`. */
export const RANK_BLOCK_SHIFT = 6;

/** Lists per entity as offsets into one flat array (entity i: values[offsets[i] .. offsets[i+1])). */
export interface SortedLists<T extends Uint32Array | Float64Array> {
  offsets: Uint32Array;
  values: T;
}

/**
 * Lists per pair of entities: entity x of one kind has the groups [groupOffsets[x], groupOffsets[x + 1]),
 * group g keyed by an entity of another kind (groupKeys[g], ascending within x) and holding, in each
 * column of `values`, the run [valueOffsets[g], valueOffsets[g + 1]) ascending (each column sorted on
 * its own).
 */
export interface PairLists {
  groupOffsets: Uint32Array;
  groupKeys: Uint32Array;
  valueOffsets: Uint32Array;
  values: Float64Array[];
}

/**
 * What `entity-closed-form` counts with, for one category, organizer or venue x (walk/entity-closed-form.ts):
 * per organizer and per category y, the last ends of x's events listing y (a venue's: their last ends
 * at it), ascending; for a category or organizer, per venue slot its promotion intervals (as `slotPrevEnds`
 * and `slotEnds`, over x's events' dates alone: column 0 P, -Infinity for a first date; column 1 end).
 */
export interface EntityPairs {
  organizers: PairLists;
  categories: PairLists;
  slots: PairLists | null;
}

/**
 * What the closed forms count with (walk/closed-form.ts, walk/entity-closed-form.ts): built over every
 * event for the snapshot, and over the events unpublished at now alone (`unpublishedCountIndexes`),
 * whose counts are then taken off (walk/count-published.ts).
 */
export interface CountIndexes {
  /** Per event: the latest end of its dates (ms): it has a date that has not ended at t iff this is after t. */
  eventLastEnd: Float64Array;
  /**
   * Posting lists, ascending event numbers (a walk over one reads memory in the full walk's direction):
   * per category and per organizer its events (an entity listed twice in an event's list lists the event
   * twice), per venue the events with a date at it (once each).
   */
  categoryEvents: SortedLists<Uint32Array>;
  organizerEvents: SortedLists<Uint32Array>;
  venueEvents: SortedLists<Uint32Array>;
  /** The same category and organizer lists as the events' last ends, ascending: how many end after t is a binary search. */
  categoryLastEnds: SortedLists<Float64Array>;
  organizerLastEnds: SortedLists<Float64Array>;
  /**
   * Promotion intervals per venue slot (slot v: venue v; the last slot: dates without a venue). With no
   * condition but "has not ended at t", date i is its event's node at t iff P(i) <= t < end(i), where
   * P(i) is the latest end of the event's earlier dates (-Infinity for its first): so a slot's nodes at
   * t are #{P <= t} - #{end <= t} over its dates with P < end (the others are never a node).
   * `slotFirstDates`: how many of those have P = -Infinity; `slotPrevEnds`: the others' P, ascending;
   * `slotEnds`: every such date's end, ascending.
   */
  slotFirstDates: Uint32Array;
  slotPrevEnds: SortedLists<Float64Array>;
  slotEnds: SortedLists<Float64Array>;
  /** Per venue, the last ends at it of its events (`venueEvents`' members), ascending. */
  venueLastEnds: SortedLists<Float64Array>;
  categoryPairs: EntityPairs;
  organizerPairs: EntityPairs;
  venuePairs: EntityPairs;
}

export interface WalkIndexes extends CountIndexes {
  /** Events with a publishing date, the latest-published first: those unpublished at t are a prefix. */
  publishedLate: Uint32Array;
  /** Per block of 2^RANK_BLOCK_SHIFT positions of `dateOrder`: the latest end among its dates (walks skip ended blocks). */
  rankBlockEnds: Float64Array;
  /**
   * Per category and per organizer: the longest date (end - start, ms) of the events listing it
   * (-Infinity: none). A date of such an event that has not ended at t started after t minus this, so a
   * walk in listing order under that condition may start there: the dates before it have all ended
   * (a walk from the first date would test every date a long exhibition keeps from being skipped).
   */
  categoryLongestDate: Float64Array;
  organizerLongestDate: Float64Array;
}

/** The event and date columns the count indexes are built from (a CalendarSnapshot fits; so does a subset of its events). */
export interface CountIndexSource {
  eventCategories: SortedLists<Uint32Array>;
  eventOrganizers: SortedLists<Uint32Array>;
  eventDateOffsets: Uint32Array;
  categoryIds: readonly string[];
  organizerIds: readonly string[];
  venueIds: readonly string[];
  dateEnds: Float64Array;
  dateVenue: Int32Array;
}

/** The snapshot columns the indexes are built from (a CalendarSnapshot fits). */
export interface WalkIndexSource extends CountIndexSource {
  eventPublishing: Float64Array;
  dateOrder: Uint32Array;
  dateStart: Float64Array;
}

export function buildWalkIndexes(source: WalkIndexSource): WalkIndexes {
  const { eventPublishing } = source;
  const counts = buildCountIndexes(source);
  const events = counts.eventLastEnd.length;
  let late = 0;
  for (let e = 0; e < events; e++) if (!Number.isNaN(eventPublishing[e]!)) late++;
  const publishedLate = new Uint32Array(late);
  late = 0;
  for (let e = 0; e < events; e++) if (!Number.isNaN(eventPublishing[e]!)) publishedLate[late++] = e;
  publishedLate.sort((a, b) => eventPublishing[b]! - eventPublishing[a]! || a - b);
  return {
    ...counts,
    publishedLate,
    rankBlockEnds: rankBlockEnds(source.dateOrder, source.dateEnds),
    categoryLongestDate: longestDates(source, source.eventCategories, source.categoryIds.length),
    organizerLongestDate: longestDates(source, source.eventOrganizers, source.organizerIds.length),
  };
}

/** Per entity of `lists` (an event's categories or organizers), the longest date of its events (-Infinity: none). */
function longestDates(source: WalkIndexSource, lists: SortedLists<Uint32Array>, entities: number): Float64Array {
  const { eventDateOffsets, dateStart, dateEnds } = source;
  const longest = new Float64Array(entities).fill(Number.NEGATIVE_INFINITY);
  for (let e = 0; e + 1 < eventDateOffsets.length; e++) {
    let eventLongest = Number.NEGATIVE_INFINITY;
    for (let i = eventDateOffsets[e]!; i < eventDateOffsets[e + 1]!; i++) eventLongest = Math.max(eventLongest, dateEnds[i]! - dateStart[i]!);
    for (let k = lists.offsets[e]!; k < lists.offsets[e + 1]!; k++) {
      const entity = lists.values[k]!;
      if (eventLongest > longest[entity]!) longest[entity] = eventLongest;
    }
  }
  return longest;
}

function buildCountIndexes(source: CountIndexSource): CountIndexes {
  const { eventDateOffsets, dateEnds } = source;
  const events = eventDateOffsets.length - 1;
  const eventLastEnd = new Float64Array(events);
  for (let e = 0; e < events; e++) {
    let last = Number.NEGATIVE_INFINITY;
    for (let i = eventDateOffsets[e]!; i < eventDateOffsets[e + 1]!; i++) if (dateEnds[i]! > last) last = dateEnds[i]!;
    eventLastEnd[e] = last;
  }
  const categoryEvents = eventsByEntity(source.eventCategories, source.categoryIds.length);
  const organizerEvents = eventsByEntity(source.eventOrganizers, source.organizerIds.length);
  const venueEvents = eventsByEntity(venuesOfEvents(source), source.venueIds.length);
  return {
    eventLastEnd,
    categoryEvents,
    organizerEvents,
    venueEvents,
    ...entityPairs(source, eventLastEnd, venueEvents),
    categoryLastEnds: lastEndsOf(categoryEvents, eventLastEnd),
    organizerLastEnds: lastEndsOf(organizerEvents, eventLastEnd),
    ...promotionIntervals(source),
  };
}

/**
 * How many events past the asked prefix kept indexes may cover before they are built again: those events,
 * published since, are counted back one by one (walk/count-published.ts), a few binary-search-free steps each,
 * where a build costs tens of milliseconds at a million events (54–136 ms measured for 18 089 of them).
 */
export const UNPUBLISHED_SLACK = 64;

/** Count indexes over the first `covered` events of `publishedLate`. */
export interface UnpublishedIndexes {
  indexes: CountIndexes;
  covered: number;
}

/** The count indexes of the events unpublished at a moment, kept for the last prefix built (see below). */
const unpublishedIndexes = new WeakMap<WalkIndexes, UnpublishedIndexes>();

/**
 * Count indexes over a prefix of `publishedLate` that covers the `unpublished` first events (the events
 * unpublished at now) and at most UNPUBLISHED_SLACK more, in the snapshot's entity numbering: the closed
 * forms count over every event, take these counts off, and count the covered events past `unpublished`
 * (published since the build) back one by one. Built when no kept prefix fits and kept until then: the
 * number unpublished only falls as now passes publishing dates, so a build comes once per UNPUBLISHED_SLACK
 * publishing moments, not one pass over those events per request.
 */
export function unpublishedCountIndexes(source: CountIndexSource, walk: WalkIndexes, unpublished: number): UnpublishedIndexes {
  const kept = unpublishedIndexes.get(walk);
  if (kept && kept.covered >= unpublished && kept.covered - unpublished <= UNPUBLISHED_SLACK) return kept;
  const built = { indexes: buildCountIndexes(eventSubset(source, walk.publishedLate.subarray(0, unpublished))), covered: unpublished };
  unpublishedIndexes.set(walk, built);
  return built;
}

/** The columns of these events alone (renumbered 0.. in the given order), entities numbered as in `source`. */
function eventSubset(source: CountIndexSource, events: Uint32Array): CountIndexSource {
  const { eventDateOffsets, dateEnds, dateVenue } = source;
  const subsetLists = ({ offsets, values }: SortedLists<Uint32Array>): SortedLists<Uint32Array> => {
    const subsetOffsets = new Uint32Array(events.length + 1);
    for (let k = 0; k < events.length; k++) subsetOffsets[k + 1] = subsetOffsets[k]! + offsets[events[k]! + 1]! - offsets[events[k]!]!;
    const subsetValues = new Uint32Array(subsetOffsets[events.length]!);
    for (let k = 0; k < events.length; k++) subsetValues.set(values.subarray(offsets[events[k]!], offsets[events[k]! + 1]), subsetOffsets[k]);
    return { offsets: subsetOffsets, values: subsetValues };
  };
  const dateOffsets = new Uint32Array(events.length + 1);
  for (let k = 0; k < events.length; k++) dateOffsets[k + 1] = dateOffsets[k]! + eventDateOffsets[events[k]! + 1]! - eventDateOffsets[events[k]!]!;
  const ends = new Float64Array(dateOffsets[events.length]!);
  const venues = new Int32Array(ends.length);
  for (let k = 0; k < events.length; k++) {
    const from = eventDateOffsets[events[k]!]!;
    const to = eventDateOffsets[events[k]! + 1]!;
    ends.set(dateEnds.subarray(from, to), dateOffsets[k]);
    venues.set(dateVenue.subarray(from, to), dateOffsets[k]);
  }
  return {
    eventCategories: subsetLists(source.eventCategories),
    eventOrganizers: subsetLists(source.eventOrganizers),
    eventDateOffsets: dateOffsets,
    categoryIds: source.categoryIds,
    organizerIds: source.organizerIds,
    venueIds: source.venueIds,
    dateEnds: ends,
    dateVenue: venues,
  };
}

/** An order of `input` stable within equal keys, by ascending key (a counting sort). */
function countingOrder(keys: Uint32Array, keyCount: number, input: Uint32Array): Uint32Array {
  const starts = new Uint32Array(keyCount + 1);
  for (let k = 0; k < input.length; k++) starts[keys[input[k]!]! + 1] = starts[keys[input[k]!]! + 1]! + 1;
  for (let c = 0; c < keyCount; c++) starts[c + 1] = starts[c + 1]! + starts[c]!;
  const out = new Uint32Array(input.length);
  for (let k = 0; k < input.length; k++) out[starts[keys[input[k]!]!]!++] = input[k]!;
  return out;
}

/** Pair lists of the entries `emit` gives (called twice: to count, then to fill), with one or two value columns. */
function pairLists(xCount: number, yCount: number, columns: 1 | 2, emit: (add: (x: number, y: number, a: number, b: number) => void) => void): PairLists {
  let n = 0;
  emit(() => n++);
  const xs = new Uint32Array(n);
  const ys = new Uint32Array(n);
  const raw = Array.from({ length: columns }, () => new Float64Array(n));
  let k = 0;
  emit((x, y, a, b) => {
    xs[k] = x;
    ys[k] = y;
    raw[0]![k] = a;
    if (columns === 2) raw[1]![k] = b;
    k++;
  });
  const identity = new Uint32Array(n);
  for (let i = 0; i < n; i++) identity[i] = i;
  // By y, then (stably) by x: grouped by (x, y) in ascending y within x.
  const order = countingOrder(xs, xCount, countingOrder(ys, yCount, identity));
  const groupOffsets = new Uint32Array(xCount + 1);
  const groupKeys: number[] = [];
  const valueOffsets: number[] = [];
  const values = raw.map(() => new Float64Array(n));
  for (let r = 0; r < n; r++) {
    const i = order[r]!;
    for (let c = 0; c < columns; c++) values[c]![r] = raw[c]![i]!;
    if (r > 0 && xs[i] === xs[order[r - 1]!] && ys[i] === ys[order[r - 1]!]) continue;
    groupKeys.push(ys[i]!);
    valueOffsets.push(r);
    groupOffsets[xs[i]! + 1] = groupOffsets[xs[i]! + 1]! + 1;
  }
  valueOffsets.push(n);
  for (let x = 0; x < xCount; x++) groupOffsets[x + 1] = groupOffsets[x + 1]! + groupOffsets[x]!;
  for (let g = 0; g + 1 < valueOffsets.length; g++) for (const column of values) column.subarray(valueOffsets[g], valueOffsets[g + 1]).sort();
  return { groupOffsets, groupKeys: Uint32Array.from(groupKeys), valueOffsets: Uint32Array.from(valueOffsets), values };
}

/** The pair lists of categories, organizers and venues (see EntityPairs), and each venue's last ends at it. */
function entityPairs(
  source: CountIndexSource,
  eventLastEnd: Float64Array,
  venueEvents: SortedLists<Uint32Array>,
): Pick<WalkIndexes, 'categoryPairs' | 'organizerPairs' | 'venuePairs' | 'venueLastEnds'> {
  const { eventDateOffsets, dateEnds, dateVenue, eventCategories, eventOrganizers } = source;
  const events = eventDateOffsets.length - 1;
  const venues = source.venueIds.length;
  const categories = source.categoryIds.length;
  const organizers = source.organizerIds.length;
  const slots = venues + 1;
  const each = (lists: SortedLists<Uint32Array>, e: number, visit: (member: number) => void) => {
    for (let k = lists.offsets[e]!; k < lists.offsets[e + 1]!; k++) visit(lists.values[k]!);
  };
  // Per event, per distinct venue of its dates, its last end there (venues in order of first date there).
  const venueOffsets = new Uint32Array(events + 1);
  const venueOf: number[] = [];
  const lastAt: number[] = [];
  const slotAt = new Int32Array(venues).fill(-1);
  for (let e = 0; e < events; e++) {
    const first = venueOf.length;
    for (let i = eventDateOffsets[e]!; i < eventDateOffsets[e + 1]!; i++) {
      const v = dateVenue[i]!;
      if (v < 0) continue;
      if (slotAt[v]! < first || venueOf[slotAt[v]!] !== v) {
        slotAt[v] = venueOf.length;
        venueOf.push(v);
        lastAt.push(dateEnds[i]!);
      } else if (dateEnds[i]! > lastAt[slotAt[v]!]!) lastAt[slotAt[v]!] = dateEnds[i]!;
    }
    venueOffsets[e + 1] = venueOf.length;
  }
  const eventVenues = (e: number, visit: (venue: number, lastEnd: number) => void) => {
    for (let k = venueOffsets[e]!; k < venueOffsets[e + 1]!; k++) visit(venueOf[k]!, lastAt[k]!);
  };
  // The promotable dates (P < end), as in promotionIntervals.
  const promotable = (e: number, visit: (slot: number, prev: number, end: number) => void) => {
    let latest = Number.NEGATIVE_INFINITY;
    for (let i = eventDateOffsets[e]!; i < eventDateOffsets[e + 1]!; i++) {
      if (latest < dateEnds[i]!) visit(dateVenue[i]! < 0 ? slots - 1 : dateVenue[i]!, latest, dateEnds[i]!);
      if (dateEnds[i]! > latest) latest = dateEnds[i]!;
    }
  };
  const byEvent = (xs: SortedLists<Uint32Array>, ys: SortedLists<Uint32Array>) => (add: (x: number, y: number, a: number, b: number) => void) => {
    for (let e = 0; e < events; e++) each(xs, e, (x) => each(ys, e, (y) => add(x, y, eventLastEnd[e]!, 0)));
  };
  const slotsOf = (xs: SortedLists<Uint32Array>) => (add: (x: number, y: number, a: number, b: number) => void) => {
    for (let e = 0; e < events; e++) promotable(e, (slot, prev, end) => each(xs, e, (x) => add(x, slot, prev, end)));
  };
  const atVenues = (ys: SortedLists<Uint32Array>) => (add: (x: number, y: number, a: number, b: number) => void) => {
    for (let e = 0; e < events; e++) eventVenues(e, (v, last) => each(ys, e, (y) => add(v, y, last, 0)));
  };
  const venueLastEnds = new Float64Array(venueEvents.values.length);
  const next = venueEvents.offsets.slice(0, venues);
  for (let e = 0; e < events; e++) eventVenues(e, (v, last) => (venueLastEnds[next[v]!++] = last));
  for (let v = 0; v < venues; v++) venueLastEnds.subarray(venueEvents.offsets[v], venueEvents.offsets[v + 1]).sort();
  return {
    venueLastEnds: { offsets: venueEvents.offsets, values: venueLastEnds },
    categoryPairs: {
      organizers: pairLists(categories, organizers, 1, byEvent(eventCategories, eventOrganizers)),
      categories: pairLists(categories, categories, 1, byEvent(eventCategories, eventCategories)),
      slots: pairLists(categories, slots, 2, slotsOf(eventCategories)),
    },
    organizerPairs: {
      organizers: pairLists(organizers, organizers, 1, byEvent(eventOrganizers, eventOrganizers)),
      categories: pairLists(organizers, categories, 1, byEvent(eventOrganizers, eventCategories)),
      slots: pairLists(organizers, slots, 2, slotsOf(eventOrganizers)),
    },
    venuePairs: {
      organizers: pairLists(venues, organizers, 1, atVenues(eventOrganizers)),
      categories: pairLists(venues, categories, 1, atVenues(eventCategories)),
      slots: null,
    },
  };
}

/** Each entity's events, ascending (a counting sort: one pass to count, one to place). */
function eventsByEntity(lists: SortedLists<Uint32Array>, entities: number): SortedLists<Uint32Array> {
  const offsets = new Uint32Array(entities + 1);
  for (let k = 0; k < lists.values.length; k++) offsets[lists.values[k]! + 1] = offsets[lists.values[k]! + 1]! + 1;
  for (let c = 0; c < entities; c++) offsets[c + 1] = offsets[c + 1]! + offsets[c]!;
  const values = new Uint32Array(offsets[entities]!);
  const next = offsets.slice(0, entities);
  for (let e = 0; e + 1 < lists.offsets.length; e++) {
    for (let k = lists.offsets[e]!; k < lists.offsets[e + 1]!; k++) values[next[lists.values[k]!]!++] = e;
  }
  return { offsets, values };
}

/** Per event, the venues of its dates, each once. */
function venuesOfEvents(source: CountIndexSource): SortedLists<Uint32Array> {
  const { eventDateOffsets, dateVenue } = source;
  const events = eventDateOffsets.length - 1;
  const seen = new Int32Array(source.venueIds.length).fill(-1);
  const offsets = new Uint32Array(events + 1);
  const venues: number[] = [];
  for (let e = 0; e < events; e++) {
    for (let i = eventDateOffsets[e]!; i < eventDateOffsets[e + 1]!; i++) {
      const venue = dateVenue[i]!;
      if (venue < 0 || seen[venue] === e) continue;
      seen[venue] = e;
      venues.push(venue);
    }
    offsets[e + 1] = venues.length;
  }
  return { offsets, values: Uint32Array.from(venues) };
}

/** The lists' events as their last ends, each list ascending. */
function lastEndsOf(lists: SortedLists<Uint32Array>, eventLastEnd: Float64Array): SortedLists<Float64Array> {
  const values = new Float64Array(lists.values.length);
  for (let k = 0; k < values.length; k++) values[k] = eventLastEnd[lists.values[k]!]!;
  // A typed array's own sort is numeric.
  for (let c = 0; c + 1 < lists.offsets.length; c++) values.subarray(lists.offsets[c], lists.offsets[c + 1]).sort();
  return { offsets: lists.offsets, values };
}

function promotionIntervals(source: CountIndexSource): Pick<WalkIndexes, 'slotFirstDates' | 'slotPrevEnds' | 'slotEnds'> {
  const { eventDateOffsets, dateEnds, dateVenue } = source;
  const slots = source.venueIds.length + 1;
  const slotOf = (date: number) => (dateVenue[date]! < 0 ? slots - 1 : dateVenue[date]!);
  const dates = dateEnds.length;
  // P of every date, then the promotable ones counted and placed per slot.
  const prev = new Float64Array(dates);
  for (let e = 0; e + 1 < eventDateOffsets.length; e++) {
    let latest = Number.NEGATIVE_INFINITY;
    for (let i = eventDateOffsets[e]!; i < eventDateOffsets[e + 1]!; i++) {
      prev[i] = latest;
      if (dateEnds[i]! > latest) latest = dateEnds[i]!;
    }
  }
  const slotFirstDates = new Uint32Array(slots);
  const prevOffsets = new Uint32Array(slots + 1);
  const endOffsets = new Uint32Array(slots + 1);
  for (let i = 0; i < dates; i++) {
    if (!(prev[i]! < dateEnds[i]!)) continue;
    const s = slotOf(i);
    endOffsets[s + 1] = endOffsets[s + 1]! + 1;
    if (prev[i] === Number.NEGATIVE_INFINITY) slotFirstDates[s] = slotFirstDates[s]! + 1;
    else prevOffsets[s + 1] = prevOffsets[s + 1]! + 1;
  }
  for (let s = 0; s < slots; s++) {
    prevOffsets[s + 1] = prevOffsets[s + 1]! + prevOffsets[s]!;
    endOffsets[s + 1] = endOffsets[s + 1]! + endOffsets[s]!;
  }
  const prevValues = new Float64Array(prevOffsets[slots]!);
  const endValues = new Float64Array(endOffsets[slots]!);
  const nextPrev = prevOffsets.slice(0, slots);
  const nextEnd = endOffsets.slice(0, slots);
  for (let i = 0; i < dates; i++) {
    if (!(prev[i]! < dateEnds[i]!)) continue;
    const s = slotOf(i);
    endValues[nextEnd[s]!++] = dateEnds[i]!;
    if (prev[i] !== Number.NEGATIVE_INFINITY) prevValues[nextPrev[s]!++] = prev[i]!;
  }
  for (let s = 0; s < slots; s++) {
    prevValues.subarray(prevOffsets[s], prevOffsets[s + 1]).sort();
    endValues.subarray(endOffsets[s], endOffsets[s + 1]).sort();
  }
  return { slotFirstDates, slotPrevEnds: { offsets: prevOffsets, values: prevValues }, slotEnds: { offsets: endOffsets, values: endValues } };
}

function rankBlockEnds(dateOrder: Uint32Array, dateEnds: Float64Array): Float64Array {
  const blocks = new Float64Array(Math.ceil(dateOrder.length / (1 << RANK_BLOCK_SHIFT))).fill(Number.NEGATIVE_INFINITY);
  for (let rank = 0; rank < dateOrder.length; rank++) {
    const end = dateEnds[dateOrder[rank]!]!;
    const block = rank >> RANK_BLOCK_SHIFT;
    if (end > blocks[block]!) blocks[block] = end;
  }
  return blocks;
}

/** Bytes of the indexes' typed arrays (a buffer two lists share counted once). */
export function walkIndexBytes(indexes: WalkIndexes): number {
  const buffers = new Set<ArrayBufferLike>();
  for (const value of Object.values(indexes) as unknown[]) {
    if (ArrayBuffer.isView(value)) buffers.add(value.buffer);
    else if (value && typeof value === 'object' && 'categories' in value && 'organizers' in value) {
      const pairs = value as EntityPairs;
      for (const lists of [pairs.organizers, pairs.categories, pairs.slots]) {
        if (!lists) continue;
        buffers.add(lists.groupOffsets.buffer).add(lists.groupKeys.buffer).add(lists.valueOffsets.buffer);
        for (const column of lists.values) buffers.add(column.buffer);
      }
    } else if (value && typeof value === 'object' && 'offsets' in value && 'values' in value) {
      const lists = value as SortedLists<Uint32Array | Float64Array>;
      buffers.add(lists.offsets.buffer).add(lists.values.buffer);
    }
  }
  let bytes = 0;
  for (const buffer of buffers) bytes += buffer.byteLength;
  return bytes;
}
