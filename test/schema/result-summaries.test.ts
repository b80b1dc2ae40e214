import { describe, expect, it } from 'vitest';
import { ResultSummaryCache, type ResultSummary } from '../../src/schema/result-summaries.js';
import { createLogger } from '../../src/logger.js';

const T0 = Date.parse('2026-06-10T10:00:00Z');
const MINUTE = 60_000;

/** A filter whose total drops by one at each of `changes` (ms), as dates end. */
function setup(changes: number[], version = '1') {
  const cache = new ResultSummaryCache({ logger: createLogger('silent'), maxAgeMs: 10 * MINUTE, aheadMs: 15_000 });
  const asked: number[] = [];
  const compute = async (instant: number): Promise<ResultSummary> => {
    asked.push(instant);
    const passed = changes.filter((c) => c <= instant).length;
    const next = changes.find((c) => c > instant) ?? Number.POSITIVE_INFINITY;
    return {
      version,
      totalCount: 10 - passed,
      facets: { venues: [{ id: 'V', hits: 10 - passed }] },
      searchStrategy: 'set',
      search: 'literal',
      validFrom: instant,
      validUntil: next,
    };
  };
  const total = (at: number, facets: ('venues' | 'organizers')[] = ['venues']) => cache.reusable('k', new Date(at), facets, compute)?.totalCount;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { cache, compute, asked, total, settle };
}

describe('ResultSummaryCache', () => {
  it('reuses a summary from its instant until the next change, never before or at it', async () => {
    const change = T0 + 5 * MINUTE;
    const { cache, compute, total } = setup([change]);
    await cache.compute('k', T0, compute);
    expect(total(T0)).toBe(10);
    expect(total(change - 1)).toBe(10);
    expect(total(change)).toBeUndefined();
    // A clock set back (tests) must not see a summary computed for a later moment.
    expect(total(T0 - 1)).toBeUndefined();
  });

  it('computes the summary that follows a change shortly before it, in the background', async () => {
    const change = T0 + 5 * MINUTE;
    const { cache, compute, asked, total, settle } = setup([change]);
    await cache.compute('k', T0, compute);
    expect(total(change - 20_000)).toBe(10);
    await settle();
    expect(asked).toEqual([T0]);
    // Within 15 s of the change: answered from the current one, the next one computed once.
    expect(total(change - 10_000)).toBe(10);
    expect(total(change - 9_000)).toBe(10);
    await settle();
    expect(asked).toEqual([T0, change]);
    expect(total(change)).toBe(9);
    expect(total(change + 3 * MINUTE)).toBe(9);
    expect(asked).toEqual([T0, change]);
  });

  it('recomputes a summary that has held for the maximum age', async () => {
    const { cache, compute, asked, total, settle } = setup([]);
    await cache.compute('k', T0, compute);
    expect(total(T0 + 9 * MINUTE)).toBe(10);
    await settle();
    expect(asked).toEqual([T0]);
    expect(total(T0 + 9 * MINUTE + 50_000)).toBe(10);
    await settle();
    expect(asked).toEqual([T0, T0 + 9 * MINUTE + 50_000]);
    expect(total(T0 + 11 * MINUTE)).toBe(10);
  });

  it('is not reused for a facet it did not count', async () => {
    const { cache, compute, total } = setup([]);
    await cache.compute('k', T0, compute);
    expect(total(T0, ['organizers'])).toBeUndefined();
    expect(cache.keptFacets('k')).toEqual(['venues']);
  });

  it('prefers the summary of the newest data version among those that hold', async () => {
    const { cache, compute } = setup([]);
    const { compute: computeV2 } = setup([T0 + MINUTE], '2');
    await cache.compute('k', T0, compute);
    await cache.compute('k', T0 + 1000, computeV2);
    expect(cache.reusable('k', new Date(T0 + 2000), ['venues'], compute)?.version).toBe('2');
  });

  it('shares one computation between concurrent misses of a filter', async () => {
    const { cache, compute, asked } = setup([]);
    const [a, b] = await Promise.all([cache.compute('k', T0, compute), cache.compute('k', T0, compute)]);
    expect(a).toBe(b);
    expect(asked).toEqual([T0]);
  });
});
