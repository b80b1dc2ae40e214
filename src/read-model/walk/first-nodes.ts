import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { allowedVenues } from './allowed-venues.js';
import { listingWindow } from './listing-window.js';
import { nodesInOrder } from './nodes-in-order.js';
import { RankMerge } from './rank-merge.js';
import { RankWindow } from './rank-window.js';
import type { ResultPage, ResultRequest } from './result-page.js';
import { venueRankRanges } from './venue-rank-ranges.js';
import { windowBounds } from './window-bounds.js';

/**
 * `first-nodes`: the first nodes in listing order, up to the page and one more: no total, no facets. The
 * dates are walked in listing order and the walk stops once the page and one more node are found.
 */
export function firstNodes(snapshot: CalendarSnapshot, request: ResultRequest): ResultPage {
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
