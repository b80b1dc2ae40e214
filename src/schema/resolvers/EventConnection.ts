import type { EventConnectionResolvers } from '../../../generated/resolvers-types.js';
import type { FacetCount } from '../../read-model/event-results.js';

/** Joins facet counts to their records, keeping the counts' order (most hits first). */
async function withRecords<T>(counts: FacetCount[] | undefined, load: (ids: string[]) => Promise<(T | Error | null)[]>) {
  const list = counts ?? [];
  const records = await load(list.map((f) => f.id));
  return list.flatMap((f, i) => {
    const record = records[i];
    return record && !(record instanceof Error) ? [{ ...record, hits: f.hits }] : [];
  });
}

export const EventConnection: EventConnectionResolvers = {
  data: (c) => c.nodes,
  // Computed whenever selected (events resolver); 0 only guards a selection it could not see.
  totalCount: (c) => c.totalCount ?? 0,
  // "True when page + 1 has content."
  hasMore: (c) => c.hasMore,
  pageInfo: (c) => ({ currentPage: c.page, pageSize: c.pageSize, totalPages: Math.ceil((c.totalCount ?? 0) / c.pageSize) }),
  venues: (c, _a, ctx) => withRecords(c.facets.venues, (ids) => ctx.loaders.venue.loadMany(ids)),
  organizers: (c, _a, ctx) => withRecords(c.facets.organizers, (ids) => ctx.loaders.organizer.loadMany(ids)),
  categories: (c, _a, ctx) =>
    withRecords(c.facets.categories, async (ids) => {
      const byId = new Map((await ctx.loaders.categories()).map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
};
