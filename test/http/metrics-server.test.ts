import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { request } from 'node:http';
import { ConfigError, metricsListenAddress, readConfig } from '../../src/config.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { isReachable, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { until } from '../support/until.js';
import { scrape } from '../support/prometheus-metrics.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

const PORT_RULE = 'must be a port number from 1 to 65535, or 0 for any free port';

/** The status, content type and parsed body of a request, for comparing error answers. */
async function answer(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** Whether nothing listens on 127.0.0.1:port any more. */
const closedPort = async (port: number) => !(await isReachable('127.0.0.1', port));

describe('METRICS_PORT and METRICS_HOST: validated at start', () => {
  it('refuses what is not a port, naming METRICS_PORT', () => {
    for (const bad of ['abc', '65536', '-1', '1.5', '0x10', '9464 ']) {
      expect(() => readConfig({ METRICS_PORT: bad })).toThrow(ConfigError);
      expect(() => readConfig({ METRICS_PORT: bad })).toThrow(`Invalid configuration:\n  METRICS_PORT: ${PORT_RULE}`);
    }
  });

  it('refuses the API port itself, unless both are 0 (each gets a free port of its own)', () => {
    expect(() => readConfig({ METRICS_PORT: '4000' })).toThrow(
      "Invalid configuration:\n  METRICS_PORT: must differ from PORT (4000): /metrics moves to a listener of its own",
    );
    expect(() => readConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(/^Invalid configuration:\n {2}METRICS_PORT: must differ from PORT \(8080\)/);
    expect(metricsListenAddress(readConfig({ PORT: '0', METRICS_PORT: '0' }))).toEqual({ host: '0.0.0.0', port: 0 });
  });

  it('listens on HOST unless METRICS_HOST says otherwise, and refuses METRICS_HOST alone', () => {
    expect(metricsListenAddress(readConfig({}))).toBeUndefined();
    expect(metricsListenAddress(readConfig({ HOST: '10.0.0.5', METRICS_PORT: '9464' }))).toEqual({ host: '10.0.0.5', port: 9464 });
    expect(metricsListenAddress(readConfig({ HOST: '10.0.0.5', METRICS_PORT: '9464', METRICS_HOST: '127.0.0.1' }))).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(() => readConfig({ METRICS_HOST: '127.0.0.1' })).toThrow(
      'Invalid configuration:\n  METRICS_HOST: needs METRICS_PORT as well (without it /metrics is served on PORT)',
    );
  });
});

describe(`METRICS_PORT set: /metrics on a listener of its own (${databaseLabel})`, () => {
  let server: TestServer;
  let metricsOrigin: string;

  beforeAll(async () => {
    server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, env: { METRICS_PORT: '0' } });
    const { host, port } = server.service.metricsAddress;
    expect(host).toBe('127.0.0.1');
    expect(port).not.toBe(Number(new URL(server.origin).port));
    metricsOrigin = `http://${host}:${port}`;
  });

  afterAll(async () => {
    await server?.close();
  });

  it("answers /metrics 404 on the API's port, as it answers any path it does not know", async () => {
    const metrics = await answer(`${server.origin}/metrics`);
    const unknown = await answer(`${server.origin}/no-such-path`);
    expect(metrics.status).toBe(404);
    expect(metrics.contentType).toBe(unknown.contentType);
    expect(metrics.body).toEqual({
      errors: [{ message: 'No route for GET /metrics. The API is at /graphQL (GET or POST); the schema at /schema.graphql.', extensions: { code: 'NOT_FOUND' } }],
    });
    expect(unknown.body).toEqual({
      errors: [{ message: 'No route for GET /no-such-path. The API is at /graphQL (GET or POST); the schema at /schema.graphql.', extensions: { code: 'NOT_FOUND' } }],
    });
    expect((await answer(`${server.origin}/metrics`, { method: 'HEAD' })).status).toBe(404);
    // The rest of the API's port is as it was.
    expect((await answer(`${server.origin}/health`)).body).toEqual({ status: 'ok' });
  });

  it('answers GET /metrics on the metrics port in the Prometheus text format, never cached, without CORS, counting the API', async () => {
    const named = { route: 'graphql', operation: 'MetricsPortCategories', status: '200' };
    const before = await scrape(metricsOrigin);
    expect(before.family('calendar_http_requests_total')?.type).toBe('COUNTER');
    expect(before.family('calendar_data_version')).toBeDefined();
    expect(before.family('calendar_read_model_build_seconds')?.type).toBe('HISTOGRAM');
    expect(before.sample('calendar_response_cache_lookups_total', { outcome: 'hit' })).toBeDefined();
    expect(before.value('process_cpu_seconds_total')).toBeGreaterThan(0);

    expect((await postGraphQL(server.url, { query: 'query MetricsPortCategories { categories { id } }' })).status).toBe(200);
    const after = await scrape(metricsOrigin);
    expect(after.value('calendar_http_requests_total', named) - before.value('calendar_http_requests_total', named)).toBe(1);
    // Its own scrapes are not requests of the API: not counted (`before` was one). The registry is the
    // process's: the services of test files run before this one in the same worker counted theirs.
    const scrapes = { route: 'metrics', status: '200' };
    expect(after.value('calendar_http_requests_total', scrapes) - before.value('calendar_http_requests_total', scrapes)).toBe(0);

    const get = await fetch(`${metricsOrigin}/metrics`, { headers: { Origin: 'https://example.org' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(get.headers.get('cache-control')).toBe('no-store');
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
    expect(await get.text()).toMatch(/^# HELP calendar_http_requests_total /m);
  });

  it('answers HEAD like GET without a body, /health, 404 for other paths and 405 for other methods', async () => {
    const head = await fetch(`${metricsOrigin}/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await head.text()).toBe('');

    const health = await answer(`${metricsOrigin}/health`);
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });

    for (const path of ['/graphQL', '/ready', '/', '/metrics/']) {
      const other = await answer(`${metricsOrigin}${path}`);
      expect(other.status).toBe(404);
      expect(other.contentType).toBe('application/json; charset=utf-8');
      expect(other.body).toEqual({ errors: [{ message: `No route for GET ${path}. This port answers GET /metrics and /health only.`, extensions: { code: 'NOT_FOUND' } }] });
    }
    // A target no URL parser reads (a host with a bad port): no route either, not a failure.
    const unreadable = await new Promise<number | undefined>((resolve, reject) => {
      request(new URL(metricsOrigin), { path: '//a:b/metrics' }, (res) => resolve(res.resume().statusCode))
        .on('error', reject)
        .end();
    });
    expect(unreadable).toBe(404);

    for (const method of ['POST', 'OPTIONS', 'DELETE']) {
      const refusedMethod = await answer(`${metricsOrigin}/metrics`, { method });
      expect(refusedMethod.status).toBe(405);
      expect(refusedMethod.headers.get('allow')).toBe('GET, HEAD');
      expect(refusedMethod.body).toEqual({ errors: [{ message: 'Use GET, HEAD.', extensions: { code: 'METHOD_NOT_ALLOWED' } }] });
    }
  });
});

describe(`METRICS_PORT set: shutdown (${databaseLabel})`, () => {
  it("keeps answering scrapes while the API's port drains, and closes after it", async () => {
    const database = await createTestDatabase();
    try {
      const server = await startTestServer({ database, env: { METRICS_PORT: '0' } });
      const apiPort = Number(new URL(server.origin).port);
      const { port: metricsPort } = server.service.metricsAddress;
      const metricsOrigin = `http://127.0.0.1:${metricsPort}`;

      // A request in flight on the API's port: its body never comes, so the drain waits for it (5 s at most).
      const slow = connect({ host: '127.0.0.1', port: apiPort });
      await new Promise<void>((resolve) => slow.once('connect', resolve));
      slow.on('error', () => undefined);
      slow.write('POST /graphQL HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query"');
      await new Promise((resolve) => setTimeout(resolve, 100));

      let closed = false;
      const closing = server.service.close().then(() => (closed = true));
      // The API's port refuses new connections at once; the metrics port still answers.
      await until(1000, () => closedPort(apiPort));
      expect((await scrape(metricsOrigin)).family('calendar_http_requests_total')).toBeDefined();
      expect(closed).toBe(false);

      await closing;
      slow.destroy();
      expect(await closedPort(metricsPort)).toBe(true);
    } finally {
      await database.close();
    }
  });
});
