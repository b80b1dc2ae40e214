import type { GraphQLResolveInfo } from 'graphql';
import type { QueryResolvers } from '../../../../generated/resolvers-types.js';
import { findEventIds } from '../../../db/repositories/event-lookups.js';
import { MAX_LIST_ARGUMENT_LENGTH } from '../../../domain/event-query.js';
import type { CalendarNode, NodeOptions } from '../../../read-model/calendar-reader.js';
import { invalidArguments } from '../../../api-error.js';
import { EVENTS_TAG, eventTag, type AnswerTags } from '../../../domain/answer-tags.js';
import { EventNode, eventNodes } from '../../event-node.js';
import { nodeOptionsFor } from '../../node-options.js';
import { selectedFieldNames } from '../../selected-fields.js';

const firstNode = (nodes: readonly CalendarNode[]): EventNode | null => (nodes[0] ? new EventNode(nodes[0]) : null);

/**
 * One event's answer: tagged with that event, so an import purges it only when it changes the event;
 * no event (yet): with `events`, since any import may add one under that id or slug.
 */
function taggedFirstNode(nodes: readonly CalendarNode[], tags: AnswerTags): EventNode | null {
  tags.add(nodes[0] ? eventTag(nodes[0].event.id) : EVENTS_TAG);
  return firstNode(nodes);
}

/** What the operation selects of the events: their `repetitions`, and which columns to read. */
function nodeOptions(info: GraphQLResolveInfo): NodeOptions {
  return nodeOptionsFor(selectedFieldNames(info.fieldNodes.map((f) => f.selectionSet), info.fragments));
}

export const eventByID: QueryResolvers['eventByID'] = async (_p, { eventID }, ctx, info) =>
  taggedFirstNode(await ctx.calendar.upcomingNodes([eventID], nodeOptions(info)), ctx.answerTags);

export const eventBySlug: QueryResolvers['eventBySlug'] = async (_p, { eventSlug }, ctx, info) => {
  const ids = await findEventIds(ctx.db, { slugs: [eventSlug] });
  return taggedFirstNode(await ctx.calendar.upcomingNodes(ids, nodeOptions(info)), ctx.answerTags);
};

export const eventsBySlugs: QueryResolvers['eventsBySlugs'] = async (_p, { eventsSlugs }, ctx, info) => {
  if (eventsSlugs.length > MAX_LIST_ARGUMENT_LENGTH) {
    throw invalidArguments(['eventsSlugs'], `at most ${MAX_LIST_ARGUMENT_LENGTH} slugs per request`);
  }
  const slugs = eventsSlugs.filter((s): s is string => typeof s === 'string');
  const found = await findEventIds(ctx.db, { slugs, withSlug: true });
  const idBySlug = new Map(found.map((f) => [f.slug, f.id]));
  // "In the order of the slugs asked; unknown slugs are skipped."
  const ids = slugs.map((s) => idBySlug.get(s)).filter((id): id is string => id != null);
  return eventNodes(await ctx.calendar.upcomingNodes(ids, nodeOptions(info)));
};

export const eventByTitle: QueryResolvers['eventByTitle'] = async (_p, { title, lan }, ctx, info) => {
  if (lan !== 'nb' && lan !== 'en') throw invalidArguments(['lan'], 'lan must be "nb" or "en"');
  const ids = await findEventIds(ctx.db, { title, lan });
  // When several share the title: the next upcoming one (ties by id).
  const nodes = await ctx.calendar.upcomingNodes(ids, nodeOptions(info));
  nodes.sort((a, b) => new Date(a.occurrence.start_at).getTime() - new Date(b.occurrence.start_at).getTime() || (a.event.id < b.event.id ? -1 : 1));
  return firstNode(nodes);
};

export const allUpcomingSuperEvents: QueryResolvers['allUpcomingSuperEvents'] = async (_p, _a, ctx, info) =>
  eventNodes(await ctx.calendar.upcomingSuperEvents(nodeOptions(info)));

export const allUpcomingEventsInArea: QueryResolvers['allUpcomingEventsInArea'] = async (_p, args, ctx, info) => {
  const { minLatitude, maxLatitude, minLongitude, maxLongitude } = args;
  const missing = (['minLatitude', 'maxLatitude', 'minLongitude', 'maxLongitude'] as const).filter(
    (k) => args[k] == null || !Number.isFinite(args[k]),
  );
  if (missing.length > 0) throw invalidArguments([...missing], 'all four box edges are required');
  const bad: string[] = [];
  if (minLatitude! > maxLatitude!) bad.push('minLatitude', 'maxLatitude');
  if (minLongitude! > maxLongitude!) bad.push('minLongitude', 'maxLongitude');
  if (bad.length > 0) throw invalidArguments(bad, 'a minimum edge lies beyond its maximum');
  const box = { minLatitude: minLatitude!, maxLatitude: maxLatitude!, minLongitude: minLongitude!, maxLongitude: maxLongitude! };
  const nodes = await ctx.calendar.eventsInArea(box, nodeOptions(info));
  // A large answer's items are promises released a chunk per turn of the event loop (list-in-turns.ts):
  // GraphQL completes a list of promises item by item.
  return nodes.map((item) => (item instanceof Promise ? item.then((node) => new EventNode(node)) : new EventNode(item)));
};
