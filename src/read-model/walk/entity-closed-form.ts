import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import type { CountIndexes, PairLists } from '../snapshot/walk-indexes.js';
import { firstDateNotEnded } from './closed-form.js';
import { countAfter, countAtMost } from './count-at-most.js';
import { countPublished } from './count-published.js';
import { everyNode } from './every-node.js';
import { FacetHits } from './facet-hits.js';
import { firstNodes } from './first-nodes.js';
import { listsValue } from './membership.js';
import { IN_ORDER_COST, RUN_COST, type EntityClosedFormPlan } from './plan-walk.js';
import type { ResultPage, ResultRequest } from './result-page.js';
import { windowBounds } from './window-bounds.js';

/**
 * `entity-closed-form`: the closed form's rule (a node is the first date of a published event that has
 * not ended at t) under one category, organizer or venue condition. For a category or an organizer x,
 * an event of x has a node iff its last end is after t: the total is x's count of those (a binary
 * search), a facet's count for y the same over x's events that list y (`EntityPairs`), and the venue
 * facet the promotion intervals of x's events' dates per slot. For a venue v, the node is the event's
 * first date at v not ended at t: an event has one iff its last end at v is after t; the venue facet is
 * v's total. The events unpublished at now are counted the same way over their own indexes and taken off.
 */
export function entityClosedForm(snapshot: CalendarSnapshot, request: ResultRequest, plan: EntityClosedFormPlan): ResultPage {
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
      ? everyNode(snapshot, { ...request, facets: [] }, [run]).nodes
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
