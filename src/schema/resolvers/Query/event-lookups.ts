import type { QueryResolvers } from '../../../../generated/resolvers-types.js';
import { findEventIds } from '../../../db/repositories/event-lookups.js';
import { MAX_LIST_ARGUMENT_LENGTH } from '../../../domain/event-query.js';
import { invalidArguments } from '../../errors.js';
import { upcomingNode } from '../../event-nodes.js';
import type { GraphQLContext } from '../../context.js';
import type { EventNode } from '../../models.js';

async function nodesFor(ctx: GraphQLContext, ids: string[]): Promise<EventNode[]> {
  const events = await ctx.loaders.event.loadMany(ids);
  const nodes = await Promise.all(events.map((e) => (e instanceof Error ? Promise.reject(e) : upcomingNode(ctx, e))));
  return nodes.filter((n): n is EventNode => n != null);
}

export const eventByID: QueryResolvers['eventByID'] = async (_p, { eventID }, ctx) =>
  upcomingNode(ctx, await ctx.loaders.event.load(eventID));

export const eventBySlug: QueryResolvers['eventBySlug'] = async (_p, { eventSlug }, ctx) => {
  const [id] = await findEventIds(ctx.db, { slugs: [eventSlug] });
  return id ? upcomingNode(ctx, await ctx.loaders.event.load(id)) : null;
};

export const eventsBySlugs: QueryResolvers['eventsBySlugs'] = async (_p, { eventsSlugs }, ctx) => {
  if (eventsSlugs.length > MAX_LIST_ARGUMENT_LENGTH) {
    throw invalidArguments(['eventsSlugs'], `at most ${MAX_LIST_ARGUMENT_LENGTH} slugs per request`);
  }
  const slugs = eventsSlugs.filter((s): s is string => typeof s === 'string');
  const found = await findEventIds(ctx.db, { slugs, withSlug: true });
  const idBySlug = new Map(found.map((f) => [f.slug, f.id]));
  // "In the order of the slugs asked; unknown slugs are skipped."
  const ids = slugs.map((s) => idBySlug.get(s)).filter((id): id is string => id != null);
  return nodesFor(ctx, ids);
};

export const eventByTitle: QueryResolvers['eventByTitle'] = async (_p, { title, lan }, ctx) => {
  if (lan !== 'nb' && lan !== 'en') throw invalidArguments(['lan'], 'lan must be "nb" or "en"');
  const ids = await findEventIds(ctx.db, { title, lan });
  // When several share the title: the next upcoming one.
  const nodes = await nodesFor(ctx, ids);
  nodes.sort((a, b) => new Date(a.occurrence.start_at).getTime() - new Date(b.occurrence.start_at).getTime() || a.event.id.localeCompare(b.event.id));
  return nodes[0] ?? null;
};

export const allUpcomingSuperEvents: QueryResolvers['allUpcomingSuperEvents'] = async (_p, _a, ctx) =>
  chronological(await nodesFor(ctx, await findEventIds(ctx.db, { superEvents: true, now: ctx.now })));

export const allUpcomingEventsInArea: QueryResolvers['allUpcomingEventsInArea'] = async (_p, args, ctx) => {
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
  return chronological(await nodesFor(ctx, await findEventIds(ctx.db, { box, now: ctx.now })));
};

function chronological(nodes: EventNode[]): EventNode[] {
  return nodes.sort(
    (a, b) => new Date(a.occurrence.start_at).getTime() - new Date(b.occurrence.start_at).getTime() || a.event.id.localeCompare(b.event.id),
  );
}
