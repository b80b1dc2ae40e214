import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/domain/api-key-hash.js';
import { runCalendar } from '../cli/calendar-process.js';
import { createPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.js';
import { logLines, startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { throwawayPostgresUnavailable } from '../support/throwaway-postgres.js';

const unavailable = throwawayPostgresUnavailable();
if (unavailable) console.warn(`read replica tests skipped: ${unavailable}`);

/** The service's clock: every date below is upcoming. */
const NOW = '2026-11-25T12:00:00+01:00';

const catalogue = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [{ id: 'V-BLAA', slug: 'kjelleren-pa-blaa', name: 'Kjelleren på Blå', municipality: 'Oslo' }],
};
const event = (id: string, title: string, start: string) => ({
  id,
  slug: id.toLowerCase(),
  title_nb: title,
  categories: ['CONCERT'],
  venue: 'V-BLAA',
  dates: [{ start }],
});
/** The first import: one concert. */
const firstFile = { ...catalogue, events: [event('E-JAZZ', 'Jazz på Blå', '2026-12-01T20:00:00+01:00')] };
/** The second: two more (the first kept). */
const secondFile = {
  ...catalogue,
  events: [
    event('E-JAZZ', 'Jazz på Blå', '2026-12-01T20:00:00+01:00'),
    event('E-VISE', 'Viseaften', '2026-12-02T19:00:00+01:00'),
    event('E-KOR', 'Julekonsert med kor', '2026-12-03T18:00:00+01:00'),
  ],
};

/** The third: one more again. */
const thirdFile = { ...secondFile, events: [...secondFile.events, event('E-ORGEL', 'Orgelkonsert', '2026-12-04T19:00:00+01:00')] };

/** The fourth: one more again. */
const fourthFile = { ...thirdFile, events: [...thirdFile.events, event('E-SALME', 'Salmekveld', '2026-12-05T19:00:00+01:00')] };

interface Page {
  status: number;
  totalCount?: number;
  ids?: string[];
  code?: unknown;
}

let sequence = 0;

/**
 * Every upcoming event in one page, with its total. `pageSize` varies per call, so no response cache
 * answers it: each request reaches the read model and the database.
 */
async function allEvents(url: string, headers: Record<string, string> = {}): Promise<Page> {
  sequence += 1;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: `{ events(pageSize: ${100 + (sequence % 800)}) { totalCount data { id } } }` }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as {
    data?: { events?: { totalCount: number; data: { id: string }[] } };
    errors?: { extensions?: Record<string, unknown> }[];
  };
  const events = body.data?.events;
  return { status: response.status, totalCount: events?.totalCount, ids: events?.data.map((e) => e.id), code: body.errors?.[0]?.extensions?.['code'] };
}

/** Polls until `check` holds on an answer; returns the answers seen and how long it took. */
async function until(url: string, check: (page: Page) => boolean, timeoutMs: number): Promise<{ ms: number; seen: Page[] }> {
  const started = performance.now();
  const seen: Page[] = [];
  for (;;) {
    const page = await allEvents(url);
    seen.push(page);
    if (check(page)) return { ms: performance.now() - started, seen };
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms; last answer: ${JSON.stringify(page)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The service's log lines with this message prefix, once they are written (the logger flushes every 200 ms). */
async function loggedLines(service: ServiceProcess, messageStart: string): Promise<Record<string, unknown>[]> {
  for (let waitedMs = 0; ; waitedMs += 100) {
    const lines = logLines(service.stderr(), messageStart);
    if (lines.length > 0 || waitedMs >= 3000) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Lets log lines written so far reach the test (the logger flushes every 200 ms). */
const logsFlushed = () => new Promise((resolve) => setTimeout(resolve, 600));

/** Never a page newer (or older) than its total: every event of the page is counted, and the whole calendar fits in one page. */
function expectConsistent(page: Page): void {
  expect(page.status).toBe(200);
  expect(page.ids).toHaveLength(page.totalCount!);
}

const SERVICE_ENV = { DEMO_EVENTS: '0', CALENDAR_NOW: NOW, DATABASE_POOL_SIZE: '4', DATABASE_WAIT_SECONDS: '0', LOG_LEVEL: 'info' };

describe('DATABASE_READ_URL: settings', { timeout: 60_000 }, () => {
  it('stops the service at start on a malformed DATABASE_READ_URL, naming the variable', async () => {
    const service = startServiceProcess({
      ...SERVICE_ENV,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/postgres',
      DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:2/postgres, mysql://reader:secret@replica/calendar',
    });
    expect(await service.exited).toBe(1);
    expect(service.stderr()).toContain('DATABASE_READ_URL: must be a postgres:// URL, got "mysql://reader:***@replica/calendar"');
    // The password is never printed.
    expect(service.stderr()).not.toContain('secret');
  });

  it('stops the service at start on an unknown MIGRATE, naming the variable', async () => {
    const service = startServiceProcess({ ...SERVICE_ENV, MIGRATE: 'sometimes' });
    expect(await service.exited).toBe(1);
    expect(service.stderr()).toContain('MIGRATE: must be auto or off');
  });
});

describe.skipIf(unavailable)('read replicas: a primary and streaming replicas of its own', { timeout: 60_000 }, () => {
  let cluster: PostgresCluster;
  let dir: string;
  const services: ServiceProcess[] = [];

  const start = async (env: Record<string, string>): Promise<{ service: ServiceProcess; url: string }> => {
    const service = startServiceProcess({ ...SERVICE_ENV, ...env });
    services.push(service);
    return { service, url: await service.listening };
  };
  const calendarOnPrimary = (args: string[]) => runCalendar(args, { DATABASE_URL: cluster.primary.url, CALENDAR_NOW: NOW });
  /** The service's own sessions on a server (pg_stat_activity, by application_name). */
  const serviceSessions = async (server: { psql(sql: string): Promise<string> }) =>
    Number(await server.psql(`select count(*) from pg_stat_activity where application_name = 'event-calendar-api' and backend_type = 'client backend'`));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'calendar-replica-files-'));
    await writeFile(join(dir, 'first.json'), JSON.stringify(firstFile));
    await writeFile(join(dir, 'second.json'), JSON.stringify(secondFile));
    await writeFile(join(dir, 'third.json'), JSON.stringify(thirdFile));
    await writeFile(join(dir, 'fourth.json'), JSON.stringify(fourthFile));
    cluster = await createPostgresCluster(2);
  });

  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await cluster?.remove();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads from the replica, writes to the primary, and serves an import within a couple of seconds', async () => {
    const [replica] = cluster.replicas;
    const { service, url } = await start({ DATABASE_URL: cluster.primary.url, DATABASE_READ_URL: replica!.url });
    expect(await allEvents(url)).toEqual({ status: 200, totalCount: 0, ids: [], code: undefined });

    const imported = await calendarOnPrimary(['import', join(dir, 'first.json')]);
    expect(imported.code).toBe(0);
    const importedAt = performance.now();
    const { seen } = await until(url, (page) => page.totalCount === 1, 5000);
    const servedMs = performance.now() - importedAt;
    console.log(`read replicas: an import on the primary was served from the replica ${Math.round(servedMs)} ms after \`calendar import\` exited`);
    expect(servedMs).toBeLessThan(2500);
    seen.forEach(expectConsistent);
    expect(seen.at(-1)!.ids).toEqual(['E-JAZZ']);

    // Requests were read on the replica (the service's sessions there), and the service said so at start.
    expect(await serviceSessions(replica!)).toBeGreaterThan(0);
    expect((await loggedLines(service, 'API reads go to the read replicas'))[0]?.['replicas']).toEqual([replica!.url]);
    expect((await loggedLines(service, 'service started'))[0]?.['database']).toMatchObject({ readReplicas: [replica!.url], migrate: 'auto' });
  });

  it('answers from one data version while the replica lags, and converges when it catches up', async () => {
    const [replica] = cluster.replicas;
    const url = await services[0]!.listening;
    // The replica stops replaying: the primary moves on (and NOTIFYs), the replica stays behind.
    await replica!.psql('select pg_wal_replay_pause()');
    await logsFlushed();
    const buildsBefore = logLines(services[0]!.stderr(), 'read model built').length;
    try {
      const imported = await calendarOnPrimary(['import', join(dir, 'second.json')]);
      expect(imported.code).toBe(0);
      expect(await cluster.primary.psql('select count(*) from events')).toBe('3');
      // The primary's notice arrived; the replica still has one event: every answer is that version whole.
      const started = performance.now();
      while (performance.now() - started < 1500) {
        const page = await allEvents(url);
        expectConsistent(page);
        expect(page.ids).toEqual(['E-JAZZ']);
      }
      // The notice waits for the replica to have its version: no snapshot of the old version is built again meanwhile.
      await logsFlushed();
      expect(logLines(services[0]!.stderr(), 'read model built').length).toBe(buildsBefore);
    } finally {
      await replica!.psql('select pg_wal_replay_resume()');
    }
    const resumedAt = performance.now();
    const { seen } = await until(url, (page) => page.totalCount === 3, 5000);
    console.log(`read replicas: served the new version ${Math.round(performance.now() - resumedAt)} ms after the replica resumed replaying`);
    expect(performance.now() - resumedAt).toBeLessThan(2500);
    seen.forEach(expectConsistent);
    expect(seen.at(-1)!.ids).toEqual(['E-JAZZ', 'E-VISE', 'E-KOR']);
  });

  it('writes usage counts to the primary, while key lookups read the replica', async () => {
    const added = await calendarOnPrimary(['keys', 'add', '--application', 'Replica test page']);
    expect(added.code).toBe(0);
    const key = added.stdout.trim();
    await cluster.waitForReplicas();
    const url = await services[0]!.listening;
    for (let i = 0; i < 3; i++) expect((await allEvents(url, { 'x-api-key': key })).status).toBe(200);
    // Stopping writes the counts gathered so far (the flush is every 5 s otherwise).
    expect(await services[0]!.stop()).toBe(0);
    expect(await cluster.primary.psql(`select sum(requests) from usage_counts where key_hash = '${hashApiKey(key)}'`)).toBe('3');
  });

  it('starts against a replica alone with MIGRATE=off; refuses MIGRATE=auto and a schema older than the code', async () => {
    const replica = cluster.replicas[1]!;
    await cluster.waitForReplicas();
    const [refusedAuto, refusedSchema, served] = await Promise.all([
      (async () => {
        const service = startServiceProcess({ ...SERVICE_ENV, DATABASE_URL: replica.url });
        return { code: await service.exited, stderr: service.stderr() };
      })(),
      (async () => {
        const service = startServiceProcess({ ...SERVICE_ENV, DATABASE_URL: replica.url, MIGRATE: 'off', DATABASE_SCHEMA: 'never_migrated' });
        return { code: await service.exited, stderr: service.stderr() };
      })(),
      // A hot standby delivers no notices: LISTEN goes to the primary directly.
      start({ DATABASE_URL: replica.url, MIGRATE: 'off', DATABASE_LISTEN_URL: cluster.primary.url }),
    ]);
    expect(refusedAuto.code).toBe(1);
    expect(refusedAuto.stderr).toContain('The database of DATABASE_URL is read-only');
    expect(refusedAuto.stderr).toContain('set MIGRATE=off and run `calendar migrate` against the primary');
    expect(refusedSchema.code).toBe(1);
    expect(refusedSchema.stderr).toContain('The database schema is older than this code needs (found no migrations in schema never_migrated');
    expect(refusedSchema.stderr).toContain('MIGRATE=off: run `calendar migrate` against the primary');

    const page = await allEvents(served.url);
    expectConsistent(page);
    expect(page.ids).toEqual(['E-JAZZ', 'E-VISE', 'E-KOR']);
    const ready = await fetch(new URL('/ready', served.url));
    expect(ready.status).toBe(200);
    // Not seeded, not counted, not migrated: nothing was written (a replica would have refused it).
    expect(await loggedLines(served.service, 'the database of DATABASE_URL is read-only: usage counts are not recorded')).toHaveLength(1);

    // Its LISTEN is on the primary (the only service running against this cluster now), and an import there is served.
    expect(await cluster.primary.psql(`select count(*) from pg_stat_activity where application_name = 'event-calendar-api' and query = 'listen calendar_data_version'`)).toBe('1');
    expect((await calendarOnPrimary(['import', join(dir, 'third.json')])).code).toBe(0);
    const importedAt = performance.now();
    const { seen } = await until(served.url, (p) => p.totalCount === 4, 5000);
    expect(performance.now() - importedAt).toBeLessThan(2500);
    seen.forEach(expectConsistent);
  });

  it('fails over to the next replica when the one it reads from goes away, never mixing versions on the way', async () => {
    await Promise.all(services.map((s) => s.stop()));
    const { service, url } = await start({ DATABASE_URL: cluster.primary.url, DATABASE_READ_URL: cluster.replicas.map((r) => r.url).join(',') });
    expectConsistent(await allEvents(url));
    // Its home replica: process id modulo the number of replicas (src/db/read-replicas.ts).
    const home = cluster.replicas[service.child.pid! % cluster.replicas.length]!;
    const other = cluster.replicas.find((r) => r !== home)!;
    expect(await serviceSessions(home)).toBeGreaterThan(await serviceSessions(other));

    // The other replica falls behind; the home one has the fourth import, and the service answers from it.
    await other.psql('select pg_wal_replay_pause()');
    try {
      expect((await calendarOnPrimary(['import', join(dir, 'fourth.json')])).code).toBe(0);
      await until(url, (page) => page.totalCount === 5, 5000);
      await home.kill();

      // Reads fail over to the replica that is behind the snapshot: answered 503 (after waiting for it to
      // catch up for a while), never a page of the snapshot's version filled with older records.
      for (let i = 0; i < 2; i++) {
        const page = await allEvents(url);
        expect(page).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      }
    } finally {
      await other.psql('select pg_wal_replay_resume()');
    }
    // Once it has replayed, it answers every request.
    const { ms, seen } = await until(url, (page) => page.status === 200, 5000);
    for (const page of seen) if (page.status !== 200) expect(page).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expectConsistent(seen.at(-1)!);
    expect(seen.at(-1)!.ids).toEqual(['E-JAZZ', 'E-VISE', 'E-KOR', 'E-ORGEL', 'E-SALME']);
    for (let i = 0; i < 5; i++) expect((await allEvents(url)).status).toBe(200);
    console.log(`read replicas: answered by the other replica ${Math.round(ms)} ms after it resumed replaying`);
  });
});
