import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { createThrowawayPostgres, freePort, throwawayPostgresUnavailable, type ThrowawayPostgres } from '../support/throwaway-postgres.js';
import { logLines, startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { scrape } from '../support/prometheus-metrics.js';
import { until } from '../support/until.js';
import { createTestDatabase } from '../support/test-database.js';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { runCalendar } from './calendar-process.js';
import { SERVE_V8_FLAGS, semiSpaceCapMb } from '../../src/cli/serve-v8-flags.js';

const EMBEDDED = { PORT: '0', HOST: '127.0.0.1', CALENDAR_DATA_DIR: 'memory://', DEMO_EVENTS: '20', LOG_LEVEL: 'silent' };

describe('WORKERS: bad values stop the start', { timeout: 60_000 }, () => {
  for (const value of ['-1', 'abc', '0']) {
    it(`refuses WORKERS=${value} with a line naming the variable, status 1`, async () => {
      const run = await runCalendar(['serve'], { ...EMBEDDED, WORKERS: value });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe('calendar: Invalid configuration:\n  WORKERS: must be auto (one worker per core) or a whole number of worker processes from 1 to 256\n');
    });
  }

  it('refuses more than one worker on the embedded database, naming WORKERS and DATABASE_URL', async () => {
    for (const value of ['2', 'auto']) {
      const run = await runCalendar(['serve'], { ...EMBEDDED, WORKERS: value });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(new RegExp(`^calendar: Invalid configuration:\\n  WORKERS: ${value} worker processes need DATABASE_URL .*\\n$`));
    }
  });

  it('stops the start with one line when METRICS_PORT is in use, before any worker starts', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      // The primary listens for the metrics first: no worker (and no database) is needed to fail.
      const run = await runCalendar(['serve'], { ...EMBEDDED, WORKERS: '2', DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/calendar`, METRICS_PORT: String(port) });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`calendar: Cannot listen on 127.0.0.1:${port} (METRICS_PORT): the port is already in use (another process listens on it)\n`);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('stops the start with status 1 when a worker cannot start, its own line first', async () => {
    const port = await freePort();
    const run = await runCalendar(['serve'], { ...EMBEDDED, WORKERS: '2', DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/calendar`, DATABASE_WAIT_SECONDS: '0' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^calendar: The database at postgres://postgres@127\\.0\\.0\\.1:${port}/calendar is not reachable: `));
    expect(lines[1]).toMatch(/^calendar: worker \d+ stopped during start-up \(status 1\); the line above says why$/);
  });
});

const unavailable = throwawayPostgresUnavailable();
if (unavailable) console.warn(`two-worker tests skipped: ${unavailable}`);

interface Answer {
  status: number;
  body: { data?: unknown; errors?: unknown[] };
}

/** A POST on a connection of its own: the primary hands each new connection to the next worker. */
function post(origin: string, body: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(
      `${origin}/graphQL`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }, timeout: 15_000 },
      (res) => {
        let received = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (received += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(received) as Answer['body'] }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', reject);
    req.end(text);
  });
}

/** The status of a GET on a connection of its own (so each reaches the next worker). */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, timeout: 15_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', reject);
    req.end();
  });
}

let sequence = 0;
/** An `events` page no cache holds (a new fromDate each time): it reads the database. */
function uncachedPage(origin: string): Promise<Answer> {
  sequence += 1;
  const fromDate = new Date(Date.UTC(2026, 0, 1) + sequence * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  return post(origin, { query: 'query WorkersPage($f: Filter) { events(filter: $f, pageSize: 3) { totalCount data { id } } }', variables: { f: { fromDate } } });
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

const workerLines = (service: ServiceProcess, message: string) => logLines(service.stderr(), message).filter((line) => typeof line['worker'] === 'number');

describe.skipIf(unavailable)('calendar serve with WORKERS=2 (processes, on PostgreSQL)', { timeout: 120_000 }, () => {
  let database: ThrowawayPostgres;
  let service: ServiceProcess;
  let origin: string;

  beforeAll(async () => {
    database = await createThrowawayPostgres();
    await database.start();
    service = startServiceProcess({ WORKERS: '2', DATABASE_URL: database.url, DEMO_EVENTS: '60', DATABASE_POOL_SIZE: '3' });
    origin = new URL(await service.listening).origin;
  }, 120_000);

  afterAll(async () => {
    if (service && service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    await database?.remove();
    if (process.env['SHOW_SERVICE_LOG']) console.log(service?.stderr());
  });

  it('runs two workers that both answer, and /metrics adds both up', async () => {
    // A worker writes its start-up line just after it listens, so perhaps after the primary's.
    const started = await until(5000, () => {
      const lines = workerLines(service, 'service started');
      return lines.length >= 2 ? lines : undefined;
    });
    expect(started).toHaveLength(2);
    expect(new Set(started.map((line) => line['pid'])).size).toBe(2);
    // The primary was started without V8 flags (node bin/calendar.js serve): it gives its workers serve's own,
    // so none of them warns.
    const cap = semiSpaceCapMb(SERVE_V8_FLAGS, '');
    expect(cap).not.toBeNull();
    expect(started.map((line) => line['semiSpaceCapMb'])).toEqual([cap, cap]);
    expect(started.map((line) => line['allocationSitePretenuring'])).toEqual([false, false]);
    expect(logLines(service.stderr(), 'started without the V8 flags')).toEqual([]);
    // Nor its allocator setting (src/cli/malloc-settings.ts): the workers' environment has it.
    expect(started.map((line) => line['mallocMmapThreshold'])).toEqual([131072, 131072]);
    expect(logLines(service.stderr(), 'started without MALLOC_MMAP_THRESHOLD_')).toEqual([]);

    // Eight different documents (an alias each) under one name: all executed, none a cache hit.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(origin, { query: `query BothWorkers { c${i}: categories { id } }` })));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 8 }, () => 200));
    // Each access-log line names the worker that wrote it: both served.
    await until(2000, () => (workerLines(service, 'request completed').length >= 8 ? true : undefined));
    const servedBy = new Set(workerLines(service, 'request completed').map((line) => line['worker']));
    expect(servedBy).toEqual(new Set(started.map((line) => line['worker'])));

    // Whichever worker the scrape reaches, it counts the requests of both, and both pools.
    const metrics = await scrape(origin);
    expect(metrics.value('calendar_cluster_workers_reporting')).toBe(2);
    expect(metrics.value('calendar_cluster_workers')).toBe(2);
    const named = { route: 'graphql', operation: 'BothWorkers', status: '200' };
    expect(metrics.value('calendar_http_requests_total', named)).toBe(8);
    expect(metrics.value('calendar_db_pool_max_connections', { pool: 'primary' })).toBe(6);
    expect(metrics.value('calendar_data_version')).toBeGreaterThanOrEqual(1);
  });

  it('survives a worker killed with SIGKILL and starts another in its place', async () => {
    const before = workerLines(service, 'service started');
    const victim = before[0]!;
    process.kill(victim['pid'] as number, 'SIGKILL');
    await until(10_000, () => logLines(service.stderr(), 'worker exited; starting another')[0]);

    // The other worker answers meanwhile, and the new one joins it.
    const during = await Promise.all(Array.from({ length: 4 }, () => uncachedPage(origin)));
    expect(during.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const replacement = await until(60_000, () => workerLines(service, 'service started').find((line) => !before.some((old) => old['pid'] === line['pid'])));
    expect(replacement['pid']).not.toBe(victim['pid']);
    await until(10_000, () => logLines(service.stderr(), 'worker replaced')[0]);

    const metrics = await scrape(origin);
    expect(metrics.value('calendar_cluster_worker_restarts_total')).toBe(1);
    expect(metrics.value('calendar_cluster_workers')).toBe(2);
    const after = await Promise.all(Array.from({ length: 6 }, () => uncachedPage(origin)));
    expect(after.map((a) => a.status)).toEqual(Array.from({ length: 6 }, () => 200));
    expect(service.child.exitCode).toBeNull();
  });

  it('drains on SIGTERM: a slow request in flight is answered, new connections are refused, all exit 0', async () => {
    const port = Number(new URL(origin).port);
    // A lock held elsewhere for 2.5 s keeps the page's statement waiting: a slow request.
    const lock = database.psql('begin; lock table public.events in access exclusive mode; select pg_sleep(2.5); commit;');
    await new Promise((resolve) => setTimeout(resolve, 300));
    let slowDoneAt = 0;
    const slow = uncachedPage(origin).then((answer) => {
      slowDoneAt = Date.now();
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const signalledAt = Date.now();
    service.child.kill('SIGTERM');

    const refusedAt = await until(3000, async () => ((await refused(port)) ? Date.now() : undefined));
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    // The port refused new connections while the slow request was still being answered.
    expect(refusedAt).toBeLessThan(slowDoneAt);

    const code = await service.exited;
    await lock;
    expect(code).toBe(0);
    // Bounded: the lock's 2.5 s plus closing, well within the 10 s the primary allows.
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(workerLines(service, 'stopped')).toHaveLength(2);
    expect(logLines(service.stderr(), 'stopped').filter((line) => line['worker'] === undefined)).toHaveLength(1);
  });
});

const databaseUrl = process.env['DATABASE_URL'] || undefined;
if (!databaseUrl) console.warn('two workers with METRICS_PORT skipped: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run them');

describe.skipIf(!databaseUrl)('calendar serve with WORKERS=2 and METRICS_PORT (processes, on the PostgreSQL of DATABASE_URL)', { timeout: 120_000 }, () => {
  let database: DatabaseHandle;
  let service: ServiceProcess;
  let origin: string;
  let metricsUrl: string;

  beforeAll(async () => {
    // A schema of its own on the shared server, dropped afterwards.
    database = await createTestDatabase();
    service = startServiceProcess({ WORKERS: '2', DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: database.schema, DEMO_EVENTS: '30', DATABASE_POOL_SIZE: '2', METRICS_PORT: '0' });
    origin = new URL(await service.listening).origin;
  }, 120_000);

  afterAll(async () => {
    if (service && service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    await service?.exited;
    await database?.close();
    if (process.env['SHOW_SERVICE_LOG']) console.log(service?.stderr());
  });

  it('serves the whole node\'s metrics from the primary on METRICS_PORT, and /metrics 404 on the API port', async () => {
    // The primary's line names the listener it holds; each worker's names the same one.
    // Logged beside the line on stdout, so perhaps after it.
    const cluster = await until(5000, () => logLines(service.stderr(), 'cluster started')[0]);
    const metrics = cluster['metrics'] as { host: string; port: number; url: string };
    expect(metrics.host).toBe('127.0.0.1');
    expect(metrics.url).toBe(`http://127.0.0.1:${metrics.port}/metrics`);
    expect(metrics.port).not.toBe(Number(new URL(origin).port));
    metricsUrl = metrics.url;
    const started = await until(5000, () => {
      const lines = workerLines(service, 'service started');
      return lines.length >= 2 ? lines : undefined;
    });
    expect(started.map((line) => line['metrics'])).toEqual([metrics, metrics]);

    // Eight documents on connections of their own: both workers answer, and neither serves /metrics.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(origin, { query: `query MetricsPortWorkers { c${i}: categories { id } }` })));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 8 }, () => 200));
    const servedBy = await until(2000, () => {
      const workers = new Set(workerLines(service, 'request completed').map((line) => line['worker']));
      return workers.size === 2 ? workers : undefined;
    });
    expect(servedBy.size).toBe(2);
    const onApiPort = await Promise.all(Array.from({ length: 4 }, () => statusOf(`${origin}/metrics`)));
    expect(onApiPort).toEqual([404, 404, 404, 404]);

    // Added up over both workers, with the primary's own.
    const scraped = await scrape(new URL(metricsUrl).origin);
    expect(scraped.value('calendar_cluster_workers')).toBe(2);
    expect(scraped.value('calendar_cluster_workers_reporting')).toBe(2);
    expect(scraped.value('calendar_http_requests_total', { route: 'graphql', operation: 'MetricsPortWorkers', status: '200' })).toBe(8);
    expect(scraped.value('calendar_http_requests_total', { route: 'metrics', status: '404' })).toBe(4);
    expect(scraped.value('calendar_db_pool_max_connections', { pool: 'primary' })).toBe(4);
    expect(scraped.value('calendar_data_version')).toBeGreaterThanOrEqual(1);
    const health = await fetch(new URL('/health', metricsUrl));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('closes the metrics listener once the workers have stopped, exiting 0', async () => {
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(workerLines(service, 'stopped')).toHaveLength(2);
    await expect(fetch(metricsUrl)).rejects.toThrow();
  });
});
