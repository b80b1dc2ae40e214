import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../logger.js';

/**
 * After a full build is swapped in, the one it replaced (~0.45 GB of typed arrays at 1 000 000 events)
 * is garbage once its last request is done, but nothing makes V8 look soon: no allocation follows to
 * trigger a collection, and the process kept the RSS of both builds for minutes (1.47x steady 3 s after
 * a compaction at 1M, 1.32x 30 s after). So a full collection runs once the replaced build is left to
 * requests alone, then again later while a request still holds it (a WeakRef tells), and the build's own
 * garbage goes with it. V8's "last resort" collection: an ordinary one frees the objects but keeps the
 * heap pages they were on (256 KiB each, pooled for reuse: ~500 MB at 1M after a build), which only its
 * memory reducer gives back, later or not at all (measured: docs/performance.md, "Compaction's memory").
 * Its pause (~0.6-0.8 s at 1M, once per full build) is shorter than the build's own synchronous steps.
 * The array buffers V8 frees return to the system only with glibc's mmap threshold fixed
 * (MALLOC_MMAP_THRESHOLD_, src/cli/malloc-settings.ts): docs/performance.md, "Compaction's memory".
 */

/** When (ms after the swap) a collection runs, until the replaced build is gone. */
export const RELEASE_AFTER_MS: readonly number[] = [1_000, 5_000, 15_000, 60_000];

/** V8's `gc` as --expose-gc gives it (options since V8 11: Node 22 and 24). */
type Collector = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => void;

let collector: Collector | null = null;

/**
 * V8's full collection, without `--expose-gc` on the command line: the flag set at run time only
 * reaches contexts made afterwards, so one is made to hand the function over (the main context gets
 * no `gc` global). The same way jest's leak detector does.
 */
export function fullCollection(): Collector {
  if (collector) return collector;
  const given = (globalThis as { gc?: Collector }).gc;
  if (typeof given === 'function') collector = given;
  else {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as Collector;
  }
  return collector;
}

/** What one release did, for its log line and the tests. */
export interface Release {
  /** Whether the replaced build was collected (true when none was replaced: a start). */
  released: boolean;
  /** The collections run, and the longest pause among them (ms). */
  collections: number;
  longestPauseMs: number;
  rssBeforeMB: number;
  rssAfterMB: number;
}

const MB = 1024 * 1024;

/**
 * Runs the collections for one swap of a full build. A later swap cancels an earlier one's remaining
 * attempts (its own cover both). `replaced`: the full build swapped out (null at start: only the
 * build's garbage to return).
 */
export class ReplacedBuildRelease {
  private timer: NodeJS.Timeout | undefined;
  /** Settles the release in progress with what it did so far (a newer swap, or the model closing). */
  private settle: (() => void) | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly delaysMs: readonly number[] = RELEASE_AFTER_MS,
  ) {}

  /** Starts the release of `replaced`; the promise settles with what was done (tests await it). */
  schedule(replaced: object | null): Promise<Release> {
    this.cancel();
    const held = replaced ? new WeakRef(replaced) : null;
    const rssBefore = Math.round(process.memoryUsage.rss() / MB);
    const release: Release = { released: false, collections: 0, longestPauseMs: 0, rssBeforeMB: rssBefore, rssAfterMB: rssBefore };
    return new Promise<Release>((resolve) => {
      this.settle = () => resolve(release);
      const attempt = (at: number) => {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          const started = performance.now();
          fullCollection()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
          const pause = performance.now() - started;
          release.collections++;
          release.longestPauseMs = Math.max(release.longestPauseMs, Math.round(pause * 10) / 10);
          release.rssAfterMB = Math.round(process.memoryUsage.rss() / MB);
          release.released = held === null || held.deref() === undefined;
          if (release.released || at + 1 >= this.delaysMs.length) {
            this.settle = null;
            this.report(release);
            resolve(release);
          } else attempt(at + 1);
        }, this.delaysMs[at]! - (at > 0 ? this.delaysMs[at - 1]! : 0));
        this.timer.unref();
      };
      attempt(0);
    });
  }

  private report({ released, ...fields }: Release): void {
    if (released) this.logger.info(fields, 'read model memory released');
    // A request running for a minute (an export, a client reading slowly) still holds it: V8 collects it later, on its own.
    else this.logger.info(fields, 'read model memory: the replaced build is still held by a request');
  }

  /** Stops the attempts left (a newer swap, or the model closing). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const settle = this.settle;
    this.settle = null;
    settle?.();
  }
}
