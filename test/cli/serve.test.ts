import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { generateDemoCalendar } from '../../src/demo/demo-calendar.js';
import { migratedDataDir, type MigratedDataDir } from '../support/migrated-data-dir.js';
import { logLines, startServiceProcess } from '../support/service-process.js';
import { scrape } from '../support/prometheus-metrics.js';
import { until } from '../support/until.js';
import { runCalendar, startServe, type ServeProcess } from './calendar-process.js';

const SERVE_ENV = { PORT: '0', HOST: '127.0.0.1', CALENDAR_DATA_DIR: 'memory://', DEMO_EVENTS: '20', LOG_LEVEL: 'silent' };

let serving: ServeProcess | undefined;
let blocker: Server | undefined;
let dataDir: MigratedDataDir | undefined;

/**
 * SERVE_ENV on a migrated database of the test's own: for the tests of something else than a first
 * start (the first test starts on memory://, creating, migrating and seeding it), a start that skips
 * initdb and the migrations.
 */
async function migratedServeEnv(): Promise<Record<string, string>> {
  dataDir = await migratedDataDir();
  return { ...SERVE_ENV, CALENDAR_DATA_DIR: dataDir.path };
}

afterEach(async () => {
  if (serving && serving.child.exitCode === null && serving.child.signalCode === null) {
    serving.child.kill('SIGKILL');
    await serving.exited;
  }
  serving = undefined;
  await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
  blocker = undefined;
  await dataDir?.remove();
  dataDir = undefined;
});

/** A port something else listens on, until the end of the test. */
async function occupiedPort(): Promise<number> {
  blocker = createServer();
  await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
  return (blocker.address() as { port: number }).port;
}

// What an operator runs: the installed bin (node bin/calendar.js), not tsx's CLI.
describe('calendar serve (bin/calendar.js as a process)', { timeout: 120_000 }, () => {
  it('listens, answers a query on the seeded demo calendar, and exits 0 on SIGTERM', async () => {
    serving = startServe(SERVE_ENV);
    const url = await serving.listening;
    expect(url).toMatch(/^http:\/\/[^/]+:\d+\/graphQL$/);

    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ categories { id } }' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data?: { categories: { id: string }[] }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    // The demo calendar's top-level categories, hidden ones included (sub-categories are not listed).
    const demo = generateDemoCalendar({ events: 0, seed: 1, today: new Date() });
    const expected = (demo.categories ?? []).filter((category) => !category.parent).map((category) => category.id);
    expect(expected.length).toBeGreaterThan(10);
    expect(body.data!.categories.map((category) => category.id).sort()).toEqual([...expected].sort());

    serving.child.kill('SIGTERM');
    const run = await serving.exited;
    expect({ code: run.code, signal: run.signal, stderr: run.stderr }).toEqual({ code: 0, signal: null, stderr: '' });
  });

  it('reports a start-up failure (port in use) as one line, without a stack, with status 1', async () => {
    const port = await occupiedPort();

    const run = await runCalendar(['serve'], { ...(await migratedServeEnv()), PORT: String(port) });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^calendar: Cannot listen on 127\\.0\\.0\\.1:${port}: [^\\n]+\\n$`));
  });

  it('reports METRICS_PORT in use as one line naming it, without a stack, with status 1', async () => {
    const port = await occupiedPort();

    const run = await runCalendar(['serve'], { ...(await migratedServeEnv()), METRICS_PORT: String(port) });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`calendar: Cannot listen on 127.0.0.1:${port} (METRICS_PORT): the port is already in use (another process listens on it)\n`);
  });

  it('refuses METRICS_PORT equal to PORT before it opens anything, naming METRICS_PORT, status 1', async () => {
    const run = await runCalendar(['serve'], { ...SERVE_ENV, PORT: '4711', METRICS_PORT: '4711' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('calendar: Invalid configuration:\n  METRICS_PORT: must differ from PORT (4711): /metrics moves to a listener of its own\n');
  });

  it('names the metrics address in its start-up line, serves /metrics there, and closes it on SIGTERM', async () => {
    const service = startServiceProcess({ ...(await migratedServeEnv()), LOG_LEVEL: 'info', METRICS_PORT: '0' });
    try {
      const url = await service.listening;
      // Logged beside the line on stdout, so perhaps after it.
      const started = await until(5000, () => logLines(service.stderr(), 'service started')[0]);
      const metrics = started['metrics'] as { host: string; port: number; url: string };
      expect(metrics.host).toBe('127.0.0.1');
      expect(metrics.port).not.toBe(started['port']);
      expect(metrics.url).toBe(`http://127.0.0.1:${metrics.port}/metrics`);
      expect((await fetch(new URL('/metrics', url))).status).toBe(404);
      expect((await scrape(new URL(metrics.url).origin)).family('calendar_http_requests_total')).toBeDefined();

      expect(await service.stop()).toBe(0);
      await expect(fetch(metrics.url)).rejects.toThrow();
    } finally {
      await service.stop();
    }
  });

  it('reports a bad setting by name, without a stack, with status 1', async () => {
    const run = await runCalendar(['serve'], { ...SERVE_ENV, PORT: 'eighty' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe('calendar: Invalid configuration:');
    expect(run.stderr).toMatch(/^ {2}PORT: /m);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});
