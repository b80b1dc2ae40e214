import { onlyConditions, type EventQuery } from '../../domain/event-query.js';
import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { firstWhere } from '../first-where.js';
import type { SortedLists } from '../snapshot/walk-indexes.js';
import { allowedVenues } from './allowed-venues.js';
import { listingWindow } from './listing-window.js';
import type { ResultRequest } from './result-page.js';

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
export const RUN_COST = 4;
export const IN_ORDER_COST = 2;
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

