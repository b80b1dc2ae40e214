import { describe, expect, it } from 'vitest';
import { ResultSummaryCache, type ResultSummary } from '../../src/schema/result-summaries.js';
import { createLogger } from '../../src/logger.js';

const T0 = new Date('2026-06-10T10:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

function summary(computedAt: Date, totalCount = 5): ResultSummary {
  return { version: '1', totalCount, facets: { venues: [{ id: 'V', hits: totalCount }] }, search: 'literal', searchStrategy: 'set', computedAt: computedAt.getTime() };
}

function setup() {
  const cache = new ResultSummaryCache({ ttlMs: 30_000, logger: createLogger('silent') });
  let computations = 0;
  const compute = (at: Date, total = 5) => async () => {
    computations++;
    return summary(at, total);
  };
  return { cache, compute, computations: () => computations };
}

describe('ResultSummaryCache', () => {
  it('reuses a summary from its computation until the TTL, never before it or after', async () => {
    const { cache, compute } = setup();
    await cache.compute('k', compute(T0));
    expect(cache.reusable('k', later(29_999), ['venues'], compute(later(29_999)))?.totalCount).toBe(5);
    expect(cache.reusable('k', later(30_000), ['venues'], compute(later(30_000)))).toBeUndefined();
    // A clock set back (tests) must not see a summary computed for a later moment.
    expect(cache.reusable('k', later(-1), ['venues'], compute(later(-1)))).toBeUndefined();
  });

  it('is not reused for a facet it did not count', async () => {
    const { cache, compute } = setup();
    await cache.compute('k', compute(T0));
    expect(cache.reusable('k', T0, ['organizers'], compute(T0))).toBeUndefined();
    expect(cache.keptFacets('k')).toEqual(['venues']);
  });

  it('refreshes an old summary in the background once, answering with the kept one meanwhile', async () => {
    const { cache, compute, computations } = setup();
    await cache.compute('k', compute(T0, 5));
    const at = later(20_000);
    expect(cache.reusable('k', at, [], compute(at, 6))?.totalCount).toBe(5);
    expect(cache.reusable('k', at, [], compute(at, 7))?.totalCount).toBe(5);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(computations()).toBe(2);
    expect(cache.reusable('k', at, [], compute(at))?.totalCount).toBe(6);
  });

  it('shares one computation between concurrent misses of a filter', async () => {
    const { cache, compute, computations } = setup();
    const [a, b] = await Promise.all([cache.compute('k', compute(T0)), cache.compute('k', compute(T0))]);
    expect(a).toBe(b);
    expect(computations()).toBe(1);
  });
});
