import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import type { CountIndexes } from '../snapshot/walk-indexes.js';
import { countAfter, countAtMost } from './count-at-most.js';
import { countPublished } from './count-published.js';
import { FacetHits } from './facet-hits.js';
import { nodesInOrder } from './nodes-in-order.js';
import { RankWindow } from './rank-window.js';
import type { ResultPage, ResultRequest } from './result-page.js';
import { windowBounds } from './window-bounds.js';

/**
 * `closed-form`: with no condition but "not ended at t" (t the later of fromDate and now), an event has
 * one node iff its last end is after t, at the venue of its first date that ends after t. Per venue
 * (walk-indexes.ts, promotion intervals), organizer and category, that is a count over a sorted column;
 * the events unpublished at now are counted the same way over their own indexes and taken off.
 */
export function closedForm(snapshot: CalendarSnapshot, request: ResultRequest, unpublished: number): ResultPage {
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
export function firstDateNotEnded(snapshot: CalendarSnapshot, event: number, t: number): number {
  if (!(snapshot.walk.eventLastEnd[event]! > t)) return -1;
  let date = snapshot.eventDateOffsets[event]!;
  while (!(snapshot.dateEnds[date]! > t)) date++;
  return date;
}
