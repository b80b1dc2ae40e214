import type { Redis } from 'ioredis';
import { describeBucket, type BucketRule, type BucketTake } from '../domain/token-bucket.js';
import type { RedisCircuit } from '../redis/redis-circuit.js';
import type { SharedBuckets } from './caller-budgets.js';

/**
 * domain/token-bucket.ts's takeTokens, in Redis, atomic: one bucket per caller for the whole fleet.
 * Redis's clock (TIME), so nodes whose clocks differ agree. The bucket expires once it would be
 * full again (a forgotten bucket is a full one). Returns {allowed, tokens as text}.
 */
const TAKE_TOKENS = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local capacity = tonumber(ARGV[1])
local perSecond = tonumber(ARGV[2])
local cost = math.min(tonumber(ARGV[3]), capacity)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end
tokens = math.min(capacity, tokens + math.max(0, now - at) / 1000 * perSecond)
local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / perSecond * 1000) + 1000)
return { allowed, tostring(tokens) }
`;

interface WithTakeTokens {
  calendarTakeTokens(key: string, capacity: number, perSecond: number, cost: number): Promise<[number, string]>;
}

/**
 * Budgets shared by every node on one Redis (REDIS_URL), through its circuit breaker: while Redis
 * cannot answer, `take` says so (undefined) and each node charges its own buckets meanwhile.
 */
export class RedisBuckets implements SharedBuckets {
  constructor(
    private readonly circuit: RedisCircuit,
    /** Prefix of the keys (the cache namespace): services sharing a Redis keep their own budgets. */
    private readonly namespace: string,
  ) {
    // EVALSHA, loading the script again after a Redis restart (ioredis does both).
    circuit.redis.defineCommand('calendarTakeTokens', { numberOfKeys: 1, lua: TAKE_TOKENS });
  }

  async take(shareKey: string, rule: BucketRule, cost: number): Promise<BucketTake | undefined> {
    const key = `${this.namespace}:budget:${shareKey}`;
    const taken = await this.circuit.call(
      (redis: Redis) => (redis as unknown as WithTakeTokens).calendarTakeTokens(key, rule.capacity, rule.perSecond, cost),
      undefined,
    );
    if (!taken) return undefined;
    const [allowed, tokens] = taken;
    return describeBucket({ tokens: Number(tokens), atMs: Date.now() }, rule, allowed === 1, Math.min(cost, rule.capacity));
  }
}
