import type { Kysely } from 'kysely';
import { connectionLossReason, describeDatabaseError, isDatabaseUnavailable } from '../db/connection-errors.js';
import type { Database } from '../db/database.js';
import type { DatabaseHealth } from '../db/database-health.js';
import { addDeprecatedUses, type DeprecatedUseCount } from '../db/repositories/deprecated-uses.js';
import { addUsageCounts, type UsageCount } from '../db/repositories/usage-counts.js';
import { CALLER_COST_DAYS } from '../db/caller-cost-retention.js';
import { addCallerCosts, deleteCallerCostsBefore, type CallerCost } from '../db/repositories/caller-costs.js';
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

/** Where requests beyond the pair bound are counted. */
export const OTHER_USAGE = '(other)';

/** Who a cost is counted for. */
export type CostCaller = Pick<RequestCaller, 'shareKey' | 'shareClass' | 'keyHash'>;

/** Counts of one table, by an id made of their parts, waiting for the next write. */
class PendingCounts<T> {
  private counts = new Map<string, T>();

  constructor(
    private readonly write: (db: Kysely<Database>, counts: readonly T[]) => Promise<void>,
    /** Adds the counts of `from` to `into` (the same id). */
    private readonly merge: (into: T, from: T) => void,
    /** The log line's words for a failed write. */
    readonly what: string,
  ) {}

  /** Adds `count` to what is pending under `id`. */
  add(id: string, count: T): void {
    const pending = this.counts.get(id);
    if (pending) this.merge(pending, count);
    else this.counts.set(id, count);
  }

  /** Writes what is pending; on failure puts it back (added to what was counted meanwhile) and says why. */
  async flush(db: Kysely<Database>): Promise<{ error: unknown; rows: number } | undefined> {
    if (this.counts.size === 0) return undefined;
    const batch = this.counts;
    this.counts = new Map();
    try {
      await this.write(db, [...batch.values()]);
      return undefined;
    } catch (error) {
      for (const [id, count] of batch) this.add(id, count);
      return { error, rows: batch.size };
    }
  }
}

const addRequests = (into: { requests: number }, from: { requests: number }) => {
  into.requests += from.requests;
};

/**
 * Request counts kept in memory and written in batches off the hot path: every few seconds and on
 * close, as one upsert per table that adds to the stored counts. A failed write keeps the counts for
 * the next. Beside each caller's requests (`usage_counts`), the requests that used a deprecated
 * part of the schema, per coordinate and caller (`deprecated_uses`).
 */
export class UsageRecorder {
  private readonly requests = new PendingCounts<UsageCount>(addUsageCounts, addRequests, 'writing usage counts failed; keeping them for the next flush');
  private readonly deprecated = new PendingCounts<DeprecatedUseCount>(
    addDeprecatedUses,
    addRequests,
    'writing deprecated-use counts failed; keeping them for the next flush',
  );
  private readonly costs = new PendingCounts<CallerCost>(
    addCallerCosts,
    (into, from) => {
      into.points += from.points;
      into.executions += from.executions;
      into.refused += from.refused;
    },
    'writing caller costs failed; keeping them for the next flush',
  );
  /** Callers whose costs are counted apart today. */
  private callersToday = new Set<string>();
  /** The day whose caller costs past CALLER_COST_DAYS were last deleted ('': not yet by this process). */
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

  /**
   * Counts one request of this caller (a cache hit or an execution; never a refresh the service runs
   * itself), and, when it used deprecated coordinates, one use of each.
   */
  record(caller: Pick<RequestCaller, 'keyHash' | 'clientId' | 'pageOrigin'>, deprecatedUses?: readonly string[]): void {
    if (this.closed) return;
    const day = this.dayOfCount();
    const counted = this.withinPairBound(caller);
    // None of the parts holds a newline (a day, a hex hash, a printable client id, a URL origin, a schema coordinate).
    const id = `${day}\n${counted.keyHash}\n${counted.clientId}\n${counted.pageOrigin}`;
    this.requests.add(id, { day, keyHash: counted.keyHash, clientId: counted.clientId, pageOrigin: counted.pageOrigin, requests: 1 });
    if (deprecatedUses !== undefined) {
      for (const coordinate of deprecatedUses) {
        this.deprecated.add(`${id}\n${coordinate}`, { day, coordinate, keyHash: counted.keyHash, clientId: counted.clientId, pageOrigin: counted.pageOrigin, requests: 1 });
      }
    }
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
    const keyHash = counted === OTHER_USAGE ? '' : caller.keyHash;
    const refused = outcome === 'refused';
    this.costs.add(`${day}\n${counted}`, { day, caller: counted, keyHash, points: refused ? 0 : outcome.points, executions: refused ? 0 : 1, refused: refused ? 1 : 0 });
    this.startTimer();
  }

  /** The Oslo day now; the bounds of what is counted apart start again each day. */
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
    // Each table on its own: a failed write of one keeps its counts without counting the other's twice.
    for (const pending of [this.requests, this.deprecated, this.costs]) {
      const failed = await pending.flush(this.options.db);
      if (failed) this.writeFailed(failed.error, failed.rows, pending.what);
    }
    // Once a day: the costs past CALLER_COST_DAYS go (they hold client addresses).
    if (this.today !== '' && this.prunedOn !== this.today) {
      try {
        await deleteCallerCostsBefore(this.options.db, shiftedDay(this.today, -CALLER_COST_DAYS));
        this.prunedOn = this.today;
      } catch (error) {
        this.writeFailed(error, 0, 'deleting old caller costs failed; trying again at the next flush');
      }
    }
  }

  private writeFailed(error: unknown, rows: number, what: string): void {
    countUsageFlushFailure();
    // A lost connection (a terminated backend): the counts are kept, and the next flush takes a fresh one.
    if (connectionLossReason(error) !== undefined) this.options.logger.debug({ reason: describeDatabaseError(error), rows }, what);
    else if (isDatabaseUnavailable(error) && this.options.databaseHealth) this.options.databaseHealth.reportFailure(error);
    else this.options.logger.warn({ err: error, rows }, what);
  }
}

/** The calendar day `days` after `day` (YYYY-MM-DD; negative: before). */
function shiftedDay(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
