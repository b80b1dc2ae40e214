import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { runCalendar, startServe, type Installed, type ServeProcess } from './calendar-process.js';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DATABASE_URL = process.env['DATABASE_URL'] || undefined;
const NOW = '2026-11-30T12:00:00+01:00';

/** Tools of development that a production installation must not hold. */
const BUILD_TOOLS = ['tsx', 'esbuild', 'typescript', 'vitest', '@graphql-codegen/cli', 'eslint'];

const calendarFile = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [{ id: 'V-BLAA', slug: 'kjelleren-pa-blaa', name: 'Kjelleren på Blå', municipality: 'Oslo' }],
  events: [
    {
      id: 'E-1',
      slug: 'jazz-pa-blaa',
      title_nb: 'Jazz på Blå',
      categories: ['CONCERT'],
      venue: 'V-BLAA',
      dates: [{ start: '2026-12-01T20:00:00+01:00', end: '2026-12-01T22:30:00+01:00' }],
    },
  ],
};

async function npm(args: readonly string[], cwd: string): Promise<string> {
  const { stdout } = await execFileAsync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/**
 * The packed release installed the way an operator installs it, into an empty folder. --prefer-offline:
 * npm takes what its cache holds (`npm ci` of this checkout filled it) without asking the registry
 * whether each package's metadata changed (12 s of waiting per install here). It may install the
 * version the cache knew of a dependency rather than one published since, which is not what these
 * tests check: no build tool in the release, and the release runs.
 */
async function install(tarball: string, folder: string, omit: readonly string[]): Promise<Installed> {
  await mkdir(folder);
  await writeFile(join(folder, 'package.json'), '{ "private": true }\n');
  await npm(['install', '--prefer-offline', ...omit.map((part) => `--omit=${part}`), tarball], folder);
  return { bin: join(folder, 'node_modules/event-calendar-api/bin/calendar.js'), cwd: folder };
}

async function graphql(url: string, query: string, variables?: Record<string, unknown>): Promise<{ data?: Record<string, unknown> | null; errors?: unknown[] }> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  expect(response.status).toBe(200);
  return (await response.json()) as { data?: Record<string, unknown> | null; errors?: unknown[] };
}

async function totalCount(url: string): Promise<number> {
  const { data } = await graphql(url, '{ events { totalCount } }');
  return (data?.['events'] as { totalCount: number }).totalCount;
}

/** A fresh schema on the PostgreSQL of DATABASE_URL: settings for it, and its removal. */
function freshSchema(): { env: Record<string, string>; drop: () => Promise<void> } {
  const schema = `test_release_${randomBytes(5).toString('hex')}`;
  return {
    env: { DATABASE_URL: DATABASE_URL!, DATABASE_SCHEMA: schema },
    drop: async () => {
      const client = new pg.Client(DATABASE_URL);
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

// npm pack and two installs from the registry (or npm's cache), then real processes: minutes on a busy machine.
describe('the release: the packed artifact installed with --omit=dev', { timeout: 300_000 }, () => {
  let dir: string;
  let tarball: string;
  let release: Installed;
  /** Installed without its optional packages too (--omit=optional). */
  let lean: Installed;
  let services: ServeProcess[] = [];
  const drops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'calendar-release-'));
    // --ignore-scripts: pack the dist/ the tests' global setup built (prepare would rebuild it while
    // other test files run it).
    const packed = await npm(['pack', '--ignore-scripts', '--pack-destination', dir], ROOT);
    tarball = join(dir, packed.trim().split('\n').pop()!);
    // Both installations at once: most of an install's time is spent waiting for the registry.
    [release, lean] = await Promise.all([install(tarball, join(dir, 'app'), ['dev']), install(tarball, join(dir, 'lean'), ['dev', 'optional'])]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(services.map(async ({ child, exited }) => (child.kill('SIGTERM'), await exited)));
    await Promise.all(drops.map((drop) => drop()));
    await rm(dir, { recursive: true, force: true });
  });

  function serve(env: Record<string, string>, installed = release): ServeProcess {
    const service = startServe({ PORT: '0', HOST: '127.0.0.1', CALENDAR_NOW: NOW, LOG_LEVEL: 'info', ...env }, installed);
    services.push(service);
    return service;
  }

  async function stop(service: ServeProcess): Promise<string> {
    service.child.kill('SIGTERM');
    const run = await service.exited;
    services = services.filter((running) => running !== service);
    return run.stderr;
  }

  it('holds no build tool: no tsx, esbuild, typescript (npm ls and the folder agree)', async () => {
    const listed = await npm(['ls', '--all', '--parseable', ...BUILD_TOOLS], release.cwd);
    expect(listed.trim()).toBe('');
    const names = await readdir(join(release.cwd, 'node_modules'));
    for (const tool of BUILD_TOOLS) expect(names).not.toContain(tool.split('/')[0]);
    // It runs compiled JavaScript: the sources are not shipped.
    expect(existsSync(join(release.cwd, 'node_modules/event-calendar-api/dist/cli/main.js'))).toBe(true);
    expect(existsSync(join(release.cwd, 'node_modules/event-calendar-api/src'))).toBe(false);
    // The typed client as the package exports it (docs/using-the-api.md), with nothing else installed.
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', "const m = await import('event-calendar-api/client'); console.log(typeof m.createCalendarClient)"], { cwd: release.cwd });
    expect(stdout.trim()).toBe('function');
  });

  it('serves, imports and answers the spec queries and /widget, with no demo calendar in the database', async () => {
    const database = DATABASE_URL ? freshSchema() : undefined;
    if (database) drops.push(database.drop);
    const env = database?.env ?? { CALENDAR_DATA_DIR: join(dir, 'embedded') };
    const file = join(dir, 'calendar.json');
    await writeFile(file, JSON.stringify(calendarFile));

    let url: string;
    if (database) {
      // An empty PostgreSQL: migrated at start, nothing invented in it, one line saying how to load a calendar.
      const service = serve(env);
      url = await service.listening;
      expect(await totalCount(url)).toBe(0);
      const imported = await runCalendar(['import', file], { ...env, CALENDAR_NOW: NOW }, release);
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);
      // The running service sees the new data version (LISTEN or its poll).
      const deadline = Date.now() + 20_000;
      while ((await totalCount(url)) !== 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const stderr = await stop(service);
      expect(stderr).toContain('the calendar is empty: load one with `calendar import FILE`');
      expect(stderr).not.toContain('seeded the demo calendar');
    } else {
      // The embedded database is one process's: imported first, then served.
      const imported = await runCalendar(['import', file], { ...env, CALENDAR_NOW: NOW }, release);
      expect(imported.code).toBe(0);
    }

    const service = serve(env);
    url = await service.listening;
    const events = await graphql(url, '{ events(filter: { categories: ["CONCERT"] }) { totalCount data { id title_nb startDate endDate startTime venue { slug } } categories { id hits } } }');
    expect(events.errors).toBeUndefined();
    expect(events.data?.['events']).toEqual({
      totalCount: 1,
      data: [{ id: 'E-1', title_nb: 'Jazz på Blå', startDate: '2026-12-01 20:00:00+01:00', endDate: '2026-12-01 22:30:00+01:00', startTime: '20:00', venue: { slug: 'kjelleren-pa-blaa' } }],
      categories: [{ id: 'CONCERT', hits: 1 }],
    });
    const byId = await graphql(url, 'query ($id: String!) { eventByID(eventID: $id) { event_slug } }', { id: 'E-1' });
    expect(byId.data).toEqual({ eventByID: { event_slug: 'jazz-pa-blaa' } });
    const bad = await graphql(url, '{ events(page: -1) { totalCount } }');
    expect(bad.data).toBeNull();
    // GET without the preflight header: 400 naming CSRF (the whole HTTP layer is in the release).
    const get = await fetch(`${url}?query=${encodeURIComponent('{ categories { id } }')}`);
    expect(get.status).toBe(400);
    expect(await get.text()).toMatch(/CSRF/);

    const page = await fetch(new URL('/widget', url));
    expect(page.status).toBe(200);
    const script = await fetch(new URL('/widget/widget.js', url));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await script.text()).length).toBeGreaterThan(1000);
    const sandbox = await fetch(url, { headers: { Accept: 'text/html' } });
    expect(await sandbox.text()).toContain('graphiql.min.js');

    const stderr = await stop(service);
    expect(stderr).not.toContain('seeded the demo calendar');
  });

  it('runs without its optional packages (--omit=optional): PostgreSQL serves, the embedded database says what is missing', async () => {
    for (const optional of ['@electric-sql/pglite', 'graphiql', 'react-dom']) expect(existsSync(join(lean.cwd, 'node_modules', optional))).toBe(false);

    const embedded = await runCalendar(['serve'], { PORT: '0', CALENDAR_DATA_DIR: 'memory://' }, lean);
    expect(embedded.code).toBe(1);
    expect(embedded.stderr.trim()).toBe(
      'calendar: The embedded database needs the optional package @electric-sql/pglite, which is not installed (an installation with --omit=optional): set DATABASE_URL to a PostgreSQL, or install it',
    );

    if (!DATABASE_URL) return; // the rest needs a PostgreSQL
    const database = freshSchema();
    drops.push(database.drop);
    const service = serve(database.env, lean);
    const url = await service.listening;
    expect(await totalCount(url)).toBe(0);
    const sandbox = await fetch(url, { headers: { Accept: 'text/html' } });
    expect(sandbox.status).toBe(200);
    expect(await sandbox.text()).toContain('The interactive sandbox is not installed on this server');
    expect((await fetch(new URL('/widget/widget.js', url))).status).toBe(200);
    await stop(service);
  });
});
