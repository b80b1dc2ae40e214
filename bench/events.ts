/**
 * Latency of the `events` query at 100k events: seeds the demo calendar into a fresh schema of the
 * PostgreSQL named by DATABASE_URL (or the embedded PGlite when unset), then runs each scenario
 * through the service's Envelop pipeline and prints p50/p95 twice:
 * - warm: the filter's total and facets are kept from an earlier request (they hold until the
 *   result can next change), as are the catalogues; the page itself is always read anew;
 * - cold: a fresh service for each run, as on the first request of a filter after a start or an
 *   import: total, facets and catalogues are read too.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench
 *   BENCH_EVENTS=20000 BENCH_RUNS=50 npm run bench
 *   BENCH_SCHEMA=perf npm run bench   # seed once into schema perf, reuse it on later runs (kept)
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { dropSchema, migrateToLatest, openDatabase } from '../src/db/open-database.js';
import { generateDemoCalendar } from '../src/import/demo-calendar.js';
import { importCalendar } from '../src/import/import-calendar.js';
import { createEnveloped } from '../src/plugins/index.js';
import { buildExecutableSchema } from '../src/schema/executable-schema.js';
import { createLogger } from '../src/logger.js';

const events = Number(process.env['BENCH_EVENTS'] ?? 100_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 100);
const coldRuns = Number(process.env['BENCH_COLD_RUNS'] ?? 20);
const url = process.env['DATABASE_URL'] || undefined;
const keptSchema = process.env['BENCH_SCHEMA'];
const schema = keptSchema ?? `bench_${Date.now().toString(36)}`;
const now = new Date();

const PAGE = `query ($filter: Filter, $page: Int, $pageSize: Int) {
  events(filter: $filter, page: $page, pageSize: $pageSize) {
    totalCount hasMore
    data { id title_nb startDate endDate venue { name } organizers { name } categories images { urlSmall focusX } prices { type price } repetitions { startDate } }
    venues { id hits } organizers { id hits } categories { id hits }
  } }`;

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const inDays = (n: number) => new Date(now.getTime() + n * 86_400_000);

const scenarios: { name: string; query: string; variables: Record<string, unknown> }[] = [
  { name: 'default first page', query: PAGE, variables: {} },
  { name: 'category + date window', query: PAGE, variables: { filter: { categories: ['CONCERT'], fromDate: iso(inDays(7)), untilDate: iso(inDays(21)) } } },
  { name: 'groupRepetitionsByDay, one week', query: PAGE, variables: { filter: { groupRepetitionsByDay: true, untilDate: iso(inDays(7)) } } },
  { name: 'page 50', query: PAGE, variables: { page: 50 } },
  { name: 'search, literal (konsert)', query: PAGE, variables: { filter: { searchTerm: 'konsert' } } },
  { name: 'search, approximate (konsrt)', query: PAGE, variables: { filter: { searchTerm: 'konsrt' } } },
  { name: 'pageSize 250', query: PAGE, variables: { pageSize: 250 } },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const database = await openDatabase({ url, dataDir: 'memory://', schema });
try {
  await migrateToLatest(database.db);
  const existing = await database.db.selectFrom('events').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  if (keptSchema && Number(existing.n) > 0) {
    console.log(`${database.driver}: reusing ${existing.n} events in schema ${schema}`);
  } else {
    const seedStart = performance.now();
    await importCalendar(database.db, generateDemoCalendar({ events, seed: 1, today: now }));
    await sql`analyze`.execute(database.db);
    console.log(`${database.driver}: seeded ${events} events in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  }

  const schemaOnce = buildExecutableSchema();
  // A fresh service keeps nothing: no summaries, no catalogues.
  const freshService = () =>
    createEnveloped({
      schema: schemaOnce,
      db: database.db,
      logger: createLogger('silent'),
      clock: () => now,
      eventLinkBase: 'https://kalender.example.no/arrangement',
    });
  let getEnveloped = freshService();
  const execute = async (query: string, variables: Record<string, unknown>) => {
    const { parse, validate, contextFactory, execute: run, schema: s } = getEnveloped({});
    const document = parse(query);
    const errors = validate(s, document);
    if (errors.length > 0) throw errors[0];
    const result = (await run({ schema: s, document, contextValue: await contextFactory(), variableValues: variables })) as { errors?: unknown[] };
    if (result.errors) throw new Error(JSON.stringify(result.errors));
  };

  const columns = ['warm p50', 'warm p95', 'cold p50', 'cold p95'];
  console.log(`${'scenario'.padEnd(34)} ${columns.map((c) => c.padStart(9)).join(' ')}`);
  const timed = async (count: number, scenario: (typeof scenarios)[number], before: (i: number) => void) => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      before(i);
      const start = performance.now();
      await execute(scenario.query, scenario.variables);
      times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b);
  };
  for (const scenario of scenarios) {
    for (let i = 0; i < 5; i++) await execute(scenario.query, scenario.variables);
    const warm = await timed(runs, scenario, () => {});
    const cold = await timed(coldRuns, scenario, () => {
      getEnveloped = freshService();
    });
    const figures = [percentile(warm, 50), percentile(warm, 95), percentile(cold, 50), percentile(cold, 95)];
    console.log(`${scenario.name.padEnd(34)} ${figures.map((f) => f.toFixed(1).padStart(9)).join(' ')}`);
  }
} finally {
  if (url && !keptSchema) await dropSchema(database.db, schema);
  await database.close();
}
