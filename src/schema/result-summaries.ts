import { LRUCache } from 'lru-cache';
import type { Logger } from '../logger.js';
import type { FacetKind, NodeSummary, SearchMode } from '../db/repositories/event-nodes.js';

/**
 * What the whole result of one `events` filter adds up to (total, facets, search phase) on data
 * version `version`, exactly, at every instant from `validFrom` until `validUntil` (exclusive).
 * Every page of that filter reads the same summary.
 */
export interface ResultSummary extends NodeSummary {
  search: SearchMode;
  /** The instant (ms) it was computed for. */
  validFrom: number;
}

/** Computes a filter's summary as of an instant (ms). */
export type ComputeSummary = (instant: number) => Promise<ResultSummary>;

export interface ResultSummaryCacheOptions {
  /**
   * A summary is recomputed (in the background) once this old, even while still valid: it bounds
   * what a change made outside an import could leave behind. @default 600000 (10 min)
   */
  maxAgeMs?: number;
  /** How long before a summary's end the next one is computed, in the background. @default 15000 */
  aheadMs?: number;
  /** Filters kept (least recently used first out). @default 2000 */
  maxEntries?: number;
  /** Facet entries kept over all filters, bounding memory whatever the catalogues' size. @default 500000 */
  maxFacetEntries?: number;
  logger: Logger;
}

const covers = (summary: ResultSummary, facets: readonly FacetKind[]) => facets.every((kind) => summary.facets[kind]);
const newerVersion = (a: ResultSummary, b: ResultSummary) => BigInt(a.version) > BigInt(b.version);

/**
 * Totals and facets count every node of a filter's result: at 100k events that is hundreds of
 * milliseconds of SQL, while a page read in index order takes a few. So a filter's summary is
 * computed once and reused by every page and repeat of that filter, exactly as long as it holds:
 * - until the next instant the result can change (a date ends, when `from` is "now"; an event gets
 *   published), which the summary statement reads from two indexes;
 * - while the data version is unchanged, which the caller checks against the page it reads.
 *
 * The summary from that next instant on is computed in the background shortly before it, so a busy
 * filter does not wait at the change. Concurrent misses of one filter share one computation.
 */
export class ResultSummaryCache {
  /** Per filter: the summary in use and, once computed ahead, the one that follows it. */
  private readonly entries: LRUCache<string, ResultSummary[]>;
  private readonly running = new Map<string, Promise<ResultSummary>>();
  private readonly maxAgeMs: number;
  private readonly aheadMs: number;
  private readonly logger: Logger;

  constructor(options: ResultSummaryCacheOptions) {
    this.entries = new LRUCache({
      max: options.maxEntries ?? 2000,
      maxSize: options.maxFacetEntries ?? 500_000,
      sizeCalculation: (summaries) =>
        summaries.reduce((size, s) => size + 1 + Object.values(s.facets).reduce((sum, counts) => sum + (counts?.length ?? 0), 0), 0),
    });
    this.maxAgeMs = options.maxAgeMs ?? 600_000;
    this.aheadMs = options.aheadMs ?? 15_000;
    this.logger = options.logger;
  }

  /**
   * The kept summary of `key` that holds at `now` and counts the `facets` asked for (its data
   * version is still the caller's to check). Starts computing its successor when its end is near.
   */
  reusable(key: string, now: Date, facets: readonly FacetKind[], compute: ComputeSummary): ResultSummary | undefined {
    const at = now.getTime();
    const kept = this.entries.get(key) ?? [];
    let found: ResultSummary | undefined;
    for (const s of kept) {
      // A clock set back (tests) never sees a summary computed for a later moment.
      const holds = s.validFrom <= at && at < s.validUntil && at - s.validFrom < this.maxAgeMs;
      if (holds && covers(s, facets) && (!found || newerVersion(s, found))) found = s;
    }
    if (!found) return undefined;
    if (found.validUntil - at <= this.aheadMs) {
      const next = found.validUntil;
      if (!kept.some((s) => s.validFrom === next && !newerVersion(found, s))) this.inBackground(key, next, compute);
    } else if (at - found.validFrom >= this.maxAgeMs - this.aheadMs) {
      this.inBackground(key, at, compute);
    }
    return found;
  }

  /** Facets kept for `key`, so that a recomputation keeps counting what earlier requests asked for. */
  keptFacets(key: string): FacetKind[] {
    const kinds = new Set<FacetKind>();
    for (const s of this.entries.peek(key) ?? []) for (const kind of Object.keys(s.facets) as FacetKind[]) kinds.add(kind);
    return [...kinds];
  }

  /** Computes and keeps the summary of `key` as of `instant`; joins that computation if it is running. */
  compute(key: string, instant: number, compute: ComputeSummary): Promise<ResultSummary> {
    const runKey = `${instant} ${key}`;
    const running = this.running.get(runKey);
    if (running) return running;
    const computing = compute(instant)
      .then((summary) => {
        // The latest two by start: the one in use and the one computed to follow it.
        const others = (this.entries.peek(key) ?? []).filter((s) => s.validFrom !== summary.validFrom);
        this.entries.set(key, [...others, summary].sort((a, b) => a.validFrom - b.validFrom).slice(-2));
        return summary;
      })
      .finally(() => this.running.delete(runKey));
    this.running.set(runKey, computing);
    return computing;
  }

  private inBackground(key: string, instant: number, compute: ComputeSummary): void {
    if (this.running.has(`${instant} ${key}`)) return;
    this.compute(key, instant, compute).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'background computation of an events summary failed'),
    );
  }
}
