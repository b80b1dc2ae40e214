import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { startTracing, stopTracing } from '../../src/telemetry/tracing.js';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { runCalendar } from '../cli/calendar-process.js';
import { logLines } from '../support/service-process.js';
import { migratedDataDir, type MigratedDataDir } from '../support/migrated-data-dir.js';
import { TEST_NODE_FLAGS } from '../support/node-flags.js';

const calendar = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  events: [
    {
      id: 'E-1',
      slug: 'jazz',
      title_nb: 'Jazz',
      categories: ['CONCERT'],
      dates: [{ start: '2026-12-01T20:00:00+01:00' }],
    },
  ],
};
const NOW = new Date('2026-11-20T12:00:00+01:00');

const millis = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;

describe(`tracing through a real HTTP request (${databaseLabel}, in-memory exporter)`, { timeout: 120_000 }, () => {
  const exporter = new InMemorySpanExporter();
  let server: TestServer;

  let database: DatabaseHandle | undefined;

  beforeAll(async () => {
    // Before the server and its database: what is built afterwards is traced (a database opened now,
    // not one that this worker opened for an earlier file, before tracing started).
    await startTracing({}, { exporter });
    database = await createTestDatabase({ openedNow: true });
    server = await startTestServer({ database, calendar, clock: () => NOW });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
    await stopTracing();
  });
  beforeEach(() => exporter.reset());

  /** The spans of one trace, once its request's span has ended (just after the response went out). */
  async function traceOf(traceId: string): Promise<ReadableSpan[]> {
    const spans = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    for (let waited = 0; waited < 5000 && !spans().some((span) => span.kind === SpanKind.SERVER); waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return spans();
  }

  it('records the request, GraphQL parse, validate and execute, and the SQL statements, in one tree', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const response = await postGraphQL(
      server.url,
      { query: 'query Upcoming { events { totalCount data { id title_nb } } }' },
      { traceparent: `00-${traceId}-${callerSpanId}-01`, 'X-Request-Id': 'trace-req-1' },
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ events: { totalCount: 1, data: [{ id: 'E-1', title_nb: 'Jazz' }] } });
    const spans = await traceOf(traceId);

    // The caller's trace is continued: our request span is a child of the caller's span.
    const request = spans.find((span) => span.kind === SpanKind.SERVER)!;
    expect(request.name).toBe('POST /graphQL');
    expect(request.parentSpanContext?.spanId).toBe(callerSpanId);
    expect(request.attributes).toEqual({
      'http.request.method': 'POST',
      'url.path': '/graphQL',
      'url.scheme': 'http',
      'http.route': '/graphQL',
      'http.request.id': 'trace-req-1',
      'http.response.status_code': 200,
    });
    expect(request.status.code).toBe(SpanStatusCode.UNSET);

    const child = (name: string) => spans.filter((span) => span.name === name && span.parentSpanContext?.spanId === request.spanContext().spanId);
    expect(child('graphql.parse')).toHaveLength(1);
    expect(child('graphql.validate')).toHaveLength(1);
    const [execute] = child('query Upcoming');
    expect(execute?.attributes).toEqual({ 'graphql.operation.type': 'query', 'graphql.operation.name': 'Upcoming' });

    // Every statement the request sent is a child of the execution, within its time.
    const statements = spans.filter((span) => span.kind === SpanKind.CLIENT);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement.parentSpanContext?.spanId).toBe(execute!.spanContext().spanId);
      expect(statement.attributes).toMatchObject({
        'db.system.name': 'postgresql',
        'db.client.driver': server.database.driver,
        'db.namespace': server.database.schema,
        'db.query.text': expect.stringMatching(/^\s*(with|select)\b/i),
      });
      expect(statement.name).toBe(statement.attributes['db.operation.name']);
      expect(millis(statement.startTime)).toBeGreaterThanOrEqual(millis(execute!.startTime) - 1);
      expect(millis(statement.endTime)).toBeLessThanOrEqual(millis(execute!.endTime) + 1);
    }
    // Nothing in the trace but these: no stray spans, none left open.
    expect(spans).toHaveLength(4 + statements.length);
  });

  it('keeps the statements inside their execution after the wall clock has moved since the process started', async () => {
    // An NTP step, or plain drift over days: Date.now() no longer equals timeOrigin + performance.now().
    const realNow = Date.now.bind(Date);
    const moved = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 90_000);
    try {
      const traceId = randomBytes(16).toString('hex');
      const response = await postGraphQL(
        server.url,
        { query: 'query Moved { events { totalCount } }' },
        { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      );
      expect(response.status).toBe(200);
      const spans = await traceOf(traceId);
      const execute = spans.find((span) => span.name === 'query Moved')!;
      const statements = spans.filter((span) => span.kind === SpanKind.CLIENT);
      expect(statements.length).toBeGreaterThan(0);
      for (const statement of statements) {
        expect(millis(statement.startTime)).toBeGreaterThanOrEqual(millis(execute.startTime) - 1);
        expect(millis(statement.endTime)).toBeLessThanOrEqual(millis(execute.endTime) + 1);
      }
    } finally {
      moved.mockRestore();
    }
  });

  it('names the persisted-query hash, and marks an execution whose result has errors', async () => {
    const query = 'query Empty { events(pageSize: 0) { totalCount } }';
    const hash = createHash('sha256').update(query).digest('hex');
    const traceId = randomBytes(16).toString('hex');
    const response = await postGraphQL(
      server.url,
      { query, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } },
      { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    );
    expect(response.body.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    const execute = (await traceOf(traceId)).find((span) => span.name === 'query Empty')!;
    expect(execute.attributes).toMatchObject({ 'graphql.persisted_query.hash': hash, 'graphql.error.codes': ['BAD_USER_INPUT'] });
    expect(execute.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('starts a new trace without a traceparent, and records requests outside GraphQL by their method', async () => {
    const response = await fetch(new URL('/no/such/path', server.url), { headers: { 'X-Request-Id': 'trace-req-404' } });
    expect(response.status).toBe(404);
    let span: ReadableSpan | undefined;
    for (let waited = 0; waited < 5000 && !span; waited += 10) {
      span = exporter.getFinishedSpans().find((s) => s.attributes['http.request.id'] === 'trace-req-404');
      if (!span) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Unknown paths do not become span names (their number has no bound).
    expect(span?.name).toBe('GET');
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.attributes).toMatchObject({ 'url.path': '/no/such/path', 'http.response.status_code': 404 });
    expect(span?.attributes).not.toHaveProperty('http.route');
  });
});

/**
 * The service as a process: with tracing off, not one OpenTelemetry module is loaded (a module hook
 * watches every resolution); with an OTLP endpoint, the spans reach a collector over HTTP/protobuf.
 */
describe('tracing settings of calendar serve', { timeout: 120_000 }, () => {
  const BIN = fileURLToPath(new URL('../../bin/calendar.js', import.meta.url));
  let dir: string;
  let hook: string;
  let collector: Server;
  // A migrated embedded database of the test's own, served by one process after the other.
  let dataDir: MigratedDataDir;
  const received: { path: string; contentType: string; body: Buffer }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'calendar-tracing-'));
    dataDir = await migratedDataDir();
    hook = join(dir, 'watch-opentelemetry.mjs');
    await writeFile(
      hook,
      `import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  const result = next(specifier, context);
  if (result.url.includes('/@opentelemetry/')) process.stderr.write('OPENTELEMETRY LOADED ' + result.url + '\\n');
  return result;
} });
`,
    );
    // A stand-in for an OpenTelemetry collector's OTLP/HTTP receiver.
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', contentType: String(req.headers['content-type']), body: Buffer.concat(chunks) });
        res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => collector.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
    await dataDir?.remove();
  });

  /** Starts serve with the hook, sends one query, stops it; resolves with its stderr and exit code. */
  async function serveOnce(env: Record<string, string>): Promise<{ stderr: string; code: number | null }> {
    const { DATABASE_URL: _url, REDIS_URL: _redis, DATABASE_SCHEMA: _schema, ...inherited } = process.env;
    const child = spawn(process.execPath, [...TEST_NODE_FLAGS, '--import', hook, BIN, 'serve'], {
      env: { ...inherited, PORT: '0', HOST: '127.0.0.1', CALENDAR_DATA_DIR: dataDir.path, DEMO_EVENTS: '3', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (\S+)/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      void exited.then(() => reject(new Error(`serve exited before listening:\n${stderr}`)));
    });
    const response = await postGraphQL(url, { query: 'query Cats { categories { id } }' });
    expect(response.status).toBe(200);
    child.kill('SIGTERM');
    const code = await exited;
    // 'close' comes after the last output has been read ('exit' may come before it).
    if (child.stderr.readable) await new Promise((resolve) => child.once('close', resolve));
    return { stderr, code };
  }

  it('refuses at start an OTLP protocol it does not ship, naming the setting', async () => {
    const run = await runCalendar(['serve'], { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('calendar: Invalid configuration:\n  OTEL_EXPORTER_OTLP_PROTOCOL: only http/protobuf is supported\n');
  });

  it('loads no OpenTelemetry SDK or exporter when no OTEL_* setting asks for tracing', async () => {
    const run = await serveOnce({});
    expect(run.code).toBe(0);
    // The API package alone (a few kB of no-op interfaces) is loaded by prom-client for /metrics.
    const loaded = run.stderr.split('\n').filter((line) => line.startsWith('OPENTELEMETRY LOADED') && !line.includes('/@opentelemetry/api/'));
    expect(loaded).toEqual([]);
  });

  it('sends the spans to the OTLP endpoint over HTTP/protobuf (the last ones at shutdown)', async () => {
    const { port } = collector.address() as { port: number };
    const run = await serveOnce({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_SERVICE_NAME: 'calendar-under-test', LOG_LEVEL: 'info' });
    expect(run.code).toBe(0);
    // The control: the hook does see OpenTelemetry when tracing is on.
    expect(run.stderr).toContain('OPENTELEMETRY LOADED');
    // No complaint from the SDK (an export that failed is logged as "tracing: ...").
    expect(run.stderr).not.toMatch(/"msg":"tracing:/);
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((request) => request.path === '/v1/traces' && request.contentType === 'application/x-protobuf')).toBe(true);
    // Protobuf keeps strings as they are: the service name and the span names are in the bodies.
    const bodies = Buffer.concat(received.map((request) => request.body)).toString('latin1');
    expect(bodies).toContain('calendar-under-test');
    expect(bodies).toContain('POST /graphQL');
    expect(bodies).toContain('query Cats');
    // The access-log line names the request's trace, and that trace is what was exported.
    const [line] = logLines(run.stderr, 'request completed');
    expect(line?.['traceId']).toMatch(/^[0-9a-f]{32}$/);
    expect(bodies).toContain(Buffer.from(String(line!['traceId']), 'hex').toString('latin1'));
  });
});
