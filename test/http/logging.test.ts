import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import pg from 'pg';
import { logLines, startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { migratedDataDir, type MigratedDataDir } from '../support/migrated-data-dir.js';
import { runsOnGlibc } from '../../src/cli/malloc-settings.js';

/**
 * What an operator reads on stderr: one line at start-up saying what the service chose, one line
 * per request, and two at shutdown. The service runs as `calendar serve` (a real process), on the
 * embedded database, or on the PostgreSQL of DATABASE_URL in a schema of its own.
 */
const databaseUrl = process.env['DATABASE_URL'] || undefined;
const schema = `test_${randomBytes(6).toString('hex')}`;
/** The password must never reach the log (a trust-authenticated test server ignores it). */
const PASSWORD = 'pa55-not-for-logs';
const API_KEY = 'hsk_logging_test_key_never_logged';

function withPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = PASSWORD;
  return parsed.toString();
}

let service: ServiceProcess;
let url: string;
// On the embedded database: a migrated one of the test's own (a first start is serve.test.ts's subject).
let dataDir: MigratedDataDir | undefined;

beforeAll(async () => {
  if (!databaseUrl) dataDir = await migratedDataDir();
  service = startServiceProcess({
    DEMO_EVENTS: '5',
    // debug: the health probes' lines are logged at that level.
    LOG_LEVEL: 'debug',
    ...(databaseUrl ? { DATABASE_URL: withPassword(databaseUrl), DATABASE_SCHEMA: schema } : { CALENDAR_DATA_DIR: dataDir!.path }),
  });
  url = await service.listening;
});
afterAll(async () => {
  await service?.stop();
  await dataDir?.remove();
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    await pool.query(`drop schema if exists ${schema} cascade`);
    await pool.end();
  }
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; waited < 5000 && !condition(); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The access-log line of one request id, once it is written (after the response went out). */
async function requestLine(reqId: string): Promise<Record<string, unknown>> {
  const find = () => logLines(service.stderr(), 'request ').find((entry) => entry['reqId'] === reqId);
  await waitFor(() => find() !== undefined);
  const line = find();
  if (!line) throw new Error(`no log line for request ${reqId}:\n${service.stderr()}`);
  return line;
}

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe(`logging of calendar serve (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`, { timeout: 120_000 }, () => {
  it('says once at start-up what it chose: address, database and where, cache, limits; never a password', async () => {
    // Log lines are written asynchronously: the one before "listening on" may arrive just after it.
    await waitFor(() => logLines(service.stderr(), 'service started').length > 0);
    const [started, ...more] = logLines(service.stderr(), 'service started');
    expect(more).toEqual([]);
    const port = Number(new URL(url).port);
    const database = databaseUrl
      ? {
          kind: 'postgres',
          url: withPassword(databaseUrl).replace(PASSWORD, '***'),
          schema,
          poolSize: 10,
          acquireTimeoutMs: 2000,
          statementTimeoutMs: 5000,
          readReplicas: [],
          migrate: 'auto',
        }
      : { kind: 'pglite', dataDir: dataDir!.path, schema: 'public', migrate: 'auto' };
    expect(started).toEqual({
      level: 30,
      time: expect.any(Number),
      msg: 'service started',
      url,
      host: '127.0.0.1',
      port,
      database,
      cache: { kind: 'memory' },
      responseCache: 'on',
      publicBaseUrl: null,
      requestTimeoutMs: 6000,
      maxInFlightRequests: 200,
      // Without METRICS_PORT, /metrics is answered on the API's own address.
      metrics: { host: '127.0.0.1', port, url: `http://127.0.0.1:${port}/metrics` },
      http: { requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5000, maxConnections: 10_000 },
      tracing: 'off',
      logLevel: 'debug',
      // The release a node runs: package.json's version.
      release: (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version,
      node: process.version,
      // Started as `node bin/calendar.js serve`, without npm start's V8 flags: V8's defaults (and the
      // warning below), in the process spawned.
      semiSpaceCapMb: null,
      allocationSitePretenuring: true,
      // Nor npm start's allocator setting (glibc only: src/cli/malloc-settings.ts).
      ...(runsOnGlibc() ? { mallocMmapThreshold: null } : {}),
      pid: service.child.pid,
      readyMs: expect.any(Number),
    });
    expect(logLines(service.stderr(), 'started without the V8 flags').map((line) => line['missingV8Flags'])).toEqual([
      ['--max-semi-space-size=16', '--no-allocation-site-pretenuring'],
    ]);
    expect(logLines(service.stderr(), 'started without MALLOC_MMAP_THRESHOLD_').map((line) => line['missingEnvironment'])).toEqual(runsOnGlibc() ? [['MALLOC_MMAP_THRESHOLD_=131072']] : []);
    expect(service.stderr()).not.toContain(PASSWORD);
  });

  it('logs one line per request at info: method, path, status, duration, bytes, request id, operation', async () => {
    const response = await post({ query: 'query Cats { categories { id } }' }, { 'X-Request-Id': 'req-0001', 'X-Api-Key': API_KEY });
    const body = await response.text();
    expect(response.status).toBe(200);
    // The caller's id is kept and echoed.
    expect(response.headers.get('x-request-id')).toBe('req-0001');
    const line = await requestLine('req-0001');
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      msg: 'request completed',
      reqId: 'req-0001',
      method: 'POST',
      path: '/graphQL',
      status: 200,
      durationMs: expect.any(Number),
      bytes: Buffer.byteLength(body),
      operation: 'Cats',
    });
    expect(line['durationMs']).toBeGreaterThan(0);
    // The key is a credential: not in any line.
    expect(service.stderr()).not.toContain(API_KEY);
  });

  it('names the operation of a request that fails validation, and logs its status', async () => {
    const response = await post({ query: 'query Broken { noSuchField }' }, { 'X-Request-Id': 'req-0002' });
    expect(response.status).toBe(400);
    expect(await requestLine('req-0002')).toMatchObject({ status: 400, operation: 'Broken', method: 'POST', path: '/graphQL' });
  });

  it('logs the path without the query string (GET queries carry documents and variables)', async () => {
    const target = new URL(url);
    target.searchParams.set('query', '{ events(filter: { searchTerm: "personal words" }) { totalCount } }');
    const response = await fetch(target, { headers: { 'X-Request-Id': 'req-0003', 'Service-Require-Preflight': 'true' } });
    expect(response.status).toBe(200);
    const line = await requestLine('req-0003');
    expect(line).toMatchObject({ method: 'GET', path: '/graphQL', status: 200 });
    expect(line).not.toHaveProperty('operation');
    expect(service.stderr()).not.toContain('personal words');
  });

  it('replaces an X-Request-Id that is not sane with a new UUID, echoed in the response', async () => {
    for (const given of ['has spaces in it', 'x'.repeat(129), 'quote"d', '']) {
      const response = await fetch(new URL('/schema.graphql', url), { headers: given === '' ? {} : { 'X-Request-Id': given } });
      expect(response.status).toBe(200);
      const id = response.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await requestLine(id)).toMatchObject({ method: 'GET', path: '/schema.graphql', status: 200, bytes: Number(response.headers.get('content-length')) });
    }
  });

  it('logs errors of the HTTP layer too (404, 405), and health probes at debug only', async () => {
    const missing = await fetch(new URL('/nowhere?secret=1', url), { headers: { 'X-Request-Id': 'req-0404' } });
    expect(missing.status).toBe(404);
    expect(await requestLine('req-0404')).toMatchObject({ level: 30, path: '/nowhere', status: 404 });
    const wrongMethod = await fetch(url, { method: 'PUT', headers: { 'X-Request-Id': 'req-0405' } });
    expect(wrongMethod.status).toBe(405);
    expect(await requestLine('req-0405')).toMatchObject({ level: 30, method: 'PUT', status: 405 });
    const health = await fetch(new URL('/health', url), { headers: { 'X-Request-Id': 'req-health' } });
    expect(health.status).toBe(200);
    expect(await requestLine('req-health')).toMatchObject({ level: 20, path: '/health', status: 200 });
  });

  it('logs a request whose client went away before the answer as aborted, without a status or an error line', async () => {
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    // A body announced as 100 bytes, of which one arrives.
    socket.write('POST /graphQL HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Request-Id: req-gone\r\n\r\n{');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    const line = await requestLine('req-gone');
    expect(line).toEqual({ level: 30, time: expect.any(Number), msg: 'request aborted', reqId: 'req-gone', method: 'POST', path: '/graphQL', durationMs: expect.any(Number), aborted: true });
    expect(logLines(service.stderr(), 'request failed')).toEqual([]);
  });

  it('says when it stops and when it has stopped, then exits 0', async () => {
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    // 'exit' may come before the last output has been read.
    await waitFor(() => logLines(service.stderr(), 'stopped').length > 0);
    expect(logLines(service.stderr(), 'shutting down')).toEqual([
      { level: 30, time: expect.any(Number), signal: 'SIGTERM', msg: 'shutting down: finishing requests in flight (5 s at most), then closing the database' },
    ]);
    expect(logLines(service.stderr(), 'stopped')).toEqual([{ level: 30, time: expect.any(Number), durationMs: expect.any(Number), msg: 'stopped' }]);
    // Nothing after it, and nothing that is not a JSON line.
    const lines = service.stderr().trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ msg: 'stopped' });
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
  });
});
