/**
 * Change sync's target (issue 19): a `changes` page of 1,000 events ≤ 20 ms at 100k events.
 *
 * The service runs as a process (`calendar serve`, pinned to CPU 0, response cache off so that every
 * request executes) on the `bench_<N>` schema that bench/read-model.ts seeds (run that first); this
 * process is the load generator. Interleaved, request by request, so that all meet the same load of a
 * shared machine:
 * - a full sync walked page by page (pageSize 1000, the fields a mirror keeps): every page's latency;
 * - the reference: an `events` page of 1000 nodes with the same fields (a fresh `fromDate` each time);
 * - a daily sync: a cursor from 24 hours ago (the time phase: dates that ended, events that left);
 * - a sync with nothing new (a cursor of now): the cost of asking, next to
 * - an `events` page of one node (the cost of any request).
 * Prints p50/p95 of each and their ratio to the reference's.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test taskset -c 1 npx tsx bench/changes.ts
 *   BENCH_SIZE=100000 BENCH_RUNS=100 ...
 */
import { execFileSync } from 'node:child_process';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { encodeChangeCursor } from '../src/domain/change-cursor.js';
import { startPinnedService } from './support/pinned-process.js';
import { postGraphQL } from './support/post-graphql.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL that bench/read-model.ts seeded');
const size = Number(process.env['BENCH_SIZE'] ?? 100_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 100);
const schema = `bench_${size}`;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

const FIELDS = 'id title_nb startDate endDate venue { name } organizers { name } categories images { urlSmall } prices { type price }';
const CHANGES = `query ($since: String) { changes(since: $since, pageSize: 1000) { changed { ${FIELDS} } removedIds cursor hasMore } }`;
const EVENTS = `query ($filter: Filter) { events(filter: $filter, pageSize: 1000) { data { ${FIELDS} } } }`;
const TINY = `query ($filter: Filter) { events(filter: $filter, pageSize: 1) { data { id } } }`;

interface Answer {
  ms: number;
  body: { data?: Record<string, unknown>; errors?: unknown[] };
}

async function post(url: string, query: string, variables: Record<string, unknown>): Promise<Answer> {
  const { ms, text } = await postGraphQL(agent, url, query, variables);
  return { ms, body: JSON.parse(text) as Answer['body'] };
}

interface ChangesAnswer {
  changed: unknown[];
  removedIds: string[];
  cursor: string;
  hasMore: boolean;
}
const changesOf = (a: Answer) => a.body.data!['changes'] as ChangesAnswer;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

const version = execFileSync('psql', [databaseUrl, '-Atc', `select version from ${schema}.calendar_state`], { encoding: 'utf8' }).trim();
const service = await startPinnedService(fileURLToPath(new URL('..', import.meta.url)), {
  DATABASE_URL: databaseUrl,
  DATABASE_SCHEMA: schema,
  DEMO_EVENTS: '0',
  RESPONSE_CACHE: 'off',
  LOG_LEVEL: 'warn',
});
try {
  const url = service.url;
  // Warm-up: the read model's first snapshot, the statements' plans.
  for (let i = 0; i < 5; i++) {
    await post(url, CHANGES, { since: null });
    await post(url, EVENTS, { filter: {} });
  }
  const timings: Record<string, number[]> = { reference: [], fullSync: [], daily: [], nothingNew: [], tinyEventsPage: [] };
  let fullCursor: string | null = null;
  let fullPages = 0;
  let fullEvents = 0;
  let dailyCursor: string | null = null;
  let dailyListed = 0;
  let unique = 0;
  const daily = () => encodeChangeCursor({ from: { version, at: Date.now() - 24 * 3600_000 }, to: null, full: false, phase: 'data', after: null });
  for (let i = 0; i < runs; i++) {
    const reference = await post(url, EVENTS, { filter: { fromDate: new Date(Date.now() + ++unique * 1000).toISOString() } });
    timings['reference']!.push(reference.ms);

    const full = await post(url, CHANGES, { since: fullCursor });
    timings['fullSync']!.push(full.ms);
    const page = changesOf(full);
    fullPages++;
    fullEvents += page.changed.length;
    fullCursor = page.hasMore ? page.cursor : null;

    const day = await post(url, CHANGES, { since: dailyCursor ?? daily() });
    timings['daily']!.push(day.ms);
    const dayPage = changesOf(day);
    dailyListed += dayPage.changed.length + dayPage.removedIds.length;
    dailyCursor = dayPage.hasMore ? dayPage.cursor : null;

    const none = await post(url, CHANGES, { since: encodeChangeCursor({ from: { version, at: Date.now() }, to: null, full: false, phase: 'data', after: null }) });
    timings['nothingNew']!.push(none.ms);

    const tiny = await post(url, TINY, { filter: { fromDate: new Date(Date.now() + ++unique * 1000).toISOString() } });
    timings['tinyEventsPage']!.push(tiny.ms);
  }
  const referenceP95 = percentile(timings['reference']!, 0.95);
  console.log(`change sync at ${size} events (${schema}), ${runs} requests each, interleaved; full sync: ${fullPages} pages, ${fullEvents} events; daily sync: ${dailyListed} ids listed`);
  console.table(
    Object.entries(timings).map(([name, values]) => ({
      scenario: name,
      'p50 ms': percentile(values, 0.5).toFixed(1),
      'p95 ms': percentile(values, 0.95).toFixed(1),
      'p95 / reference p95': (percentile(values, 0.95) / referenceP95).toFixed(2),
    })),
  );
} finally {
  await service.stop();
  agent.destroy();
}
