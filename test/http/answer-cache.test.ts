import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheableRequest, Execution, LookupOutcome } from '../../src/http/answer-cache/response-cache.js';
import { answerAge, isFresh, lifetimeMs, remainingLifetimeMs } from '../../src/http/answer-cache/answer-age.js';
import { decodeAnswer, encodeAnswer } from '../../src/http/answer-cache/redis-answer-codec.js';
import { storedAnswer, storedAnswerOfBytes } from '../../src/http/answer-cache/stored-answer.js';
import { TwoTierResponseCache } from '../../src/http/answer-cache/two-tier-response-cache.js';
import { createLogger } from '../../src/logger.js';
import { connectRedis, type RedisCircuit } from '../../src/redis/redis-circuit.js';
import { startThrowawayRedis, throwawayRedisUnavailable, type ThrowawayRedis } from '../support/throwaway-redis.js';

const logger = createLogger('silent');

/** A route's request: counts its runs (foreground and background apart); each run answers `{"data":{"n":<run>}}`. */
function countedRequest(cacheKey: string | undefined, options: { ttlMs?: number; keep?: boolean; shareable?: boolean; requestText?: string; servesStale?: boolean; runMs?: number } = {}) {
  const runs = { foreground: 0, background: 0, keyAsked: 0 };
  const lookup: CacheableRequest<number> = {
    cacheKey: () => {
      runs.keyAsked += 1;
      return cacheKey;
    },
    requestText: options.requestText,
    servesStale: options.servesStale,
    execute: async (background): Promise<Execution<number>> => {
      const n = background ? ++runs.background : ++runs.foreground;
      if (options.runMs) await new Promise((resolve) => setTimeout(resolve, options.runMs));
      if (options.shareable === false) return { value: n };
      const answer = storedAnswer(JSON.stringify({ data: { n, background } }), options.ttlMs ?? 60_000, 'Op', ['events', 'event-E-1']);
      return { value: n, shareable: { answer, keep: options.keep ?? true } };
    },
  };
  return { lookup, runs };
}

const bodyOf = (answered: LookupOutcome<number>) => (answered.from === 'cache' ? answered.answer : answered.answer)?.body.toString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('response cache: one lookup-or-run operation', () => {
  it('runs a miss once, then answers the same key from this process', async () => {
    const cache = new TwoTierResponseCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }');
    const first = await cache.lookupOrExecute(lookup);
    expect(first).toMatchObject({ from: 'execution', value: 1 });
    const second = await cache.lookupOrExecute(lookup);
    expect(second).toMatchObject({ from: 'cache', lookup: 'hit' });
    expect(bodyOf(second)).toBe(bodyOf(first));
    expect(runs.foreground).toBe(1);
  });

  it('keys by the data version: a new version is a miss', async () => {
    let version = '7';
    const cache = new TwoTierResponseCache({ dataVersion: () => version, logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }');
    await cache.lookupOrExecute(lookup);
    version = '8';
    expect(await cache.lookupOrExecute(lookup)).toMatchObject({ from: 'execution', value: 2 });
    expect(runs.foreground).toBe(2);
  });

  it('runs every time, sharing nothing, when the request has no cache key or the version cannot be read', async () => {
    const cache = new TwoTierResponseCache({ dataVersion: () => '7', logger });
    const unkeyed = countedRequest(undefined);
    await cache.lookupOrExecute(unkeyed.lookup);
    await cache.lookupOrExecute(unkeyed.lookup);
    expect(unkeyed.runs.foreground).toBe(2);

    const unreadable = new TwoTierResponseCache({ dataVersion: () => Promise.reject(new Error('no database')), logger });
    const keyed = countedRequest('graphql\u0000{ a }');
    await unreadable.lookupOrExecute(keyed.lookup);
    expect(await unreadable.lookupOrExecute(keyed.lookup)).toMatchObject({ from: 'execution', value: 2 });
  });

  it('runs one execution for concurrent misses of one key; the others get its answer', async () => {
    const cache = new TwoTierResponseCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }', { runMs: 20 });
    const answered = await Promise.all(Array.from({ length: 30 }, () => cache.lookupOrExecute(lookup)));
    expect(runs.foreground).toBe(1);
    expect(answered.filter((a) => a.from === 'execution')).toHaveLength(1);
    expect(new Set(answered.map(bodyOf)).size).toBe(1);
  });

  it('lets waiters run their own when the one execution gave nothing shareable (errors)', async () => {
    const cache = new TwoTierResponseCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }', { runMs: 20, shareable: false });
    const answered = await Promise.all(Array.from({ length: 3 }, () => cache.lookupOrExecute(lookup)));
    expect(answered.every((a) => a.from === 'execution')).toBe(true);
    expect(runs.foreground).toBe(3);
  });

  it('serves a stale answer at once while one background run refreshes it, then the fresh one', async () => {
    const cache = new TwoTierResponseCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }', { ttlMs: 100, runMs: 30 });
    await cache.lookupOrExecute(lookup);
    await sleep(120);
    const stale = await Promise.all(Array.from({ length: 5 }, () => cache.lookupOrExecute(lookup)));
    expect(stale.every((a) => a.from === 'cache' && a.lookup === 'stale')).toBe(true);
    expect(bodyOf(stale[0]!)).toBe('{"data":{"n":1,"background":false}}');
    await sleep(60);
    expect(runs).toMatchObject({ foreground: 1, background: 1 });
    const fresh = await cache.lookupOrExecute(lookup);
    expect(fresh).toMatchObject({ from: 'cache', lookup: 'hit' });
    expect(bodyOf(fresh)).toBe('{"data":{"n":1,"background":true}}');
  });

  it('does not serve a stale answer where the route says so: it runs again in the foreground', async () => {
    const cache = new TwoTierResponseCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('ics\u0000when=TODAY', { ttlMs: 50, servesStale: false });
    await cache.lookupOrExecute(lookup);
    await sleep(70);
    expect(await cache.lookupOrExecute(lookup)).toMatchObject({ from: 'execution', value: 2 });
    expect(runs.background).toBe(0);
  });

  it('answers a fresh answer by its request text without asking its key; a stale one only by key', async () => {
    const cache = new TwoTierResponseCache({ dataVersion: () => '7', logger });
    const { lookup, runs } = countedRequest('graphql\u0000{ a }', { ttlMs: 100, requestText: '?query=%7B%20a%20%7D' });
    await cache.lookupOrExecute(lookup);
    expect(runs.keyAsked).toBe(1);
    expect(await cache.lookupOrExecute(lookup)).toMatchObject({ from: 'cache', lookup: 'hit' });
    expect(runs.keyAsked).toBe(1);
    await sleep(120);
    expect(await cache.lookupOrExecute(lookup)).toMatchObject({ from: 'cache', lookup: 'stale' });
    expect(runs.keyAsked).toBe(2);
  });

  it('keeps nothing larger than the answer bound, and no answer its run says not to keep, yet shares both with concurrent requests', async () => {
    const cache = new TwoTierResponseCache({ dataVersion: () => '7', logger, maxAnswerBytes: 20 });
    const large = countedRequest('graphql\u0000{ large }', { runMs: 20 });
    const together = await Promise.all([cache.lookupOrExecute(large.lookup), cache.lookupOrExecute(large.lookup)]);
    expect(together.map((a) => a.from).sort()).toEqual(['cache', 'execution']);
    await cache.lookupOrExecute(large.lookup);
    expect(large.runs.foreground).toBe(2);

    const roomy = new TwoTierResponseCache({ dataVersion: () => '7', logger });
    const unkept = countedRequest('graphql\u0000{ area }', { keep: false });
    await roomy.lookupOrExecute(unkept.lookup);
    await roomy.lookupOrExecute(unkept.lookup);
    expect(unkept.runs.foreground).toBe(2);
  });

  it('holds answers within its byte bound, dropping the least recently used', async () => {
    // Each answer counts its body (~35 bytes) plus 200 of bookkeeping: three fit in 720 bytes, not four.
    const cache = new TwoTierResponseCache({ dataVersion: () => '7', logger, localBytes: 720 });
    const requests = ['a', 'b', 'c', 'd'].map((name) => countedRequest(`graphql\u0000{ ${name} }`));
    for (const { lookup } of requests) await cache.lookupOrExecute(lookup);
    expect(await cache.lookupOrExecute(requests[3]!.lookup)).toMatchObject({ from: 'cache' });
    expect(await cache.lookupOrExecute(requests[0]!.lookup)).toMatchObject({ from: 'execution' });
  });

  it("counts an answer's compressed forms in its byte bound as they are made", async () => {
    // Bodies of 2 000 bytes that do not compress (hex of random bytes: half their size at best).
    const noise = (seed: string) =>
      Array.from({ length: 16 }, (_, i) => createHash('sha512').update(`${seed}${i}`).digest('hex'))
        .join('')
        .slice(0, 1980);
    const request = (name: string): CacheableRequest<number> => ({
      cacheKey: () => `graphql\u0000{ ${name} }`,
      execute: () => Promise.resolve({ value: 0, shareable: { answer: storedAnswer(JSON.stringify({ data: noise(name) }), 60_000, 'Op', []), keep: true } }),
    });
    // Two answers of ~2 200 bytes each fit in 5 000 bytes; with one's gzip form (≥ 1 000 bytes) they do not.
    const cache = new TwoTierResponseCache({ dataVersion: () => '7', logger, localBytes: 5000 });
    const first = await cache.lookupOrExecute(request('a'));
    await cache.lookupOrExecute(request('b'));
    expect(await cache.lookupOrExecute(request('a'))).toMatchObject({ from: 'cache' });
    expect(await cache.lookupOrExecute(request('b'))).toMatchObject({ from: 'cache' });
    const form = await first.answer!.encode('gzip');
    expect(form.bytes.length).toBeGreaterThan(1000);
    expect(first.answer!.keptBytes).toBe(first.answer!.body.length + form.bytes.length);
    expect(await cache.lookupOrExecute(request('a'))).toMatchObject({ from: 'cache' });
    expect(await cache.lookupOrExecute(request('b'))).toMatchObject({ from: 'execution' });
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
    return new TwoTierResponseCache({ dataVersion: () => '7', shared: circuit, namespace, logger });
  };

  it('runs one execution for concurrent misses whose Redis replies arrive in one read', async () => {
    const cache = await sharedCache('storm');
    const { lookup, runs } = countedRequest('graphql\u0000{ storm }');
    // Every lookup waits on the paused server; its replies then arrive together, and every request
    // learns of the miss in the same turn of the event loop.
    redis.freeze();
    const pending = Array.from({ length: 40 }, () => cache.lookupOrExecute(lookup));
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
    const ran = await first.lookupOrExecute(lookup);
    // The write to Redis is not awaited by the run: give it a moment.
    await sleep(50);
    const found = await second.lookupOrExecute(lookup);
    expect(found).toMatchObject({ from: 'cache', lookup: 'hit' });
    expect(bodyOf(found)).toBe(bodyOf(ran));
    expect(runs.foreground).toBe(1);
  });
});

describe('the rules of an answer\'s age', () => {
  const answer = storedAnswerOfBytes({ body: Buffer.from('{"data":{}}') }, { ttlMs: 10_000, operation: undefined, cdnTags: [], storedAt: 1_000_000 });

  it('is fresh within its TTL, then kept for half as long again, and no longer', () => {
    expect(isFresh(answer, 1_000_000 + 9_999)).toBe(true);
    expect(isFresh(answer, 1_000_000 + 10_000)).toBe(false);
    expect(lifetimeMs(answer.ttlMs)).toBe(15_000);
    expect(remainingLifetimeMs(answer, 1_000_000 + 14_000)).toBe(1_000);
    expect(remainingLifetimeMs(answer, 1_000_000 + 15_000)).toBe(0);
    // A clock that went back counts as age 0, never as more life.
    expect(answerAge(answer, 999_000)).toEqual({ ageMs: 0, remainingMs: 10_000 });
  });
});

describe('the Redis entry of an answer', () => {
  it('reads back what it wrote, tag and all, and nothing else', () => {
    const answer = storedAnswerOfBytes(
      { body: Buffer.from('{"data":{"a":"b c\\nd"}}') },
      { ttlMs: 60_000, operation: 'Page', cdnTags: ['events', 'event-E-1'], deprecatedUses: ['Filter.sortBy'], storedAt: 1_700_000_000_000 },
    );
    const decoded = decodeAnswer(encodeAnswer(answer))!;
    expect({ ...decoded, body: decoded.body.toString(), tag: decoded.tag }).toEqual({ ...answer, body: answer.body.toString(), tag: answer.tag });
    const bare = decodeAnswer(encodeAnswer(storedAnswer('{"data":1}', 5, undefined, [])))!;
    expect([bare.operation, bare.cdnTags, bare.deprecatedUses]).toEqual([undefined, [], undefined]);
    expect(decodeAnswer(Buffer.from('no bookkeeping line'))).toBeUndefined();
    expect(decodeAnswer(Buffer.from('x 5 tag - - -\n{}'))).toBeUndefined();
  });

  it('makes the smallest brotli form of an answer asked for again, but only the fastest forms of a large one', async () => {
    const events = (count: number) => JSON.stringify({ data: { events: Array.from({ length: count }, (_, i) => ({ id: `E-${i}`, title: `Konsert ${i * 7919}`, start: new Date(1.8e12 + i * 3.6e6).toISOString() })) } });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
    const page = storedAnswer(events(200), 60_000, 'Page', []);
    expect((await page.encode('br')).tagSuffix).toBe('-br');
    for (let sent = 0; sent < 5; sent++) page.formFor('br');
    await settle();
    const best = page.formFor('br')!;
    expect(best.tagSuffix).toBe('-br11');
    expect(best.bytes.equals(brotliCompressSync(page.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: page.body.length } }))).toBe(true);

    const area = storedAnswer(events(5000), 60_000, 'Area', []);
    expect(area.body.length).toBeGreaterThan(256 * 1024);
    const fast = await area.encode('br');
    for (let sent = 0; sent < 5; sent++) area.formFor('br');
    await settle();
    expect(area.formFor('br')).toBe(fast);
    // brotli 1 (by a stream fed in pieces: large-form-encoder.ts), larger than brotli 5 would make it.
    expect(brotliDecompressSync(fast.bytes).equals(area.body)).toBe(true);
    expect(fast.bytes.length).toBeGreaterThan(brotliCompressSync(area.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }).length);
    expect((await area.encode('gzip')).bytes.equals(gzipSync(area.body, { level: 1 }))).toBe(true);
  });

  it('holds the brotli form of an answer that has one, and gives back both the body and the form', async () => {
    const body = Buffer.from(JSON.stringify({ data: { events: Array.from({ length: 40 }, (_, i) => ({ id: `E-${i}`, title: 'Konsert i parken' })) } }));
    const answer = storedAnswerOfBytes({ body }, { ttlMs: 60_000, operation: 'Page', cdnTags: ['events'], storedAt: 1_700_000_000_000 });
    const form = await answer.encode('br');
    const entry = encodeAnswer(answer, form);
    expect(entry.length).toBeLessThan(body.length / 2);
    const decoded = decodeAnswer(entry)!;
    expect(decoded.body.equals(body)).toBe(true);
    expect(decoded.tag).toBe(answer.tag);
    expect(decoded.formFor('br')).toEqual(form);
    expect(decoded.formFor('gzip')).toBeUndefined();
    // A form field naming anything else, or bytes that are not brotli, are no entry.
    expect(decodeAnswer(Buffer.from(`1 5 tag - - - br\n{"data":1}`))).toBeUndefined();
  });
});
