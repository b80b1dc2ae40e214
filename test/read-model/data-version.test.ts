import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { runCalendar } from '../cli/calendar-process.js';
import { createGraphQLRunner, type GraphQLRunner } from '../support/graphql-runner.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { scrape } from '../support/prometheus-metrics.js';
import { postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';

const NOW = new Date('2026-06-01T12:00:00+02:00');

/** A calendar of `count` events whose titles all say which calendar they belong to. */
function calendarOf(family: 'Alpha' | 'Beta', count: number) {
  return {
    categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
    venues: [{ id: 'V-1', slug: 'v-1', name: 'Scene', address: null, postalCode: null, municipality: 'Oslo', location: null }],
    organizers: [],
    events: Array.from({ length: count }, (_, i) => ({
      id: `T-${String(i).padStart(3, '0')}`,
      slug: `t-${i}`,
      title_nb: `${family} ${i}`,
      title_en: null,
      categories: ['CONCERT'],
      organizers: [],
      venue: 'V-1',
      ticketsInformation: 'noTicketsInfo',
      dates: [
        { start: `2026-06-${String(2 + (i % 20)).padStart(2, '0')}T19:00:00+02:00`, end: `2026-06-${String(2 + (i % 20)).padStart(2, '0')}T21:00:00+02:00` },
        { start: `2026-07-${String(2 + (i % 20)).padStart(2, '0')}T19:00:00+02:00`, end: null },
      ],
    })),
  };
}
const ALPHA = 40;
const BETA = 33;

interface Page {
  totalCount: number;
  hasMore: boolean;
  data: { id: string; title_nb: string; repetitions: { startDate: string }[] }[];
}
const PAGE = `query ($page: Int) { events(page: $page, pageSize: 7) { totalCount hasMore data { id title_nb repetitions { startDate } } } }`;

describe(`read model (${databaseLabel}): one data version per answer`, () => {
  let database: DatabaseHandle;
  let run: GraphQLRunner;
  beforeAll(async () => {
    database = await createTestDatabase();
    await importCalendar(database, calendarOf('Alpha', ALPHA), { replace: true });
    run = createGraphQLRunner(database, () => NOW);
  });
  afterAll(async () => {
    await run?.close();
    await database?.close();
  });

  it('never answers a torn page while imports replace the calendar', async () => {
    let importing = true;
    let imports = 0;
    const importer = (async () => {
      try {
        for (let round = 0; round < 12; round++) {
          await importCalendar(database, round % 2 === 0 ? calendarOf('Beta', BETA) : calendarOf('Alpha', ALPHA), { replace: true });
          imports++;
          // Imports minutes apart in real life; here only long enough for a page to be answered in between.
          await new Promise((resolve) => setTimeout(resolve, 60));
        }
      } finally {
        importing = false;
      }
    })();
    const seen = new Set<number>();
    let answers = 0;
    const reader = async (offset: number) => {
      for (let i = offset; importing; i++) {
        const page = i % 7;
        const result = await run(PAGE, { page });
        // Overtaken by imports at every try (a slow machine): told to retry, never a torn page.
        if (result.errors?.[0]?.message.includes('updated 4 times')) continue;
        expect(result.errors).toBeUndefined();
        const answer = (result.data as { events: Page }).events;
        const family = answer.totalCount === ALPHA ? 'Alpha' : 'Beta';
        // Totals, nodes, records and repetitions all of one version.
        expect([ALPHA, BETA]).toContain(answer.totalCount);
        expect(answer.data).toHaveLength(Math.max(0, Math.min(7, answer.totalCount - page * 7)));
        expect(answer.hasMore).toBe(answer.totalCount > (page + 1) * 7);
        for (const node of answer.data) {
          expect(node.title_nb.startsWith(family)).toBe(true);
          expect(node.repetitions).toHaveLength(1);
        }
        seen.add(answer.totalCount);
        answers++;
      }
    };
    await Promise.all([importer, reader(0), reader(3), reader(5)]);
    expect(imports).toBe(12);
    expect(seen).toEqual(new Set([ALPHA, BETA]));
    expect(answers).toBeGreaterThan(24);
  });

  it('runs no statement for a request with invalid arguments', async () => {
    let statements = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        statements++;
        return Promise.resolve(args.result);
      },
    };
    const counted = createGraphQLRunner({ ...database, db: database.db.withPlugin(counter) }, () => NOW);
    onTestFinished(() => counted.close());
    await counted(PAGE, { page: 0 });
    statements = 0;
    const result = await counted(`{ events(filter: { fromDate: "tomorrow-ish", hoursRange: "25:00-26:00" }, pageSize: 5000) { totalCount } }`);
    await counted.close();
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.extensions?.['invalidArgs']).toEqual(['fromDate', 'hoursRange', 'pageSize']);
    expect(statements).toBe(0);
  });
});

describe(`read model (${databaseLabel}): a request that imports keep overtaking`, () => {
  let database: DatabaseHandle;
  let server: TestServer;
  /** While set, an "import" lands right after every search statement: the page's next statement sees a newer version. */
  let overtaking = false;
  let landed = 0;
  beforeAll(async () => {
    database = await createTestDatabase();
    await importCalendar(database, calendarOf('Alpha', ALPHA), { replace: true });
    const importLands: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        const row = args.result.rows[0];
        // The search statement (search-matches.ts) is the one whose rows are exactly (version, id, segment).
        if (overtaking && row && Object.keys(row).sort().join() === 'id,segment,version') {
          await sql`update calendar_state set version = version + 1`.execute(database.db);
          landed++;
        }
        return args.result;
      },
    };
    const db = database.db.withPlugin(importLands);
    server = await startTestServer({ database: { ...database, db, readDb: db }, clock: () => NOW, dataVersionPollMs: 600_000 });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it('answers 503 with Retry-After after four tries (GraphQL and the feed), then answers again', async () => {
    const query = { query: '{ events(filter: { searchTerm: "Alpha" }, pageSize: 3) { totalCount data { title_nb } } }' };
    const feed = `${server.origin}/events.ics?searchTerm=Alpha`;
    overtaking = true;
    const page = await postGraphQL(server.url, query);
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('5');
    const errors = (page.body as { errors: { message: string; extensions: Record<string, unknown> }[] }).errors;
    expect(errors[0]!.extensions['code']).toBe('SERVICE_UNAVAILABLE');
    expect(errors[0]!.message).toMatch(/updated 4 times/);
    expect(landed).toBe(4);
    const unavailableFeed = await fetch(feed);
    expect(unavailableFeed.status).toBe(503);
    expect(unavailableFeed.headers.get('retry-after')).toBe('5');
    expect(unavailableFeed.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await unavailableFeed.text()).toMatch(/updated 4 times/);

    overtaking = false;
    const answered = await postGraphQL(server.url, query);
    expect(answered.status).toBe(200);
    expect((answered.body as { data: { events: { totalCount: number } } }).data.events.totalCount).toBe(ALPHA);
    const renderedFeed = await fetch(feed);
    expect(renderedFeed.status).toBe(200);
    expect((await renderedFeed.text()).match(/BEGIN:VEVENT/g)?.length).toBeGreaterThan(0);
  });
});

describe(`read model (${databaseLabel}): a service that runs for days without an import`, () => {
  it('reads the same data version afresh after a while, dropping the dates that ended meanwhile', async () => {
    let now = NOW;
    // "A day" shortened to 1 s of real time; the service clock moves as the test says.
    const server = await startTestServer({ calendar: calendarOf('Alpha', 5), clock: () => now, dataVersionPollMs: 50, readModelRereadMs: 1000 });
    try {
      const builds = async () => (await scrape(server.origin)).value('calendar_read_model_build_seconds');
      const query = { query: '{ events { totalCount } }' };
      expect((await postGraphQL(server.url, query)).body).toEqual({ data: { events: { totalCount: 5 } } });
      const before = await builds();
      now = new Date(NOW.getTime() + 25 * 3_600_000);
      const deadline = Date.now() + 5000;
      while ((await builds()) === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await builds()).toBe(before + 1);
      expect((await postGraphQL(server.url, query)).body).toEqual({ data: { events: { totalCount: 5 } } });
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!process.env['DATABASE_URL'])('read model (PostgreSQL): imports announced by NOTIFY', () => {
  let first: TestServer;
  let secondHandle: DatabaseHandle;
  let second: TestServer;
  let dir: string;
  beforeAll(async () => {
    // The poll is pushed out of the way: only NOTIFY can tell these services of an import in time.
    first = await startTestServer({ calendar: calendarOf('Alpha', ALPHA), clock: () => NOW, dataVersionPollMs: 600_000 });
    secondHandle = await openDatabase({ url: process.env['DATABASE_URL'], dataDir: 'memory://', schema: first.database.schema, poolSize: 2 });
    second = await startTestServer({ database: secondHandle, clock: () => NOW, dataVersionPollMs: 600_000 });
    dir = await mkdtemp(join(tmpdir(), 'calendar-notify-'));
  });
  afterAll(async () => {
    await second?.close();
    await secondHandle?.close();
    await first?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const totalOn = async (server: TestServer): Promise<number> => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ events { totalCount } }' }),
    });
    return ((await response.json()) as { data: { events: { totalCount: number } } }).data.events.totalCount;
  };
  /** Milliseconds until both services answer `total`, after the import has returned. */
  const visibleOnBoth = async (total: number): Promise<number> => {
    const started = Date.now();
    while (Date.now() - started < 5000) {
      const [a, b] = await Promise.all([totalOn(first), totalOn(second)]);
      if (a === total && b === total) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Number.POSITIVE_INFINITY;
  };
  const importThroughCli = async (family: 'Alpha' | 'Beta', count: number) => {
    const file = join(dir, `${family}.json`);
    await writeFile(file, JSON.stringify(calendarOf(family, count)));
    const result = await runCalendar(['import', '--replace', file], { DATABASE_URL: process.env['DATABASE_URL']!, DATABASE_SCHEMA: first.database.schema, LOG_LEVEL: 'warn' });
    expect(result.code, result.stderr).toBe(0);
  };

  it('shows a CLI import on both services within a second, also after the notice connection was killed', async () => {
    expect(await totalOn(first)).toBe(ALPHA);
    expect(await totalOn(second)).toBe(ALPHA);
    await importThroughCli('Beta', BETA);
    expect(await visibleOnBoth(BETA)).toBeLessThan(1000);

    // Kill the LISTEN connections; they come back on their own and read what they may have missed.
    const { rows } = await sql<{ killed: boolean }>`
      select pg_terminate_backend(pid) as killed from pg_stat_activity
      where datname = current_database() and query ilike 'listen calendar_data_version%'`.execute(first.database.db);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await importThroughCli('Alpha', ALPHA);
    expect(await visibleOnBoth(ALPHA)).toBeLessThan(1000);
  });
});
