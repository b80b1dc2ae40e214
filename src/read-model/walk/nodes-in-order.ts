import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { dateCondition } from './date-condition.js';
import { eventCondition } from './event-condition.js';
import type { FacetHits } from './facet-hits.js';
import { answeredPositions, type NodeIndex, type ResultRequest } from './result-page.js';
import { walkScratch } from './walk-scratch.js';

/** Positions of the listing order, ascending, one at a time (-1: no more): a RankWindow or a RankMerge. */
export interface Ranks {
  next(): number;
}

/**
 * The nodes among the dates `ranks` gives in listing order, every condition tested per date: an event's
 * first passing date met is its node (grouped by day: its first of each day, the days coming in order
 * too). Stops after `most` nodes; counts facets when asked. The nodes the answer holds (`answeredPositions`)
 * are kept, the others counted.
 */
export function nodesInOrder(snapshot: CalendarSnapshot, request: ResultRequest, ranks: Ranks, most: number, hits: FacetHits | null): { nodes: NodeIndex[]; count: number } {
  const q = request.query;
  const datePasses = dateCondition(snapshot, q, request.words);
  const eventPasses = eventCondition(snapshot, q);
  const groupByDay = q.groupByDay;
  const { stamp, judged, passes, noded, day } = walkScratch(snapshot);
  const { dateOrder, dateEvent, dateDay } = snapshot;
  const { first: firstNode, last: lastNode } = answeredPositions(request);
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
