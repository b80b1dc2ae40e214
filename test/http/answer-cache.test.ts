import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCache, storedAnswer, type AnswerLookup, type Answered, type Ran } from '../../src/http/answer-cache.js';
import { createLogger } from '../../src/logger.js';
import { connectRedis, type RedisCircuit } from '../../src/redis/redis-circuit.js';
import { startThrowawayRedis, throwawayRedisUnavailable, type ThrowawayRedis } from '../support/throwaway-redis.js';

const logger = createLogger('silent');

/** A route's request: counts its runs (foreground and background apart); each run answers `{"data":{"n":<run>}}`. */
function countedRequest(meaning: string | undefined, options: { ttlMs?: number; keep?: boolean; shareable?: boolean; requestText?: string; servesStale?: boolean; runMs?: number } = {}) {
  const runs = { foreground: 0, background: 0, meaningAsked: 0 };
  const lookup: AnswerLookup<number> = {
    meaning: () => {
      runs.meaningAsked += 1;
      return meaning;
    },
    requestText: options.requestText,
    servesStale: options.servesStale,
    run: async (background): Promise<Ran<number>> => {
      const n = background ? ++runs.background : ++runs.foreground;
      if (options.runMs) await new Promise((resolve) => setTimeout(resolve, options.runMs));
      if (options.shareable === false) return { value: n };
      const answer = storedAnswer(JSON.stringify({ data: { n, background } }), options.ttlMs ?? 60_000, 'Op', ['events', 'event-E-1']);
      return { value: n, shareable: { answer, keep: options.keep ?? true } };
    },
  };
  return { lookup, runs };
}

const bodyOf = (answered: Answered<number>) => (answered.from === 'cache' ? answered.answer : answered.answer)?.body.toString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('response cache: one lookup-or-run operation', () => {
  it('runs a miss once, then answers the same meaning from this process', async () => {
    const cache = new AnswerCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }');
    const first = await cache.lookupOrRun(lookup);
    expect(first).toMatchObject({ from: 'run', value: 1 });
    const second = await cache.lookupOrRun(lookup);
    expect(second).toMatchObject({ from: 'cache', stale: false });
    expect(bodyOf(second)).toBe(bodyOf(first));
    expect(runs.foreground).toBe(1);
  });

  it('keys by the data version: a new version is a miss', async () => {
    let version = '7';
    const cache = new AnswerCache({ dataVersion: () => version, logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }');
    await cache.lookupOrRun(lookup);
    version = '8';
    expect(await cache.lookupOrRun(lookup)).toMatchObject({ from: 'run', value: 2 });
    expect(runs.foreground).toBe(2);
  });

  it('runs every time, sharing nothing, when the request has no meaning to key or the version cannot be read', async () => {
    const cache = new AnswerCache({ dataVersion: () => '7', logger });
    const unkeyed = countedRequest(undefined);
    await cache.lookupOrRun(unkeyed.lookup);
    await cache.lookupOrRun(unkeyed.lookup);
    expect(unkeyed.runs.foreground).toBe(2);

    const unreadable = new AnswerCache({ dataVersion: () => Promise.reject(new Error('no database')), logger });
    const keyed = countedRequest('graphql\u0000{ a }');
    await unreadable.lookupOrRun(keyed.lookup);
    expect(await unreadable.lookupOrRun(keyed.lookup)).toMatchObject({ from: 'run', value: 2 });
  });

  it('runs one execution for concurrent misses of one key; the others get its answer', async () => {
    const cache = new AnswerCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }', { runMs: 20 });
    const answered = await Promise.all(Array.from({ length: 30 }, () => cache.lookupOrRun(lookup)));
    expect(runs.foreground).toBe(1);
    expect(answered.filter((a) => a.from === 'run')).toHaveLength(1);
    expect(new Set(answered.map(bodyOf)).size).toBe(1);
  });

  it('lets waiters run their own when the one execution gave nothing shareable (errors)', async () => {
    const cache = new AnswerCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }', { runMs: 20, shareable: false });
    const answered = await Promise.all(Array.from({ length: 3 }, () => cache.lookupOrRun(lookup)));
    expect(answered.every((a) => a.from === 'run')).toBe(true);
    expect(runs.foreground).toBe(3);
  });

  it('serves a stale answer at once while one background run refreshes it, then the fresh one', async () => {
    const cache = new AnswerCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }', { ttlMs: 100, runMs: 30 });
    await cache.lookupOrRun(lookup);
    await sleep(120);
    const stale = await Promise.all(Array.from({ length: 5 }, () => cache.lookupOrRun(lookup)));
    expect(stale.every((a) => a.from === 'cache' && a.stale)).toBe(true);
    expect(bodyOf(stale[0]!)).toBe('{"data":{"n":1,"background":false}}');
    await sleep(60);
    expect(runs).toMatchObject({ foreground: 1, background: 1 });
    const fresh = await cache.lookupOrRun(lookup);
    expect(fresh).toMatchObject({ from: 'cache', stale: false });
    expect(bodyOf(fresh)).toBe('{"data":{"n":1,"background":true}}');
  });

  it('does not serve a stale answer where the route says so: it runs again in the foreground', async () => {
    const cache = new AnswerCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('ics\u0000when=TODAY', { ttlMs: 50, servesStale: false });
    await cache.lookupOrRun(lookup);
    await sleep(70);
    expect(await cache.lookupOrRun(lookup)).toMatchObject({ from: 'run', value: 2 });
    expect(runs.background).toBe(0);
  });

  it('answers a fresh answer by its request text without asking the meaning; a stale one only by meaning', async () => {
    const cache = new AnswerCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }', { ttlMs: 100, requestText: '?query=%7B%20a%20%7D' });
    await cache.lookupOrRun(lookup);
    expect(runs.meaningAsked).toBe(1);
    expect(await cache.lookupOrRun(lookup)).toMatchObject({ from: 'cache', stale: false });
    expect(runs.meaningAsked).toBe(1);
    await sleep(120);
    expect(await cache.lookupOrRun(lookup)).toMatchObject({ from: 'cache', stale: true });
    expect(runs.meaningAsked).toBe(2);
  });

  it('keeps nothing larger than the answer bound, and no answer its run says not to keep, yet shares both with concurrent requests', async () => {
    const cache = new AnswerCache({ dataVersion: () => '7', logger, maxAnswerBytes: 20 });
    const large = countedRequest('graphql\u0000{ large }', { runMs: 20 });
    const together = await Promise.all([cache.lookupOrRun(large.lookup), cache.lookupOrRun(large.lookup)]);
    expect(together.map((a) => a.from).sort()).toEqual(['cache', 'run']);
    await cache.lookupOrRun(large.lookup);
    expect(large.runs.foreground).toBe(2);

    const roomy = new AnswerCache({ dataVersion: () => '7', logger });
    const unkept = countedRequest('graphql\u0000{ area }', { keep: false });
    await roomy.lookupOrRun(unkept.lookup);
    await roomy.lookupOrRun(unkept.lookup);
    expect(unkept.runs.foreground).toBe(2);
  });

  it('holds answers within its byte bound, dropping the least recently used', async () => {
    // Each answer counts its body (~35 bytes) plus 200 of bookkeeping: three fit in 720 bytes, not four.
    const cache = new AnswerCache({ dataVersion: () => '7', logger, localBytes: 720 });
    const requests = ['a', 'b', 'c', 'd'].map((name) => countedRequest(`graphql\u0000{ ${name} }`));
    for (const { lookup } of requests) await cache.lookupOrRun(lookup);
    expect(await cache.lookupOrRun(requests[3]!.lookup)).toMatchObject({ from: 'cache' });
    expect(await cache.lookupOrRun(requests[0]!.lookup)).toMatchObject({ from: 'run' });
  });
});

describe.skipIf(throwawayRedisUnavailable())('response cache over a Redis of its own', () => {
  let redis: ThrowawayRedis;
  const circuits: RedisCircuit[] = [];
  beforeAll(async () => {
    redis = await startThrowawayRedis();
  });
  afterAll(async () => {
    for (const circuit of circuits) circuit.redis.disconnect();
    await redis?.kill();
  });
  const sharedCache = async (namespace: string) => {
    const circuit = await connectRedis(redis.url, logger);
    circuits.push(circuit);
    return new AnswerCache({ dataVersion: () => '7', shared: circuit, namespace, logger });
  };

  it('runs one execution for concurrent misses whose Redis replies arrive in one read', async () => {
    const cache = await sharedCache('storm');
    const { lookup, runs } = countedRequest('graphql\u0000{ storm }');
    // Every lookup waits on the paused server; its replies then arrive together, and every request
    // learns of the miss in the same turn of the event loop.
    redis.freeze();
    const pending = Array.from({ length: 40 }, () => cache.lookupOrRun(lookup));
    await sleep(200);
    redis.thaw();
    const answered = await Promise.all(pending);
    expect(runs.foreground).toBe(1);
    expect(new Set(answered.map(bodyOf)).size).toBe(1);
  });

  it('shares an answer between two processes through Redis', async () => {
    const first = await sharedCache('two-nodes');
    const second = await sharedCache('two-nodes');
    const { lookup, runs } = countedRequest('graphql\u0000{ shared }');
    const ran = await first.lookupOrRun(lookup);
    // The write to Redis is not awaited by the run: give it a moment.
    await sleep(50);
    const found = await second.lookupOrRun(lookup);
    expect(found).toMatchObject({ from: 'cache', stale: false });
    expect(bodyOf(found)).toBe(bodyOf(ran));
    expect(runs.foreground).toBe(1);
  });
});
