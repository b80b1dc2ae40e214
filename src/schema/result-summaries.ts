import { LRUCache } from 'lru-cache';
import type { Logger } from '../logger.js';
import type { FacetKind, NodeSummary, SearchMode } from '../db/repositories/event-nodes.js';

/**
 * What the whole result of one `events` filter adds up to (total, facets, search phase) as computed
 * at `computedAt` on data version `version`. Every page of that filter reads the same summary.
 */
export interface ResultSummary extends NodeSummary {
  search: SearchMode;
  /** The request's "now" (ms) it was computed for. */
  computedAt: number;
}

export interface ResultSummaryCacheOptions {
  /** How long after `computedAt` a summary may be reused: as long as a cached `events` answer. */
  ttlMs: number;
  /** From this age on, a reused summary is recomputed in the background. @default ttlMs / 2 */
  refreshAfterMs?: number;
  /** Filters kept (least recently used first out). @default 2000 */
  maxEntries?: number;
  /** Facet entries kept over all filters, bounding memory whatever the catalogues' size. @default 500000 */
  maxFacetEntries?: number;
  logger: Logger;
}

/**
 * Totals and facets count every node of a filter's result: at 100k events that is hundreds of
 * milliseconds of SQL, while a page read in index order takes a few. So a filter's summary is
 * computed once and reused by every page and repeat of that filter, for as long as a cached answer
 * of `events` may be served (the response TTL) and only while the data version is unchanged, which
 * the caller checks against the page it reads. A summary getting old is refreshed in the background,
 * so a busy filter does not wait for it; concurrent misses of one filter share one computation.
 */
export class ResultSummaryCache {
  private readonly entries: LRUCache<string, ResultSummary>;
  private readonly running = new Map<string, Promise<ResultSummary>>();
  private readonly ttlMs: number;
  private readonly refreshAfterMs: number;
  private readonly logger: Logger;

  constructor(options: ResultSummaryCacheOptions) {
    this.entries = new LRUCache({
      max: options.maxEntries ?? 2000,
      maxSize: options.maxFacetEntries ?? 500_000,
      sizeCalculation: (summary) => 1 + Object.values(summary.facets).reduce((sum, counts) => sum + (counts?.length ?? 0), 0),
    });
    this.ttlMs = options.ttlMs;
    this.refreshAfterMs = options.refreshAfterMs ?? options.ttlMs / 2;
    this.logger = options.logger;
  }

  /**
   * The kept summary of `key` if it may be used at `now` and counts the `facets` asked for (its data
   * version is still the caller's to check). `compute` refreshes it in the background when it is old.
   */
  reusable(key: string, now: Date, facets: readonly FacetKind[], compute: () => Promise<ResultSummary>): ResultSummary | undefined {
    const entry = this.entries.get(key);
    if (!entry || !facets.every((kind) => entry.facets[kind])) return undefined;
    const age = now.getTime() - entry.computedAt;
    // A clock set back (tests) or an entry from later than this request is never reused.
    if (age < 0 || age >= this.ttlMs) return undefined;
    if (age >= this.refreshAfterMs && !this.running.has(key)) {
      this.compute(key, compute).catch((error: unknown) => this.logger.warn({ err: error }, 'background refresh of an events summary failed'));
    }
    return entry;
  }

  /** Facets kept for `key`, so that a recomputation keeps counting what earlier requests asked for. */
  keptFacets(key: string): FacetKind[] {
    return Object.keys(this.entries.peek(key)?.facets ?? {}) as FacetKind[];
  }

  /** Computes and keeps the summary of `key`; joins a computation of it already running. */
  compute(key: string, compute: () => Promise<ResultSummary>): Promise<ResultSummary> {
    const running = this.running.get(key);
    if (running) return running;
    const computing = compute()
      .then((summary) => {
        this.entries.set(key, summary);
        return summary;
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, computing);
    return computing;
  }
}
