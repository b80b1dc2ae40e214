import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MAX_OTHER_OPERATION_NAMES } from '../../src/telemetry/operation-label.js';
import { databaseLabel } from '../support/test-database.js';
import { startThrowawayRedis, throwawayRedisUnavailable, type ThrowawayRedis } from '../support/throwaway-redis.js';
import { getGraphQL, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { scrape } from '../support/prometheus-metrics.js';
import { httpCalendar, NOW, VALID_KEY } from './fixtures/http-calendar.js';

describe(`GET /metrics (${databaseLabel})`, () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('is served on the API port without METRICS_PORT, with no listener of its own', () => {
    expect(server.service.metricsServer).toBeUndefined();
    expect(server.service.metricsAddress).toEqual({ host: '127.0.0.1', port: Number(new URL(server.origin).port) });
  });

  it('answers in the Prometheus text format, never cached, and HEAD like GET without a body', async () => {
    const get = await fetch(`${server.origin}/metrics`);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(get.headers.get('cache-control')).toBe('no-store');
    const text = await get.text();
    expect(text).toMatch(/^# HELP calendar_http_requests_total /m);

    const head = await fetch(`${server.origin}/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await head.text()).toBe('');

    const post = await fetch(`${server.origin}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('counts requests by operation name and status, with their latency, as traffic goes by', async () => {
    const named = { route: 'graphql', operation: 'MetricsCategories', status: '200' };
    const before = await scrape(server.origin);
    const countBefore = before.value('calendar_http_requests_total', named);
    const histogramBefore = before.value('calendar_http_request_duration_seconds', named);

    // Three different selections under one name: each is executed (no response-cache hit).
    for (const fields of ['id', 'name_nb', 'id name_nb']) {
      const answer = await postGraphQL(server.url, { query: `query MetricsCategories { categories { ${fields} } }` });
      expect(answer.status).toBe(200);
    }
    // Anonymous documents, and a request error (no query at all): status 400.
    await postGraphQL(server.url, { query: '{ categories { id } }' });
    const bad = await postGraphQL(server.url, {});
    expect(bad.status).toBe(400);

    const after = await scrape(server.origin);
    expect(after.value('calendar_http_requests_total', named) - countBefore).toBe(3);
    const histogram = after.sample('calendar_http_request_duration_seconds', named);
    expect(Number(histogram?.count) - histogramBefore).toBe(3);
    expect(Number(histogram?.sum)).toBeGreaterThan(0);
    // Cumulative buckets: +Inf holds every request.
    expect(histogram?.buckets?.['+Inf']).toBe(histogram?.count);
    expect(after.value('calendar_http_requests_total', { route: 'graphql', operation: '(anonymous)', status: '400' })).toBeGreaterThanOrEqual(1);
    // The scrape before this one was counted too, under its route and without an operation.
    expect(after.value('calendar_http_requests_total', { route: 'metrics', operation: '', status: '200' })).toBeGreaterThanOrEqual(1);
  });

  it('labels each route by its name in the route table, and any other path `other`', async () => {
    const before = await scrape(server.origin);
    const feed = { route: 'feed', operation: '', status: '200' };
    const unknown = { route: 'other', operation: '', status: '404' };
    const feedBefore = before.value('calendar_http_requests_total', feed);
    const unknownBefore = before.value('calendar_http_requests_total', unknown);
    expect((await fetch(new URL('/events.ics', server.origin))).status).toBe(200);
    expect((await fetch(new URL('/no/such/path', server.origin))).status).toBe(404);
    const after = await scrape(server.origin);
    expect(after.value('calendar_http_requests_total', feed) - feedBefore).toBe(1);
    expect(after.value('calendar_http_requests_total', unknown) - unknownBefore).toBe(1);
  });

  it('reports the data version and the read-model build, the cache lookups and the process', async () => {
    const metrics = await scrape(server.origin);
    const { version } = await sql<{ version: string }>`select version::text as version from calendar_state`.execute(server.database.db).then((r) => r.rows[0]!);
    expect(metrics.value('calendar_data_version')).toBe(Number(version));
    // The database's own, as this process last read it: the same once the snapshot of it is built.
    expect(metrics.value('calendar_database_data_version')).toBe(Number(version));
    expect(metrics.value('calendar_read_model_build_seconds')).toBeGreaterThanOrEqual(1);
    expect(metrics.family('calendar_read_model_build_seconds')?.type).toBe('HISTOGRAM');
    for (const outcome of ['hit', 'miss', 'stale', 'revalidated']) {
      expect(metrics.sample('calendar_response_cache_lookups_total', { outcome })).toBeDefined();
    }
    expect(metrics.value('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(metrics.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(metrics.family('nodejs_eventloop_lag_seconds')).toBeDefined();
    // No Redis configured, no Redis gauge (rather than a 0 that would read as an outage).
    if (!process.env['REDIS_URL']) expect(metrics.family('calendar_redis_available')).toBeUndefined();
  });

  it.runIf(databaseLabel === 'PostgreSQL')('reports the pool: connections open, idle, waiting and its size', async () => {
    await postGraphQL(server.url, { query: '{ events(pageSize: 1) { totalCount } }' });
    const metrics = await scrape(server.origin);
    // The test database's pool (test/support/test-database.ts opens it with 4 connections).
    expect(metrics.value('calendar_db_pool_max_connections', { pool: 'primary' })).toBe(4);
    expect(metrics.value('calendar_db_pool_connections', { pool: 'primary' })).toBeGreaterThanOrEqual(1);
    expect(metrics.sample('calendar_db_pool_idle_connections', { pool: 'primary' })).toBeDefined();
    expect(metrics.value('calendar_db_pool_waiting_requests', { pool: 'primary' })).toBe(0);
  });

  it('never labels a key, and caps the operation names a caller can invent', async () => {
    await getGraphQL(server.url, { query: 'query KeyedCategories { categories { id } }' }, { 'service-require-preflight': 'true', 'x-api-key': VALID_KEY });
    const invented = MAX_OTHER_OPERATION_NAMES + 5;
    for (let i = 0; i < invented; i++) {
      await postGraphQL(server.url, { query: `query Invented${i} { categories { id } }` });
    }
    // A trusted document's name (queries/catalogues.graphql) keeps its label past the cap.
    await postGraphQL(server.url, { query: 'query Venues { venues { id } }' });

    const metrics = await scrape(server.origin);
    expect(metrics.text).not.toContain(VALID_KEY);
    const operations = new Set(metrics.family('calendar_http_requests_total')!.metrics.map((m) => m.labels?.['operation']));
    expect(operations.has('Venues')).toBe(true);
    const inventedLabels = [...operations].filter((name) => name?.startsWith('Invented'));
    // Earlier tests named two operations of their own; the rest of the cap went to the first invented names.
    expect(inventedLabels.length).toBeLessThanOrEqual(MAX_OTHER_OPERATION_NAMES);
    expect(inventedLabels.length).toBeGreaterThan(MAX_OTHER_OPERATION_NAMES - 5);
    expect(metrics.value('calendar_http_requests_total', { route: 'graphql', operation: '(other)', status: '200' })).toBeGreaterThanOrEqual(5);
  });

  it('counts a failed write of the usage counts', async () => {
    const failures = (await scrape(server.origin)).value('calendar_usage_flush_failures_total');
    await postGraphQL(server.url, { query: '{ categories { id } }' });
    // The table the counts go to is away for a moment (a botched migration, a revoked grant).
    await sql`alter table usage_counts rename to usage_counts_away`.execute(server.database.db);
    try {
      await server.service.flushUsage();
    } finally {
      await sql`alter table usage_counts_away rename to usage_counts`.execute(server.database.db);
    }
    expect((await scrape(server.origin)).value('calendar_usage_flush_failures_total')).toBe(failures + 1);
  });
});

const redisUnavailable = throwawayRedisUnavailable();
if (redisUnavailable) console.warn(`Redis availability metric test skipped: ${redisUnavailable}`);

describe.skipIf(redisUnavailable)('GET /metrics: Redis availability', () => {
  let redis: ThrowawayRedis;
  let server: TestServer;

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    // A namespace of its own: nothing to clean up afterwards in a Redis that this test kills.
    server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, redisUrl: redis.url, cacheNamespace: `test:metrics-redis-${process.pid}` });
  });

  afterAll(async () => {
    await server?.close();
    await redis?.kill();
  });

  it('is 1 while Redis answers and 0 once it is gone', async () => {
    expect((await scrape(server.origin)).value('calendar_redis_available')).toBe(1);
    await redis.kill();
    // The connection's loss is noticed at once (the socket closes); a request finds the circuit open.
    await postGraphQL(server.url, { query: '{ categories { id } }' });
    expect((await scrape(server.origin)).value('calendar_redis_available')).toBe(0);
  });
});
