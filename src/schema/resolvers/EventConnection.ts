import type { EventConnectionResolvers } from '../../../generated/resolvers-types.js';
import { countFacets, type FacetCount } from '../../db/repositories/event-nodes.js';
import type { EventConnectionModel } from '../models.js';
import type { GraphQLContext } from '../context.js';

/** Joins facet counts to their records, keeping the counts' order (most hits first). */
async function facet<T>(
  c: EventConnectionModel,
  ctx: GraphQLContext,
  kind: 'venues' | 'organizers' | 'categories',
  load: (ids: string[]) => Promise<(T | null)[]>,
): Promise<(T & { hits: number })[]> {
  const counts: FacetCount[] = await countFacets(ctx.db, c.query, kind, c.search);
  const records = await load(counts.map((f) => f.id));
  return counts.flatMap((f, i) => {
    const record = records[i];
    return record ? [{ ...record, hits: f.hits }] : [];
  });
}

const found = <T>(rows: (T | Error | null)[]): (T | null)[] => rows.map((r) => (r instanceof Error ? null : r));

export const EventConnection: EventConnectionResolvers = {
  data: (c) => c.nodes,
  totalCount: (c) => c.totalCount,
  // "True when page + 1 has content."
  hasMore: (c) => (c.page + 1) * c.pageSize < c.totalCount,
  pageInfo: (c) => ({ currentPage: c.page, pageSize: c.pageSize, totalPages: Math.ceil(c.totalCount / c.pageSize) }),
  venues: (c, _a, ctx) => facet(c, ctx, 'venues', async (ids) => found(await ctx.loaders.venue.loadMany(ids))),
  organizers: (c, _a, ctx) => facet(c, ctx, 'organizers', async (ids) => found(await ctx.loaders.organizer.loadMany(ids))),
  categories: (c, _a, ctx) =>
    facet(c, ctx, 'categories', async (ids) => {
      const byId = new Map((await ctx.loaders.categories()).map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
};
