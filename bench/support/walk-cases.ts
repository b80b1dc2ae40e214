import type { Filter } from '../../generated/schema-types.js';
import type { FacetKind } from '../../src/read-model/walk/result-page.js';

/* What the walk benches ask (bench/layered-deep-pages.ts, bench/segmented-pages.ts) and how they time it. */

const DAY = 86_400_000;

/** One filter of each shape the planner tells apart, on the demo calendar, around `today`. */
export function filterShapes(today: Date): Record<string, Filter> {
  return {
    plain: {},
    category: { categories: ['CONCERT'] },
    venue: { venues: ['usf-verftet'] },
    'date range': { fromStartDate: new Date(today.getTime() + 7 * DAY).toISOString(), untilDate: new Date(today.getTime() + 97 * DAY).toISOString() },
    search: { searchTerm: 'konsert' },
  };
}

/** What a request asks besides its page: totals and three facets, the total alone, the page alone. */
export const REQUEST_KINDS: Record<string, { facets: FacetKind[]; wantsTotal: boolean }> = {
  'total+facets': { facets: ['venues', 'organizers', 'categories'], wantsTotal: true },
  total: { facets: [], wantsTotal: true },
  'page only': { facets: [], wantsTotal: false },
};

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The process's CPU time (ms): unlike the wall clock, not counting the moments other work on the machine holds the core. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU time of `calls` calls, per call: short walks are timed in batches so the clock's resolution does not dominate. */
export function timed(run: () => unknown, calls: number): number {
  const started = cpuMs();
  for (let k = 0; k < calls; k++) run();
  return (cpuMs() - started) / calls;
}

/**
 * Each side's CPU time per call (medians of `rounds` turns of `calls` calls), the sides taking turns, in
 * alternate order each round so that no side always runs first after another's walk.
 */
export function medianTimes<Side extends string>(sides: Record<Side, () => unknown>, calls: number, rounds: number): Record<Side, number> {
  const names = Object.keys(sides) as Side[];
  const times = new Map<Side, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) times.get(name)!.push(timed(sides[name], calls));
  }
  return Object.fromEntries(names.map((name) => [name, median(times.get(name)!)])) as Record<Side, number>;
}
