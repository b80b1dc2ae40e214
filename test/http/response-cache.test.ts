import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/open-database.js';
import { listDeprecatedUses } from '../../src/db/repositories/deprecated-uses.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { runCalendar } from '../cli/calendar-process.js';
import { scrape } from '../support/prometheus-metrics.js';
import { databaseLabel } from '../support/test-database.js';
import { getGraphQL, isReachable, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { startThrowawayRedis, throwawayRedisUnavailable, type ThrowawayRedis } from '../support/throwaway-redis.js';
import { httpCalendar, NOW, UNKNOWN_KEY } from './fixtures/http-calendar.js';
import { deleteCacheNamespace } from '../support/cache-namespace.js';

/** The transport calendar with E-3 renamed: what a later import brings. */
function withTitle(title: string) {
  return { ...httpCalendar, events: httpCalendar.events.map((e) => (e.id === 'E-3' ? { ...e, title_nb: title } : e)) };
}

const maxAge = (res: { headers: Headers }) => Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]);

const slugQuery = (slug: string) => `{ eventsBySlugs(eventsSlugs: ["${slug}"]) { id title_nb } }`;

/** Statements one execution of `slugQuery` sends (it looks the slug up in the database: statements count executions). */
async function statementsPerExecution(server: TestServer): Promise<number> {
  const warm = server.queryCount();
  await postGraphQL(server.url, { query: slugQuery('e-1') });
  return server.queryCount() - warm;
}

/** `count` identical requests of `slugQuery('e-2')` at once, half GET and half POST, started while `during` runs. */
async function concurrentRequests(server: TestServer, count: number, during: () => Promise<void> = async () => {}) {
  const query = slugQuery('e-2');
  const pending = Promise.all(Array.from({ length: count }, (_, i) => (i % 2 ? postGraphQL(server.url, { query }) : getGraphQL(server.url, { query }))));
  await during();
  const answers = await pending;
  expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
  expect(answers[0]!.body).toEqual({ data: { eventsBySlugs: [{ id: 'E-2', title_nb: 'Arrangement E-2' }] } });
}

describe(`response cache keyed by the data version (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    // Events fresh for 1 s, so that staleness can be seen without waiting half a minute; no poll of the
    // data version (imports here are in-process and announced), so statements count executions alone.
    server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, responseTtlMs: { eventBySlug: 1000 }, dataVersionPollMs: 600_000 });
  });
  afterAll(async () => server?.close());

  it('serves an import at once: the cached GET changes with the data version, not with a TTL', async () => {
    const query = '{ eventByID(eventID: "E-3") { title_nb } }';
    const before = await getGraphQL(server.url, { query });
    expect(before.body).toEqual({ data: { eventByID: { title_nb: 'Arrangement E-3' } } });
    const cached = await getGraphQL(server.url, { query });
    expect(cached.headers.get('etag')).toBe(before.headers.get('etag'));

    await importCalendar(server.database, withTitle('Ny tittel'));
    const after = await getGraphQL(server.url, { query });
    expect(after.body).toEqual({ data: { eventByID: { title_nb: 'Ny tittel' } } });
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    // The catalogue lists follow the same version: a renamed venue shows at once, not after an hour.
    await importCalendar(server.database, { ...withTitle('Ny tittel'), venues: [{ ...httpCalendar.venues[0]!, name: 'Ny scene' }] });
    const venues = await getGraphQL(server.url, { query: '{ venues { name } }' });
    expect(venues.body).toEqual({ data: { venues: [{ name: 'Ny scene' }] } });
  });

  it('runs one execution for 100 concurrent identical requests on a cold key', async () => {
    const perExecution = await statementsPerExecution(server);
    expect(perExecution).toBeGreaterThan(0);
    const before = server.queryCount();
    await concurrentRequests(server, 100);
    expect(server.queryCount() - before).toBe(perExecution);
  });

  it('sends Age, and answers If-None-Match with 304 carrying the same freshness', async () => {
    const query = '{ categories { id name_nb } }';
    const first = await getGraphQL(server.url, { query });
    expect(first.headers.get('age')).toBe('0');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const target = new URL(server.url);
    target.searchParams.set('query', query);
    const revalidated = await fetch(target, { headers: { 'service-require-preflight': 'true', 'if-none-match': first.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
    expect(Number(revalidated.headers.get('age'))).toBeGreaterThanOrEqual(1);
    expect(maxAge(revalidated)).toBe(3600 - Number(revalidated.headers.get('age')));
    expect(revalidated.headers.get('etag')).toBe(first.headers.get('etag'));
    // The other media type is another representation: another entity tag.
    const other = await fetch(target, { headers: { 'service-require-preflight': 'true', accept: 'application/graphql-response+json' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect(other.headers.get('etag')).not.toBe(first.headers.get('etag'));
  });

  it('serves a stale answer at once while one request refreshes it, then the fresh one', async () => {
    const query = '{ eventBySlug(eventSlug: "e-1") { id } }';
    const first = await getGraphQL(server.url, { query });
    expect(maxAge(first)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = server.queryCount();
    const stale = await getGraphQL(server.url, { query });
    expect(stale.body).toEqual(first.body);
    expect(maxAge(stale)).toBe(0);
    expect(Number(stale.headers.get('age'))).toBeGreaterThanOrEqual(1);
    // The refresh runs in the background: the next request gets the new answer.
    let fresh = stale;
    for (let i = 0; i < 50 && fresh.headers.get('age') !== '0'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      fresh = await getGraphQL(server.url, { query });
    }
    expect(fresh.headers.get('age')).toBe('0');
    expect(maxAge(fresh)).toBe(1);
    expect(server.queryCount()).toBeGreaterThan(before);
  });

  it('keeps POST answers for every caller, but tells HTTP caches not to store them', async () => {
    const query = '{ eventByID(eventID: "E-1") { title_en } }';
    const first = await postGraphQL(server.url, { query });
    const before = server.queryCount();
    const again = await postGraphQL(server.url, { query });
    expect(server.queryCount()).toBe(before);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(again.headers.get('etag')).toBeNull();
  });

  it('adds the notice of an unknown key to a cached answer, for that caller alone', async () => {
    const query = '{ organizers { slug } }';
    const anonymous = await getGraphQL(server.url, { query });
    const noticed = await getGraphQL(server.url, { query }, { 'service-require-preflight': 'true', 'x-api-key': UNKNOWN_KEY });
    expect(noticed.body).toEqual({ data: anonymous.body.data, extensions: { notice: expect.stringMatching(/not known/) } });
    expect(noticed.headers.get('cache-control')).toBe('private, no-store');
    expect((await getGraphQL(server.url, { query })).body).toEqual(anonymous.body);
  });

  it('names the operation of an answer served from the cache, as it names an executed one', async () => {
    const labels = { route: 'graphql', operation: 'CachedVenueNames', status: '200' };
    const before = (await scrape(server.origin)).value('calendar_http_requests_total', labels);
    const query = 'query CachedVenueNames { venues { name } }';
    await getGraphQL(server.url, { query });
    const hit = await getGraphQL(server.url, { query });
    expect(hit.headers.get('age')).not.toBeNull();
    expect((await scrape(server.origin)).value('calendar_http_requests_total', labels)).toBe(before + 2);
  });

  it('never stores an answer with errors', async () => {
    const query = '{ events(pageSize: 0) { totalCount } }';
    const first = await getGraphQL(server.url, { query });
    expect(first.body.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    const second = await getGraphQL(server.url, { query });
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.headers.get('age')).toBeNull();
  });
});

describe(`response cache: answers of a time window (${databaseLabel})`, () => {
  let server: TestServer;
  // 20 s before midnight in Oslo: "today" ends before the 30 s an events answer is otherwise kept.
  const LATE = new Date('2026-05-04T23:59:40+02:00');
  beforeAll(async () => {
    server = await startTestServer({ calendar: httpCalendar, clock: () => LATE });
  });
  afterAll(async () => server?.close());

  it('keeps a `when: TODAY` answer no longer than today lasts in Oslo, and others for their TTL', async () => {
    const today = await getGraphQL(server.url, { query: '{ events(filter: { when: TODAY }) { totalCount } }' });
    expect(today.status).toBe(200);
    expect(maxAge(today)).toBe(20);
    // The month's window still holds at midnight: the usual 30 s.
    const month = await getGraphQL(server.url, { query: '{ events(filter: { when: THIS_MONTH }) { totalCount } }' });
    expect(maxAge(month)).toBe(30);
  });
});

describe.skipIf(throwawayRedisUnavailable())(`response cache over a Redis that answers in a burst (${databaseLabel})`, () => {
  let redis: ThrowawayRedis;
  let server: TestServer;
  beforeAll(async () => {
    redis = await startThrowawayRedis();
    server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, redisUrl: redis.url, dataVersionPollMs: 600_000 });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.kill();
  });

  it('runs one execution for concurrent misses whose Redis lookups are answered together', async () => {
    // The first request of a server reads what later ones find ready: not an execution's cost.
    await postGraphQL(server.url, { query: slugQuery('e-3') });
    const perExecution = await statementsPerExecution(server);
    expect(perExecution).toBeGreaterThan(0);
    // Every request's lookup in Redis waits on the paused server; its replies then arrive in one read,
    // and every request learns of the miss in the same turn of the event loop.
    const before = server.queryCount();
    redis.freeze();
    await concurrentRequests(server, 40, async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      redis.thaw();
    });
    expect(server.queryCount() - before).toBe(perExecution);
  });

});

const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const redisAddress = new URL(redisUrl);
const redisUp = await isReachable(redisAddress.hostname, Number(redisAddress.port || 6379));
const twoNodes = Boolean(process.env['DATABASE_URL']) && redisUp;

describe.skipIf(!twoNodes)(`two nodes on PostgreSQL sharing Redis${twoNodes ? '' : ' (needs DATABASE_URL and Redis: skipped)'}`, () => {
  let first: TestServer;
  let secondHandle: DatabaseHandle;
  let second: TestServer;
  let dir: string;
  beforeAll(async () => {
    first = await startTestServer({ calendar: httpCalendar, clock: () => NOW, redisUrl });
    secondHandle = await openDatabase({ url: process.env['DATABASE_URL'], dataDir: 'memory://', schema: first.database.schema, poolSize: 2 });
    second = await startTestServer({ database: secondHandle, clock: () => NOW, redisUrl, cacheNamespace: first.cacheNamespace });
    dir = await mkdtemp(join(tmpdir(), 'calendar-cache-'));
  });
  afterAll(async () => {
    const redis = new Redis(redisUrl);
    await deleteCacheNamespace(redis, first.cacheNamespace);
    await redis.quit();
    await second?.close();
    await secondHandle?.close();
    await first?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves a `calendar import` on both nodes within a second, for a GET both had cached', async () => {
    const query = '{ eventByID(eventID: "E-3") { title_nb } venues { name } }';
    for (const node of [first, second, first, second]) expect((await getGraphQL(node.url, { query })).body.data?.['eventByID']).toEqual({ title_nb: 'Arrangement E-3' });
    const file = join(dir, 'renamed.json');
    await writeFile(file, JSON.stringify(withTitle('Etter import')));
    const result = await runCalendar(['import', file], { DATABASE_URL: process.env['DATABASE_URL']!, DATABASE_SCHEMA: first.database.schema, LOG_LEVEL: 'warn' });
    expect(result.code, result.stderr).toBe(0);
    const started = Date.now();
    const renamed = async (node: TestServer) => (await getGraphQL(node.url, { query })).body.data?.['eventByID'];
    while (Date.now() - started < 5000) {
      const [a, b] = await Promise.all([renamed(first), renamed(second)]);
      if (JSON.stringify([a, b]) === JSON.stringify([{ title_nb: 'Etter import' }, { title_nb: 'Etter import' }])) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('lets the second node answer from what the first stored in Redis, with its entity tag', async () => {
    const query = '{ eventByID(eventID: "E-1") { id startDate } }';
    const stored = await getGraphQL(first.url, { query });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = second.queryCount();
    const shared = await getGraphQL(second.url, { query });
    expect(second.queryCount()).toBe(before);
    expect(shared.body).toEqual(stored.body);
    expect(shared.headers.get('etag')).toBe(stored.headers.get('etag'));
  });

  it('counts the deprecated coordinates of an answer the second node reads from Redis, as the first counted its execution', async () => {
    const query = '{ events(filter: { sortBy: "startDate", categories: ["THEATER"] }) { totalCount } }';
    const redis = new Redis(redisUrl);
    try {
      const entries = async () => (await redis.keys(`${first.cacheNamespace}:rc2:*`)).length;
      const before = await entries();
      await getGraphQL(first.url, { query });
      // The first node writes its answer to Redis after answering: wait for it (a busy machine takes a while).
      await expect.poll(entries, { timeout: 5000 }).toBeGreaterThan(before);
    } finally {
      await redis.quit();
    }
    const before = second.queryCount();
    expect((await getGraphQL(second.url, { query })).status).toBe(200);
    expect(second.queryCount()).toBe(before);
    await first.service.flushUsage();
    await second.service.flushUsage();
    const uses = await listDeprecatedUses(first.database.db);
    expect(uses.map((u) => [u.coordinate, u.requests])).toEqual([['Filter.sortBy', 2]]);
  });
});
