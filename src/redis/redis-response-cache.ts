import type { Cache } from '@envelop/response-cache';
import { createRedisCache, type RedisCacheParameter } from '@envelop/response-cache-redis';
import type { RedisCircuit } from './redis-circuit.js';

/** The response cache's Redis store behind the circuit breaker: an unavailable Redis is a miss at once. */
export function createCircuitRedisCache(circuit: RedisCircuit): Cache {
  // @envelop/response-cache-redis is typed against ioredis 5; ioredis 6 has the same commands.
  const store = createRedisCache({ redis: circuit.redis as unknown as RedisCacheParameter['redis'] });
  return {
    get: (key) => circuit.call(async () => store.get(key), undefined),
    set: (key, value, entities, ttl) => circuit.call(async () => store.set(key, value, entities, ttl), undefined),
    invalidate: (entities) => circuit.call(async () => store.invalidate(entities), undefined),
  };
}
