import type { Kysely } from 'kysely';
import { isDatabaseUnavailable } from '../db/connection-errors.js';
import type { Database } from '../db/database.js';
import type { DatabaseHealth } from '../db/database-health.js';
import { addUsageCounts, type UsageCount } from '../db/repositories/usage-counts.js';
import { addCallerCosts, CALLER_COST_DAYS, deleteCallerCostsBefore, type CallerCost } from '../db/repositories/caller-costs.js';
import { osloWallClock } from '../domain/oslo-time.js';
import type { Logger } from '../logger.js';
import { countUsageFlushFailure } from '../telemetry/metrics.js';
import type { RequestCaller } from './request-caller.js';

export interface UsageRecorderOptions {
  db: Kysely<Database>;
  logger: Logger;
  /** Where a write that fails for an outage is reported (once per episode, not every flush). */
  databaseHealth?: DatabaseHealth | undefined;
  /** How often the in-memory counts are written. @default 5000 */
  flushIntervalMs?: number;
  /** Source of "now" for the day a request is counted on (Oslo calendar day). @default () => new Date() */
  clock?: () => Date;
  /**
   * Distinct (client id, page origin) pairs counted apart per key and day by this process; later
   * pairs are counted together as `(other)`. Both headers are free text any caller can vary, so
   * without a bound one script adds a stored row per request. @default 1000
   */
  maxPairsPerKeyAndDay?: number;
  /**
   * Callers (keys and addresses) whose costs this process counts apart per day; later ones are
   * counted together as `(other)`, so a crowd of addresses cannot grow the table without bound.
   * @default 10000
   */
  maxCallersPerDay?: number;
}

/** Who a cost is counted for. */
export type CostCaller = Pick<RequestCaller, 'shareKey' | 'shareClass' | 'keyHash'>;

/** Where requests beyond the pair bound are counted. */
export const OTHER_USAGE = '(other)';

/**
 * Request counts kept in memory and written in batches off the hot path: every few seconds and on
 * close, as one upsert that adds to the stored counts. A failed write keeps the counts for the next.
 */
export class UsageRecorder {
  private pending = new Map<string, UsageCount>();
  private pendingCosts = new Map<string, CallerCost>();
  /** Callers counted apart today. */
  private callersToday = new Set<string>();
  /** The day whose old caller costs were last deleted ('' : not yet by this process). */
  private prunedOn = '';
  /** Pairs counted apart today, per key hash; forgotten when the day changes. */
  private pairsToday = new Map<string, Set<string>>();
  private today = '';
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly clock: () => Date;

  constructor(private readonly options: UsageRecorderOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  /** Counts one request of this caller (a cache hit or an execution; never a refresh the service runs itself). */
  record(caller: Pick<RequestCaller, 'keyHash' | 'clientId' | 'pageOrigin'>): void {
    if (this.closed) return;
    const day = this.dayOfCount();
    const counted = this.withinPairBound(caller);
    // None of the parts holds a newline (a day, a hex hash, a printable client id, a URL origin).
    const id = `${day}\n${counted.keyHash}\n${counted.clientId}\n${counted.pageOrigin}`;
    const count = this.pending.get(id);
    if (count) count.requests += 1;
    else this.pending.set(id, { day, keyHash: counted.keyHash, clientId: counted.clientId, pageOrigin: counted.pageOrigin, requests: 1 });
    this.startTimer();
  }

  /**
   * Counts what a request of this caller cost: an execution's points (domain/operation-cost.ts), or a
   * refusal (429: its budget or its share). The service's own refreshes are nobody's cost.
   */
  recordCost(caller: CostCaller, outcome: { points: number } | 'refused'): void {
    if (this.closed || caller.shareClass === 'service') return;
    const day = this.dayOfCount();
    let counted = caller.shareKey;
    if (!this.callersToday.has(counted)) {
      if (this.callersToday.size < (this.options.maxCallersPerDay ?? 10_000)) this.callersToday.add(counted);
      else counted = OTHER_USAGE;
    }
    const id = `${day}\n${counted}`;
    let cost = this.pendingCosts.get(id);
    if (!cost) {
      const keyHash = counted === OTHER_USAGE ? '' : caller.keyHash;
      this.pendingCosts.set(id, (cost = { day, caller: counted, keyHash, points: 0, executions: 0, refused: 0 }));
    }
    if (outcome === 'refused') cost.refused += 1;
    else {
      cost.points += outcome.points;
      cost.executions += 1;
    }
    this.startTimer();
  }

  /** The Oslo day now; bounds counted apart start again each day. */
  private dayOfCount(): string {
    const day = this.dayNow();
    if (day !== this.today) {
      this.today = day;
      this.pairsToday.clear();
      this.callersToday.clear();
    }
    return day;
  }

  private startTimer(): void {
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), this.options.flushIntervalMs ?? 5000);
      // Counting must not keep the process alive.
      this.timer.unref();
    }
  }

  /** The Oslo calendar day now; worked out at most once a second (it is on every request's path). */
  private dayNow(): string {
    const now = this.clock().getTime();
    if (now < this.dayCheckedAt || now - this.dayCheckedAt >= 1000) {
      this.dayCheckedAt = now;
      this.checkedDay = osloWallClock(new Date(now)).date;
    }
    return this.checkedDay;
  }
  private dayCheckedAt = Number.NEGATIVE_INFINITY;
  private checkedDay = '';

  private withinPairBound(caller: Pick<RequestCaller, 'keyHash' | 'clientId' | 'pageOrigin'>) {
    const pair = `${caller.clientId}\n${caller.pageOrigin}`;
    let pairs = this.pairsToday.get(caller.keyHash);
    if (!pairs) this.pairsToday.set(caller.keyHash, (pairs = new Set()));
    if (pairs.has(pair)) return caller;
    if (pairs.size < (this.options.maxPairsPerKeyAndDay ?? 1000)) {
      pairs.add(pair);
      return caller;
    }
    return { keyHash: caller.keyHash, clientId: OTHER_USAGE, pageOrigin: OTHER_USAGE };
  }

  /** Writes what has been counted so far; resolves when it is stored (or kept after a failure). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    await this.writeCounts();
    await this.writeCosts();
  }

  private async writeCosts(): Promise<void> {
    const batch = this.pendingCosts;
    const prune = this.today !== '' && this.prunedOn !== this.today;
    if (batch.size === 0 && !prune) return;
    this.pendingCosts = new Map();
    try {
      if (batch.size > 0) await addCallerCosts(this.options.db, [...batch.values()]);
      if (prune) {
        await deleteCallerCostsBefore(this.options.db, shiftedDay(this.today, -CALLER_COST_DAYS));
        this.prunedOn = this.today;
      }
    } catch (error) {
      countUsageFlushFailure();
      if (isDatabaseUnavailable(error) && this.options.databaseHealth) this.options.databaseHealth.reportFailure(error);
      else this.options.logger.warn({ err: error, rows: batch.size }, 'writing caller costs failed; keeping them for the next flush');
      for (const [id, cost] of batch) {
        const newer = this.pendingCosts.get(id);
        if (!newer) this.pendingCosts.set(id, cost);
        else {
          newer.points += cost.points;
          newer.executions += cost.executions;
          newer.refused += cost.refused;
        }
      }
    }
  }

  private async writeCounts(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await addUsageCounts(this.options.db, [...batch.values()]);
    } catch (error) {
      countUsageFlushFailure();
      if (isDatabaseUnavailable(error) && this.options.databaseHealth) this.options.databaseHealth.reportFailure(error);
      else this.options.logger.warn({ err: error, rows: batch.size }, 'writing usage counts failed; keeping them for the next flush');
      for (const [id, count] of batch) {
        const newer = this.pending.get(id);
        if (newer) newer.requests += count.requests;
        else this.pending.set(id, count);
      }
    }
  }
}

/** The calendar day `days` after `day` (YYYY-MM-DD; negative: before). */
function shiftedDay(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
