import type { Filter } from '../../generated/schema-types.js';

/**
 * What the cold-filter benchmarks ask (bench/read-model.ts, bench/cold-filters.ts,
 * bench/read-model-build.ts): totals, the three facets and a 20-node page with what a list shows.
 */
export const COLD_FILTER_QUERY = `query ($filter: Filter) { events(filter: $filter, pageSize: 20) {
  totalCount hasMore pageInfo { totalPages }
  data { id title_nb startDate endDate venue { name } organizers { name } categories images { urlSmall } prices { type price } }
  venues { id hits } organizers { id hits } categories { id hits } } }`;

/**
 * The filter shapes measured, each made fresh per request by the bench (a unique fromDate; for `when`,
 * which takes none, a fromStartDate in 2000). Category, venue and organizer: the demo calendar's
 * largest (src/demo).
 */
export const COLD_FILTER_SHAPES = {
  plain: {},
  category: { categories: ['CONCERT'] },
  venue: { venues: ['usf-verftet'] },
  organizer: { organizers: ['deichman'] },
  search: { searchTerm: 'konsert' },
  near: { near: { latitude: 59.9139, longitude: 10.7522, radiusKm: 10 } },
  when: { when: 'THIS_WEEKEND' },
  grouped: { groupRepetitionsByDay: true },
} as const satisfies Record<string, Filter>;
