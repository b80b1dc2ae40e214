import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import {
  claimVersionsToPurge,
  eventsChangedAt,
  markVersionsPurged,
  releaseVersionClaims,
  type ClaimedVersion,
} from '../db/repositories/data-version-purges.js';
import { MOST_EVENT_TAGS_PER_PURGE, tagsToPurge } from '../domain/answer-tags.js';
import type { Logger } from '../logger.js';
import { countCdnPurge, countCdnPurgeAttemptFailure, observeCdnPurgeLag } from '../telemetry/metrics.js';
import { PurgeRefused, type PurgeTarget } from './purge-target.js';

export interface CdnPurgerOptions {
  /** The primary: claims and marks are writes. */
  db: Kysely<Database>;
  targets: readonly PurgeTarget[];
  logger: Logger;
  /** How long a purge is retried at a target that fails before it is given up. @default 10 minutes */
  retryWindowMs?: number | undefined;
  /** First wait after a failed attempt; doubled each time up to MAX_RETRY_DELAY_MS. @default 250 */
  firstRetryDelayMs?: number | undefined;
  /** How often versions left by a node that stopped mid-purge are looked for. @default 30 s */
  sweepIntervalMs?: number;
}

const MAX_RETRY_DELAY_MS = 30_000;

/**
 * Purges the CDN edges after imports (docs/cdn.md#purging-on-import). Told of each data version this
 * node answers from (once its read model serves it, so an edge that refetches at once gets the new
 * answer from this node), it claims the versions up to it that no node has purged
 * (data_version_purges: exactly one node purges each), reads what they changed, and sends the tags
 * to every target at once. A target that fails is retried with backoff (Retry-After when it gives
 * one) for the retry window, each failure logged and counted; then the purge is given up (the edges'
 * TTLs still bound how stale they get). Nothing here is awaited by an import or a request.
 */
export class CdnPurger {
  private readonly retryWindowMs: number;
  private readonly firstRetryDelayMs: number;
  /** Newest version this node serves, and whether a claim for it is still to run. */
  private served: string | null = null;
  private claimWanted = false;
  private claiming: Promise<void> | null = null;
  private readonly deliveries = new Set<Promise<void>>();
  /** Claimed versions not yet marked purged (released on close, for another node to take at once). */
  private readonly held = new Set<string>();
  private readonly stopped = new AbortController();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: CdnPurgerOptions) {
    this.retryWindowMs = options.retryWindowMs ?? 10 * 60_000;
    this.firstRetryDelayMs = options.firstRetryDelayMs ?? 250;
    this.sweeper = setInterval(() => {
      if (this.served !== null) this.versionServed(this.served);
    }, options.sweepIntervalMs ?? 30_000);
    this.sweeper.unref();
  }

  /** A claim outlives the retries of the node that made it by a minute; past that another node takes it. */
  private get leaseSeconds(): number {
    return Math.ceil(this.retryWindowMs / 1000) + 60;
  }

  /** This node answers from `version` now: purge what the versions up to it changed, unless another node did. */
  versionServed(version: string): void {
    if (this.stopped.signal.aborted) return;
    if (this.served === null || BigInt(version) > BigInt(this.served)) this.served = version;
    this.claimWanted = true;
    this.startClaiming();
  }

  private startClaiming(): void {
    if (this.claiming) return;
    this.claiming = this.claimWhileWanted().finally(() => {
      this.claiming = null;
      // A version served between the loop's last look and here would otherwise wait for the sweep.
      if (this.claimWanted && !this.stopped.signal.aborted) this.startClaiming();
    });
  }

  private async claimWhileWanted(): Promise<void> {
    while (this.claimWanted && !this.stopped.signal.aborted) {
      this.claimWanted = false;
      try {
        const claimed = await claimVersionsToPurge(this.options.db, this.served!, this.leaseSeconds);
        if (claimed.length === 0) continue;
        this.options.logger.debug({ versions: claimed.map((c) => c.version), upTo: this.served }, 'CDN purge: claimed');
        for (const { version } of claimed) this.held.add(version);
        const delivery = this.deliver(claimed);
        this.deliveries.add(delivery);
        void delivery.finally(() => this.deliveries.delete(delivery));
      } catch (error) {
        // The database is away: the next version, or the sweep, claims again.
        this.options.logger.warn({ err: error }, 'CDN purge: cannot claim the data versions to purge');
      }
    }
  }

  private async deliver(claimed: readonly ClaimedVersion[]): Promise<void> {
    const versions = claimed.map((c) => c.version);
    const { logger, targets } = this.options;
    try {
      const eventIds = await eventsChangedAt(this.options.db, versions, MOST_EVENT_TAGS_PER_PURGE + 1);
      const tags = tagsToPurge({
        eventIds,
        venues: claimed.some((c) => c.venues),
        organizers: claimed.some((c) => c.organizers),
        categories: claimed.some((c) => c.categories),
      });
      const delivered = tags.length === 0 ? [] : await Promise.all(targets.map((target) => this.deliverTo(target, tags, versions)));
      if (this.stopped.signal.aborted) return;
      const lags = await markVersionsPurged(this.options.db, versions);
      for (const version of versions) this.held.delete(version);
      if (delivered.every(Boolean)) for (const lag of lags) observeCdnPurgeLag(lag);
      logger.debug({ versions, tags: tags.length, delivered: delivered.filter(Boolean).length, targets: targets.length }, 'CDN purge done');
    } catch (error) {
      // Reading or marking failed (the database is away): the claim's lease lets a node try again.
      logger.warn({ err: error, versions }, 'CDN purge: cannot read or mark the data versions');
    }
  }

  /** Sends the tags to one target until it takes them or the retry window ends; whether it took them. */
  private async deliverTo(target: PurgeTarget, tags: readonly string[], versions: readonly string[]): Promise<boolean> {
    const started = Date.now();
    for (let attempt = 1, delayMs = this.firstRetryDelayMs; ; attempt++, delayMs = Math.min(delayMs * 2, MAX_RETRY_DELAY_MS)) {
      if (this.stopped.signal.aborted) return false;
      try {
        await target.purge(tags);
        countCdnPurge(target.kind, 'delivered');
        return true;
      } catch (error) {
        countCdnPurgeAttemptFailure(target.kind);
        const waitMs = Math.max(delayMs, error instanceof PurgeRefused ? (error.retryAfterMs ?? 0) : 0);
        const givingUp = Date.now() - started + waitMs > this.retryWindowMs;
        this.options.logger[givingUp ? 'error' : 'warn'](
          { target: target.name, versions, tags: tags.length, attempt, reason: reasonOf(error), ...(givingUp ? {} : { retryInMs: waitMs }) },
          givingUp ? 'CDN purge failed: given up after the retry window (the copies there expire by their TTL)' : 'CDN purge failed: retrying',
        );
        if (givingUp) {
          countCdnPurge(target.kind, 'failed');
          return false;
        }
        await sleep(waitMs, this.stopped.signal);
      }
    }
  }

  /**
   * Stops claiming and retrying; the versions this node claimed and did not purge are released for
   * another node to take at once (not after the lease).
   */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.stopped.abort();
    await this.claiming;
    await Promise.all(this.deliveries);
    if (this.held.size > 0) await releaseVersionClaims(this.options.db, [...this.held]).catch(() => undefined);
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof PurgeRefused) return error.message;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
