import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { FacetHits } from './facet-hits.js';
import { nodesInOrder } from './nodes-in-order.js';
import { RankWindow } from './rank-window.js';
import type { ResultPage, ResultRequest } from './result-page.js';
import { windowBounds } from './window-bounds.js';

/**
 * `in-order`: every node met walking the ranks [from, to) of the listing order (the query's window,
 * planned), counted as met with their facets; the page is the first ones met.
 */
export function inOrder(snapshot: CalendarSnapshot, request: ResultRequest, from: number, to: number): ResultPage {
  const hits = new FacetHits(snapshot, request.facets);
  const ranks = new RankWindow(snapshot, from, to, windowBounds(request.query).notEndedAt);
  const { nodes, count } = nodesInOrder(snapshot, request, ranks, Number.POSITIVE_INFINITY, hits);
  return { nodes, hasMore: count > (request.page + 1) * request.pageSize, totalCount: count, facets: hits.ranked() };
}
