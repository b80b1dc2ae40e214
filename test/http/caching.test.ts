import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { databaseLabel } from '../support/test-database.js';
import { getGraphQL, isReachable, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW, UNKNOWN_KEY, VALID_KEY } from './fixtures/http-calendar.js';
import { deleteCacheNamespace } from '../support/cache-namespace.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
});
afterAll(async () => server?.close());

/** `public, max-age=N, s-maxage=N, stale-while-revalidate=M, stale-if-error=E` → its numbers. */
function directives(cacheControl: string | null): Record<string, number | true> {
  const result: Record<string, number | true> = {};
  for (const part of (cacheControl ?? '').split(',')) {
    const [name, value] = part.trim().split('=');
    if (name) result[name] = value === undefined ? true : Number(value);
  }
  return result;
}

describe(`response cache (${databaseLabel})`, () => {
  it('answers a repeated query without touching the database', async () => {
    const query = '{ venues { id name } organizers { slug } }';
    const first = await postGraphQL(server.url, { query });
    expect(first.status).toBe(200);
    const before = server.queryCount();
    const second = await postGraphQL(server.url, { query });
    expect(server.queryCount()).toBe(before);
    expect(second.body).toEqual(first.body);
  });

  it('shares the answer between POST and GET, and between callers with and without a key', async () => {
    const query = '{ events(pageSize: 2) { totalCount data { id } } }';
    const first = await getGraphQL(server.url, { query });
    const before = server.queryCount();
    const post = await postGraphQL(server.url, { query });
    const keyed = await getGraphQL(server.url, { query }, { 'service-require-preflight': 'true', 'x-api-key': VALID_KEY });
    const keyedAgain = await getGraphQL(server.url, { query }, { 'service-require-preflight': 'true', 'x-api-key': VALID_KEY });
    // Only the key lookup of the first keyed request reads the database; the answers come from the cache.
    expect(server.queryCount() - before).toBe(1);
    expect(post.body).toEqual(first.body);
    expect(keyed.body).toEqual(first.body);
    expect(keyedAgain.body).toEqual(first.body);
  });

  it('never stores a notice in the shared answer, nor serves one to another caller', async () => {
    const query = '{ eventByID(eventID: "E-3") { id title_nb } }';
    const noticed = await postGraphQL(server.url, { query }, { 'x-api-key': UNKNOWN_KEY });
    expect(noticed.body.extensions).toHaveProperty('notice');
    const anonymous = await postGraphQL(server.url, { query });
    expect(anonymous.body).toEqual({ data: noticed.body.data });
    const noticedAgain = await postGraphQL(server.url, { query }, { 'x-api-key': UNKNOWN_KEY });
    expect(noticedAgain.body.extensions).toHaveProperty('notice');
  });
});

describe('HTTP caching headers', () => {
  it('gives a cacheable GET Cache-Control from the TTL table: catalogues 1 h', async () => {
    const res = await getGraphQL(server.url, { query: '{ categories { id name_en } }' });
    expect(res.status).toBe(200);
    const cc = directives(res.headers.get('cache-control'));
    expect(cc['public']).toBe(true);
    expect(cc['max-age']).toBeGreaterThan(3500);
    expect(cc['max-age']).toBeLessThanOrEqual(3600);
    expect(cc['s-maxage']).toBe(cc['max-age']);
    expect(cc['stale-while-revalidate']).toBe(1800);
    // Served by a CDN through an origin outage for a day (RFC 5861).
    expect(cc['stale-if-error']).toBe(86_400);
    expect(res.headers.get('vary')).toBe('Accept, X-Api-Key, Service-Require-Preflight, Accept-Encoding');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
  });

  it('keeps events short (30 s) and takes the smallest TTL of the fields selected', async () => {
    for (const query of ['{ events { totalCount } }', '{ categories { id } events { totalCount } }', '{ eventBySlug(eventSlug: "e-1") { id } }']) {
      const res = await getGraphQL(server.url, { query });
      const cc = directives(res.headers.get('cache-control'));
      expect(cc['max-age'], query).toBeGreaterThan(20);
      expect(cc['max-age'], query).toBeLessThanOrEqual(30);
      expect(cc['stale-while-revalidate'], query).toBe(15);
      expect(cc['stale-if-error'], query).toBe(86_400);
    }
  });

  it('counts down max-age on answers served from the cache', async () => {
    const query = '{ venues { slug } }';
    await getGraphQL(server.url, { query });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = await getGraphQL(server.url, { query });
    expect(directives(later.headers.get('cache-control'))['max-age']).toBeLessThan(3600);
  });

  it('answers If-None-Match with 304 and no body', async () => {
    const query = '{ organizers { id name } }';
    const first = await getGraphQL(server.url, { query });
    const etag = first.headers.get('etag')!;
    const target = new URL(server.url);
    target.searchParams.set('query', query);
    const response = await fetch(target, { headers: { 'service-require-preflight': 'true', 'if-none-match': `W/${etag}, "other"` } });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
    expect(response.headers.get('etag')).toBe(etag);
    const again = directives(response.headers.get('cache-control'));
    expect(again['public']).toBe(true);
    expect(Math.abs(Number(again['max-age']) - Number(directives(first.headers.get('cache-control'))['max-age']))).toBeLessThanOrEqual(1);
    const changed = await fetch(target, { headers: { 'service-require-preflight': 'true', 'if-none-match': '"stale"' } });
    expect(changed.status).toBe(200);
  });

  it('sends no-store for errors, POST, introspection and answers carrying a notice', async () => {
    const failed = await getGraphQL(server.url, { query: '{ events(page: -1) { totalCount } }' });
    expect(failed.headers.get('cache-control')).toBe('no-store');
    expect(failed.headers.get('etag')).toBeNull();
    const invalid = await getGraphQL(server.url, { query: '{ nope }' });
    expect(invalid.headers.get('cache-control')).toBe('no-store');
    const post = await postGraphQL(server.url, { query: '{ categories { id } }' });
    expect(post.headers.get('cache-control')).toBe('no-store');
    const introspection = await getGraphQL(server.url, { query: '{ __schema { queryType { name } } }' });
    expect(introspection.status).toBe(200);
    expect(introspection.headers.get('cache-control')).toBe('no-store');
    const noticed = await getGraphQL(server.url, { query: '{ categories { id } }' }, { 'service-require-preflight': 'true', 'x-api-key': UNKNOWN_KEY });
    expect(noticed.body.extensions).toHaveProperty('notice');
    expect(noticed.headers.get('cache-control')).toBe('private, no-store');
    expect(noticed.headers.get('etag')).toBeNull();
  });

  it('gives no public caching to a key sent in the URL that earns a notice', async () => {
    const res = await getGraphQL(server.url, { query: '{ categories { id } }', key: UNKNOWN_KEY });
    expect(res.body.extensions).toHaveProperty('notice');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });
});

const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const redisAddress = new URL(redisUrl);
const redisUp = await isReachable(redisAddress.hostname, Number(redisAddress.port || 6379));

describe.skipIf(!redisUp)(`Redis as the shared store (${redisUrl}${redisUp ? '' : ' does not answer: skipped'})`, () => {
  it('stores answers in Redis under the namespace, shared by a second instance', async () => {
    const first = await startTestServer({ calendar: httpCalendar, clock: () => NOW, redisUrl });
    const second = await startTestServer({ database: first.database, clock: () => NOW, redisUrl, cacheNamespace: first.cacheNamespace });
    const redis = new Redis(redisUrl);
    try {
      const query = '{ categories { id slug_en } }';
      const answer = await getGraphQL(first.url, { query });
      expect(answer.status).toBe(200);
      // The write is not awaited by the response cache: give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const keys = await redis.keys(`${first.cacheNamespace}:rc2:*`);
      expect(keys).toHaveLength(1);
      expect(await redis.pttl(keys[0]!)).toBeGreaterThan(3_500_000);

      const before = second.queryCount();
      const shared = await getGraphQL(second.url, { query });
      expect(second.queryCount()).toBe(before);
      expect(shared.body).toEqual(answer.body);
      expect(shared.headers.get('etag')).toBe(answer.headers.get('etag'));
      // The CDN tags travel with the answer through Redis.
      expect(shared.headers.get('surrogate-key')).toBe('all categories');

      // A document registered by automatic persisted query on one instance runs by hash on the other.
      const text = `query SharedApq { venues { name } } # ${first.cacheNamespace}`;
      const sha256Hash = createHash('sha256').update(text).digest('hex');
      const extensions = { persistedQuery: { version: 1, sha256Hash } };
      expect((await postGraphQL(first.url, { query: text, extensions })).status).toBe(200);
      const byHash = await postGraphQL(second.url, { extensions });
      expect(byHash.body).toEqual({ data: { venues: [{ name: 'Sentrum Scene' }] } });
    } finally {
      await deleteCacheNamespace(redis, first.cacheNamespace);
      await redis.quit();
      await second.close();
      await first.close();
    }
  });
});

if (!redisUp) {
  describe('Redis as the shared store', () => {
    it.skip(`skipped: nothing answers at ${redisUrl} (start Redis or set REDIS_URL to run it)`, () => undefined);
  });
}
