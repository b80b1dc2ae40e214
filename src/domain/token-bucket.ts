/**
 * A token bucket (docs/transport.md, "Budgets"): `capacity` points, refilled at `perSecond`, starting
 * full. An operation takes its cost when there is enough; else it takes nothing (nothing ran) and is
 * told when there will be. The same rule runs in Redis for budgets shared across nodes
 * (identity/shared-budget-script.ts): keep the two alike.
 */
export interface BucketRule {
  capacity: number;
  perSecond: number;
}

/** Points in the bucket at a moment (ms since 1970). */
export interface BucketState {
  tokens: number;
  atMs: number;
}

export interface BucketTake {
  allowed: boolean;
  /** The bucket after this take (unchanged but refilled when refused). */
  state: BucketState;
  /** What this take asked for (at most the capacity: a larger cost takes a whole full bucket). */
  cost: number;
  /** Whole points left. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Refused: seconds until there are enough points (at least 1). */
  retryAfterSeconds: number;
}

/** The bucket as it stands at `nowMs` (full when never seen). */
export function refilled(state: BucketState | undefined, rule: BucketRule, nowMs: number): BucketState {
  if (!state) return { tokens: rule.capacity, atMs: nowMs };
  const elapsedSeconds = Math.max(0, nowMs - state.atMs) / 1000;
  return { tokens: Math.min(rule.capacity, state.tokens + elapsedSeconds * rule.perSecond), atMs: Math.max(nowMs, state.atMs) };
}

/** Takes `cost` points if there are enough. */
export function takeTokens(state: BucketState | undefined, rule: BucketRule, cost: number, nowMs: number): BucketTake {
  const now = refilled(state, rule, nowMs);
  const asked = Math.min(cost, rule.capacity);
  const allowed = now.tokens >= asked;
  const after = allowed ? { tokens: now.tokens - asked, atMs: now.atMs } : now;
  return describeBucket(after, rule, allowed, asked);
}

/** How a bucket stands, as told to its caller (headers, `extensions.cost`). */
export function describeBucket(state: BucketState, rule: BucketRule, allowed: boolean, cost: number): BucketTake {
  const missing = Math.max(0, cost - state.tokens);
  return {
    allowed,
    state,
    cost,
    remaining: Math.floor(state.tokens),
    resetSeconds: Math.ceil((rule.capacity - state.tokens) / rule.perSecond),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(missing / rule.perSecond)),
  };
}
