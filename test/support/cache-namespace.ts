import type { Redis } from 'ioredis';

/** Deletes every Redis key of a test server's cache namespace (what its shared answers and counters left). */
export async function deleteCacheNamespace(redis: Redis, namespace: string): Promise<void> {
  const keys = await redis.keys(`${namespace}:*`);
  if (keys.length > 0) await redis.del(keys);
}
