import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { allowedVenues } from './allowed-venues.js';
import { BestNodes } from './best-nodes.js';
import { dateCondition } from './date-condition.js';
import { eventCondition } from './event-condition.js';
import { FacetHits } from './facet-hits.js';
import { answeredPositions, type ResultPage, type ResultRequest } from './result-page.js';
import { venueRankRanges } from './venue-rank-ranges.js';
import { walkScratch } from './walk-scratch.js';
import { windowBounds } from './window-bounds.js';

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
      // eventNodes' rule (event-nodes.ts), inline: through it, a call per event, this walk cost 4–14 % more (100k events: plain 3.3 → 3.6 ms).
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
        // FacetHits' counting (facet-hits.ts), inline here and below: through its methods this walk cost up to 12 % more (plain 3.3 → 3.7 ms).
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

  const { first, last } = answeredPositions(request);
  const nodes = best
    .sorted()
    .slice(first, last)
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
