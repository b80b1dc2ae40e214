import type { GraphQLContext } from './context.js';
import type { EventNode, EventRecord } from './models.js';
import type { NodeRef } from '../db/repositories/event-nodes.js';

/**
 * Turns node references into nodes with two batched loads (events, dates), keeping their order.
 * With `repetitions` selected, the events' later dates are loaded alongside rather than after.
 */
export async function loadNodes(
  ctx: GraphQLContext,
  refs: NodeRef[],
  groupByDay: boolean,
  prefetch: { repetitions: boolean } = { repetitions: false },
): Promise<EventNode[]> {
  const eventIds = refs.map((r) => r.event_id);
  const [events, occurrences] = await Promise.all([
    ctx.loaders.event.loadMany(eventIds),
    ctx.loaders.occurrence.loadMany(refs.map((r) => r.occurrence_id)),
    prefetch.repetitions ? ctx.loaders.upcomingOccurrences.loadMany(eventIds) : [],
  ]);
  const nodes: EventNode[] = [];
  refs.forEach((ref, i) => {
    const event = events[i];
    const occurrence = occurrences[i];
    if (event instanceof Error) throw event;
    if (occurrence instanceof Error) throw occurrence;
    if (event && occurrence) nodes.push({ event, occurrence, groupedDay: groupByDay ? ref.local_day : null });
  });
  return nodes;
}

/** Whether the event is visible at `now`: "an event whose publishingDate is in the future is not returned". */
export function isPublished(event: EventRecord, now: Date): boolean {
  return event.publishing_date == null || new Date(event.publishing_date) <= now;
}

/** The event with its next still-valid date promoted, or null when it has none (or is unpublished). */
export async function upcomingNode(ctx: GraphQLContext, event: EventRecord | null): Promise<EventNode | null> {
  if (!event || !isPublished(event, ctx.now)) return null;
  const [next] = await ctx.loaders.upcomingOccurrences.load(event.id);
  return next ? { event, occurrence: next, groupedDay: null } : null;
}
