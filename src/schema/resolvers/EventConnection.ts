import type { EventConnectionResolvers } from '../../../generated/resolvers-types.js';
import type { FacetCount } from '../../read-model/walk/result-page.js';
import type { CategoryRow, OrganizerRow, VenueRow } from '../../db/database.js';

/**
 * Joins facet counts to their records in the request's snapshot, keeping the counts' order (most hits
 * first). Read from the catalogue itself, not through the loaders: it is in memory, and a DataLoader
 * would make a promise and a cache entry per facet entry (a tenth of what a cold page allocated).
 */
async function withRecords<T>(counts: FacetCount[] | undefined, records: () => Promise<ReadonlyMap<string, T>>) {
  const list = counts ?? [];
  if (list.length === 0) return [];
  const byId = await records();
  const joined: (T & { hits: number })[] = [];
  for (const f of list) {
    const record = byId.get(f.id);
    if (record) joined.push({ ...record, hits: f.hits });
  }
  return joined;
}

export const EventConnection = {
  data: (c) => c.nodes,
  // Computed whenever selected (events resolver); 0 only guards a selection it could not see.
  totalCount: (c) => c.totalCount ?? 0,
  // "True when page + 1 has content."
  hasMore: (c) => c.hasMore,
  pageInfo: (c) => ({ currentPage: c.page, pageSize: c.pageSize, totalPages: Math.ceil((c.totalCount ?? 0) / c.pageSize) }),
  venues: (c, _a, ctx) => withRecords<VenueRow>(c.facets.venues, () => ctx.calendar.catalogue().then((catalogue) => catalogue.venues)),
  organizers: (c, _a, ctx) => withRecords<OrganizerRow>(c.facets.organizers, () => ctx.calendar.catalogue().then((catalogue) => catalogue.organizers)),
  categories: (c, _a, ctx) => withRecords<CategoryRow>(c.facets.categories, () => ctx.calendar.catalogue().then((catalogue) => catalogue.categoriesById)),
} satisfies EventConnectionResolvers;
