import { createHash } from 'node:crypto';
import type { GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import { rateLimited } from '../api-error.js';
import type { Logger } from '../logger.js';
import { describeBucket, refilled, takeTokens, type BucketRule, type BucketState, type BucketTake } from '../domain/token-bucket.js';
import { countBudgetPoints, countBudgetRefused } from '../telemetry/metrics.js';
import type { RequestCaller } from './request-caller.js';

/** Whose budget a request draws on. */
export type BudgetShare = Pick<RequestCaller, 'shareKey' | 'shareClass'>;

/** One class's budget, as RateLimit-Policy names it. */
export interface BudgetPolicy {
  /** `key` or `anonymous`: the policy's name in the RateLimit headers. */
  name: 'key' | 'anonymous';
  /** Points per minute (RATE_LIMIT_KEY, RATE_LIMIT_ANONYMOUS): the refill rate, and the burst a full bucket allows. */
  perMinute: number;
  rule: BucketRule;
}

/** Where buckets are shared across nodes (Redis); undefined from `take` when it cannot answer now. */
export interface SharedBuckets {
  take(shareKey: string, rule: BucketRule, cost: number): Promise<BucketTake | undefined>;
}

export interface CallerBudgetsOptions {
  /** Points per minute of each caller with a valid key. @default no budget */
  keyPerMinute?: number | undefined;
  /** Points per minute of each caller without one (by address). @default no budget */
  anonymousPerMinute?: number | undefined;
  /** Callers whose buckets this process keeps (the least recently seen are forgotten: a full bucket). @default 100000 */
  maxCallers?: number | undefined;
  /** One bucket per caller for the whole fleet (Redis); while it cannot answer, each node's own buckets. @default none */
  shared?: SharedBuckets | undefined;
  logger: Logger;
  /** @default Date.now */
  now?: () => number;
}

/** How long a caller over its budget is not logged again. */
const LOG_EVERY_MS = 60_000;

/**
 * Budgets per caller (issue 29; docs/transport.md, "Budgets"): a token bucket per share key, in
 * points per minute, one setting for keyed callers and one for the others; the service's own
 * refreshes never have one. Off unless configured: the spec promises "no rate limit or quota, with
 * or without a key", and that one introduced is announced first. Only executions are charged (their
 * operation's cost, domain/operation-cost.ts); cache hits cost nothing and are never refused.
 */
export class CallerBudgets {
  private readonly policies: Partial<Record<'key' | 'anonymous', BudgetPolicy>>;
  /** This process's buckets, and with Redis its latest view of the shared ones (hits' headers, outages). */
  private readonly buckets: LRUCache<string, BucketState>;
  private readonly logged: LRUCache<string, true>;
  private readonly now: () => number;

  constructor(private readonly options: CallerBudgetsOptions) {
    this.policies = { key: policyOf('key', options.keyPerMinute), anonymous: policyOf('anonymous', options.anonymousPerMinute) };
    this.buckets = new LRUCache({ max: options.maxCallers ?? 100_000 });
    this.logged = new LRUCache({ max: 10_000, ttl: LOG_EVERY_MS });
    this.now = options.now ?? Date.now;
  }

  /** Whether any class has a budget (else nothing of this runs). */
  get enabled(): boolean {
    return this.policies.key !== undefined || this.policies.anonymous !== undefined;
  }

  /** The budget one request of this caller draws on; undefined when none applies. */
  ticketOf(share: BudgetShare): BudgetTicket | undefined {
    if (share.shareClass === 'service') return undefined;
    const policy = this.policies[share.shareClass];
    return policy ? new BudgetTicket(this, share, policy) : undefined;
  }

  /** Takes `cost` points from the caller's bucket: the fleet's when shared and reachable, else this process's. */
  async take(share: BudgetShare, policy: BudgetPolicy, cost: number): Promise<BucketTake> {
    const shared = this.options.shared ? await this.options.shared.take(share.shareKey, policy.rule, cost) : undefined;
    const taken = shared ?? takeTokens(this.buckets.get(share.shareKey), policy.rule, cost, this.now());
    // With Redis, its answer is this process's view until the next one (headers of hits, an outage's start).
    this.buckets.set(share.shareKey, shared ? { tokens: shared.state.tokens, atMs: this.now() } : taken.state);
    if (taken.allowed) countBudgetPoints(share.shareClass, taken.cost);
    else this.refused(share, taken);
    return taken;
  }

  /** How the caller's bucket stands now as far as this process knows, without taking anything (cache hits). */
  standing(share: BudgetShare, policy: BudgetPolicy): BucketTake {
    return describeBucket(refilled(this.buckets.get(share.shareKey), policy.rule, this.now()), policy.rule, true, 0);
  }

  /**
   * A refusal of one point when the caller's bucket, as this process knows it, holds less than one:
   * no operation that executes can then be paid. This process's view never holds fewer points than
   * the fleet's bucket (other nodes only take from it), so this refuses nothing the bucket would allow.
   */
  spent(share: BudgetShare, policy: BudgetPolicy): BucketTake | undefined {
    const now = refilled(this.buckets.get(share.shareKey), policy.rule, this.now());
    if (now.tokens >= 1) return undefined;
    const taken = describeBucket(now, policy.rule, false, 1);
    this.refused(share, taken);
    return taken;
  }

  private refused(share: BudgetShare, taken: BucketTake): void {
    countBudgetRefused(share.shareClass);
    if (this.logged.has(share.shareKey)) return;
    this.logged.set(share.shareKey, true);
    // Never the key or the address: a short hash tells one caller's lines apart.
    const caller = createHash('sha256').update(share.shareKey).digest('hex').slice(0, 12);
    this.options.logger.warn({ callerClass: share.shareClass, caller, cost: taken.cost, retryAfterSeconds: taken.retryAfterSeconds }, 'caller over its budget: answering 429 until it refills');
  }
}

/**
 * One request's draw on its caller's budget: handed to the pipeline in the edge context (the
 * useBudgets plugin charges the operation's cost before it executes), read by the HTTP edge for
 * the RateLimit headers and `extensions.cost` of whatever the answer was.
 */
export class BudgetTicket {
  /** What the execution took (or was refused); undefined when nothing executed (a cache hit). */
  private taken: BucketTake | undefined;
  /** Refused before its turn (refuseIfSpent), not by its operation's cost. */
  private spentBeforeTurn = false;

  constructor(
    private readonly budgets: CallerBudgets,
    readonly share: BudgetShare,
    readonly policy: BudgetPolicy,
  ) {}

  async charge(cost: number): Promise<BucketTake> {
    return (this.taken = await this.budgets.take(this.share, this.policy, cost));
  }

  /**
   * Refused before the request waits for its turn (fair-executions.ts) when the budget cannot pay
   * even one point: an over-budget caller's requests are answered 429 at once instead of queueing.
   */
  refuseIfSpent(): BucketTake | undefined {
    const spent = this.budgets.spent(this.share, this.policy);
    if (spent) {
      this.taken = spent;
      this.spentBeforeTurn = true;
    }
    return spent;
  }

  /** The 429 RATE_LIMITED of a refused take: what it cost, what is left, when to retry. */
  refusal(taken: BucketTake): GraphQLError {
    const why =
      this.spentBeforeTurn
        ? `This caller's budget (${this.policy.perMinute} points per minute) is spent: less than one point is left. `
        : `This operation costs ${taken.cost} points and this caller's budget (${this.policy.perMinute} per minute) has ${taken.remaining} left. `;
    const message =
      why +
      'Cached answers are still served; retry after the time Retry-After gives, or ask for less (docs/transport.md, Budgets).';
    return rateLimited(message, taken.retryAfterSeconds, { cost: this.costExtension() });
  }

  /** Whether the budget refused this request's execution (nothing ran). */
  get refused(): boolean {
    return this.taken?.allowed === false;
  }

  /** How the budget stands after this request: its charge, else (a hit) the bucket as this process knows it. */
  standing(): BucketTake {
    return this.taken ?? this.budgets.standing(this.share, this.policy);
  }

  /** `extensions.cost` of this request's answer (docs/transport.md). */
  costExtension(): { requested: number; remaining: number; resetSeconds: number } {
    const standing = this.standing();
    return { requested: standing.cost, remaining: standing.remaining, resetSeconds: standing.resetSeconds };
  }
}

function policyOf(name: 'key' | 'anonymous', perMinute: number | undefined): BudgetPolicy | undefined {
  return perMinute === undefined ? undefined : { name, perMinute, rule: { capacity: perMinute, perSecond: perMinute / 60 } };
}
