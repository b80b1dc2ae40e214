import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { startThrowawayRedis, throwawayRedisUnavailable, type ThrowawayRedis } from '../support/throwaway-redis.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

const unavailable = throwawayRedisUnavailable();
if (unavailable) console.warn(`Redis fault tests skipped: ${unavailable}`);

const QUERY = 'query($p: Int) { events(page: $p, pageSize: 1) { totalCount data { id } } }';

describe.skipIf(unavailable)('the shared cache when Redis fails', { timeout: 60_000 }, () => {
  let redis: ThrowawayRedis;
  let server: TestServer;
  let probe: Redis;
  let page = 0;

  /** A GET no cache holds yet (a new page number each time); returns its status and duration. */
  const freshGet = async () => {
    page += 1;
    const started = performance.now();
    const res = await getGraphQL(server.url, { query: QUERY, variables: { p: page } });
    return { status: res.status, ms: performance.now() - started };
  };
  const storedKeys = async () => (await probe.keys(`${server.cacheNamespace}:rc2:*`)).length;

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, redisUrl: redis.url });
    probe = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    probe.on('error', () => undefined);
    await probe.connect();
  });

  afterAll(async () => {
    probe?.disconnect();
    await server?.close();
    await redis?.kill();
  });

  it('stores answers in Redis while it is up', async () => {
    const before = await storedKeys();
    expect((await freshGet()).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await storedKeys()).toBe(before + 1);
  });

  it('stops waiting for a frozen Redis: at most one request pays the command timeout per pause', async () => {
    const cached = await getGraphQL(server.url, { query: '{ categories { id } }' });
    expect(cached.status).toBe(200);
    redis.freeze();
    try {
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push(await freshGet());
      expect(answers.every((a) => a.status === 200)).toBe(true);
      // The circuit opens after the first timeout (500 ms) and probes again after 1 s, then 2 s.
      const slow = answers.filter((a) => a.ms > 400);
      expect(slow.length).toBeLessThanOrEqual(3);
      // Answers this process holds are still served.
      expect((await getGraphQL(server.url, { query: '{ categories { id } }' })).body).toEqual(cached.body);
    } finally {
      redis.thaw();
    }
  });

  it('uses Redis again once it answers, without a restart', async () => {
    const before = await storedKeys();
    const deadline = performance.now() + 10_000;
    let after = before;
    while (after === before && performance.now() < deadline) {
      expect((await freshGet()).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await storedKeys();
    }
    expect(after).toBeGreaterThan(before);
  });

  it('answers without delay while Redis is gone altogether', async () => {
    await redis.kill();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await freshGet());
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.ms > 400).length).toBeLessThanOrEqual(1);
  });
});
