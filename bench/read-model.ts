/**
 * The `events` read model's targets (issue 11), through the real HTTP server.
 *
 * The service runs as a process (`calendar serve`, pinned to CPU 0) on a schema of the PostgreSQL
 * named by DATABASE_URL, seeded once with the demo generator (kept as `bench_<N>` and reused); this
 * process is the load generator (pin it to CPU 1). Every request asks a filter never seen before (a
 * unique `fromDate`), so no cache of any kind can answer it. Prints one table per calendar size:
 * - cold filter, totals + 3 facets + 20 nodes: p50/p95/p99 at concurrency 1, requests/s at 10;
 * - the same with a literal search, an approximate one, and groupRepetitionsByDay: p95;
 * - the same with `near` (10 km around Oslo), with `municipality` (the venue filter near is compared
 *   with) and with `when: THIS_WEEKEND`, interleaved request by request with the plain cold filter so
 *   that all four meet the same load of a shared machine: p50/p95, and near's and when's p95 over
 *   the plain filter's of the same run;
 * - an uncached default page (20 nodes, no totals): the service's CPU per request;
 * - `suggest` (typeahead, issue 31) for prefixes of 1–6 characters of real names (venues, organizers,
 *   categories, tags, event titles: the same seeded draw every run), each with a fresh `fromDate`, and
 *   the same with `when: THIS_WEEKEND` (a filtered count): p50/p95 and the service's CPU per request;
 * - the read model's build: time and heap, from the service's own log line.
 * Then the embedded database (PGlite) with the 2 000-event demo calendar: p95 of each scenario.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test taskset -c 1 npm run bench
 *   BENCH_SIZES=10000,100000,1000000 ...   # calendar sizes (default 10000,100000)
 *   BENCH_SERVICE_DIR=/tmp/before BENCH_TAG=before_ ...   # another checkout as the service (and seeder), same load,
 *                                                         # on schemas of its own (bench_before_<N>): its migrations differ
 *   BENCH_RUNS=200 BENCH_SECONDS=10 ...     # requests per latency scenario, seconds of the throughput run
 *   BENCH_ONLY=suggest ...                  # the `suggest` rows and the build alone (no `events` scenario, no PGlite)
 */
import { execFileSync } from 'node:child_process';
import { COLD_FILTER_QUERY } from './support/cold-filters.js';
import { ready, startPinnedService, type PinnedProcess } from './support/pinned-process.js';
import { postGraphQL } from './support/post-graphql.js';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './support/process-cpu.js';
import { mulberry32 } from '../src/demo/seeded-random.js';

const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
const databaseUrl = process.env['DATABASE_URL'];
const sizes = (process.env['BENCH_SIZES'] ?? '10000,100000').split(',').map(Number);
const runs = Number(process.env['BENCH_RUNS'] ?? 200);
const throughputSeconds = Number(process.env['BENCH_SECONDS'] ?? 10);
const suggestOnly = process.env['BENCH_ONLY'] === 'suggest';
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

const FULL = COLD_FILTER_QUERY;
const PAGE_ONLY = `query ($filter: Filter) { events(filter: $filter, pageSize: 20) {
  data { id title_nb startDate endDate venue { name } organizers { name } categories images { urlSmall } prices { type price } } } }`;

const SUGGEST = `query ($prefix: String!, $filter: Filter) { suggest(prefix: $prefix, filter: $filter) { kind value label_nb label_en hits } }`;
const NAMES = `{ venues { name } organizers { name } categories { name_nb name_en }
  events(pageSize: 1000) { data { title_nb title_en tags } } }`;

type Service = PinnedProcess;

const startService = (env: Record<string, string>): Promise<Service> => startPinnedService(serviceDir, env);

/** Milliseconds until the whole answer arrived. */
const post = async (url: string, query: string, variables: Record<string, unknown>): Promise<number> => (await postGraphQL(agent, url, query, variables)).ms;

let unique = 0;
/** A filter nobody asked before: a `fromDate` one second later each time. */
const fresh = (filter: Record<string, unknown> = {}) => ({ filter: { ...filter, fromDate: new Date(Date.now() + ++unique * 1000).toISOString() } });
/**
 * The same for a `when` preset, which cannot be combined with fromDate: a `fromStartDate` one second
 * later each time, in 2000 (before every date of the calendar, so it removes nothing).
 */
const freshWhen = (filter: Record<string, unknown>) => ({
  filter: { ...filter, fromStartDate: new Date(Date.UTC(2000, 0, 1) + ++unique * 1000).toISOString() },
});

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const ms = (n: number) => n.toFixed(1);

async function latencies(url: string, query: string, filter: Record<string, unknown>, count: number): Promise<number[]> {
  for (let i = 0; i < 20; i++) await post(url, query, fresh(filter)); // warm-up
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await post(url, query, fresh(filter)));
  return times.sort((a, b) => a - b);
}

/**
 * Latencies of several filters asked in turn (one request of each per round, in rotating order), so
 * that noise from a shared machine falls on all of them alike and their ratios mean something.
 */
async function interleaved(
  url: string,
  cases: Record<string, { filter: Record<string, unknown>; vary?: (filter: Record<string, unknown>) => Record<string, unknown> }>,
  count: number,
): Promise<Record<string, number[]>> {
  const names = Object.keys(cases);
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = -20; round < count; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + 20 + k) % names.length]!;
      const { filter, vary = fresh } = cases[name]!;
      const took = await post(url, FULL, vary(filter));
      if (round >= 0) times[name]!.push(took); // the first 20 rounds warm up
    }
  }
  for (const name of names) times[name]!.sort((a, b) => a - b);
  return times;
}

async function throughput(url: string, concurrency: number, seconds: number): Promise<number> {
  let done = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await post(url, FULL, fresh());
        done++;
      }
    }),
  );
  return done / seconds;
}

async function cpuPerRequest(service: Service, count: number): Promise<number> {
  for (let i = 0; i < 50; i++) await post(service.url, PAGE_ONLY, fresh());
  const before = processCpuMs(service.child.pid!);
  for (let i = 0; i < count; i++) await post(service.url, PAGE_ONLY, fresh());
  return (processCpuMs(service.child.pid!) - before) / count;
}

/**
 * The service's CPU per full request (totals, facets, 20 nodes) of one filter: unlike latencies, hardly
 * moved by other processes of a shared machine, so filters compare fairly.
 */
async function cpuPerFull(service: Service, filter: Record<string, unknown>, vary: (filter: Record<string, unknown>) => Record<string, unknown>, count: number): Promise<number> {
  for (let i = 0; i < 20; i++) await post(service.url, FULL, vary(filter));
  const before = processCpuMs(service.child.pid!);
  for (let i = 0; i < count; i++) await post(service.url, FULL, vary(filter));
  return (processCpuMs(service.child.pid!) - before) / count;
}

/**
 * Prefixes a reader types: the first 1 to 6 characters (evenly) of names drawn from the calendar's
 * venues, organizers, categories, tags and the titles of 1 000 events, with a seeded draw.
 */
async function typedPrefixes(url: string, count: number): Promise<string[]> {
  interface Names {
    venues: { name: string }[];
    organizers: { name: string }[];
    categories: { name_nb: string; name_en: string }[];
    events: { data: { title_nb: string | null; title_en: string | null; tags: string[] }[] };
  }
  const { data } = JSON.parse((await postGraphQL(agent, url, NAMES, {})).text) as { data: Names };
  const names = [
    ...data.venues.map((v) => v.name),
    ...data.organizers.map((o) => o.name),
    ...data.categories.flatMap((c) => [c.name_nb, c.name_en]),
    ...data.events.data.flatMap((e) => [e.title_nb, e.title_en, ...e.tags]),
  ].filter((name): name is string => name !== null && name.trim() !== '');
  const random = mulberry32(31);
  const prefixes: string[] = [];
  while (prefixes.length < count) {
    const prefix = names[Math.floor(random() * names.length)]!.slice(0, 1 + Math.floor(random() * 6));
    if (prefix.trim() !== '') prefixes.push(prefix);
  }
  return prefixes;
}

/** `suggest` for each prefix in turn, each with a filter never seen before: latencies, sorted, and the service's CPU per request. */
async function suggestions(service: Service, prefixes: readonly string[], filter: Record<string, unknown>, vary: (filter: Record<string, unknown>) => Record<string, unknown>): Promise<{ times: number[]; cpuMs: number }> {
  for (const prefix of prefixes.slice(0, 20)) await post(service.url, SUGGEST, { prefix, ...vary(filter) });
  const times: number[] = [];
  const before = processCpuMs(service.child.pid!);
  for (const prefix of prefixes) times.push(await post(service.url, SUGGEST, { prefix, ...vary(filter) }));
  const cpuMs = (processCpuMs(service.child.pid!) - before) / prefixes.length;
  return { times: times.sort((a, b) => a - b), cpuMs };
}

/** The service's last "read model built" log line, if this version logs one. */
function buildLine(log: string): Record<string, unknown> | undefined {
  const lines = log.split('\n').filter((l) => l.includes('"read model built"'));
  return lines.length > 0 ? (JSON.parse(lines.at(-1)!) as Record<string, unknown>) : undefined;
}


async function scenarios(service: Service): Promise<Record<string, string>> {
  await ready(service);
  const full = await latencies(service.url, FULL, {}, runs);
  const literal = await latencies(service.url, FULL, { searchTerm: 'konsert' }, Math.ceil(runs / 2));
  const approximate = await latencies(service.url, FULL, { searchTerm: 'konsrt' }, Math.ceil(runs / 2));
  const grouped = await latencies(service.url, FULL, { groupRepetitionsByDay: true }, Math.ceil(runs / 2));
  const mixed = await interleaved(
    service.url,
    {
      plain: { filter: {} },
      near: { filter: { near: { latitude: 59.9139, longitude: 10.7522, radiusKm: 10 } } },
      municipality: { filter: { municipality: 'Oslo' } },
      when: { filter: { when: 'THIS_WEEKEND' }, vary: freshWhen },
    },
    runs,
  );
  const { plain, near, municipality, when } = mixed as Record<'plain' | 'near' | 'municipality' | 'when', number[]>;
  const ratio = (times: number[]) => (percentile(times, 0.95) / percentile(plain, 0.95)).toFixed(2);
  return {
    'cold filter p50': ms(percentile(full, 0.5)),
    'p95': ms(percentile(full, 0.95)),
    'p99': ms(percentile(full, 0.99)),
    'literal search p95': ms(percentile(literal, 0.95)),
    'approximate p95': ms(percentile(approximate, 0.95)),
    'grouped p95': ms(percentile(grouped, 0.95)),
    'interleaved: plain p50/p95': `${ms(percentile(plain, 0.5))}/${ms(percentile(plain, 0.95))}`,
    'near p50/p95': `${ms(percentile(near, 0.5))}/${ms(percentile(near, 0.95))}`,
    'municipality p50/p95': `${ms(percentile(municipality, 0.5))}/${ms(percentile(municipality, 0.95))}`,
    'when p50/p95': `${ms(percentile(when, 0.5))}/${ms(percentile(when, 0.95))}`,
    'near/plain p95': ratio(near),
    'when/plain p95': ratio(when),
  };
}

if (!databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL (the bench seeds schemas bench_<N> there)');
const rows: Record<string, string | number>[] = [];
for (const size of sizes) {
  const schema = `bench_${process.env['BENCH_TAG'] ?? ''}${size}`;
  const env = { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, DEMO_EVENTS: '0' };
  // No schema yet (psql fails): nothing seeded.
  const count = Number(
    (() => {
      try {
        return execFileSync('psql', [databaseUrl, '-Atc', `select count(*) from ${schema}.events`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      } catch {
        return '0';
      }
    })() || '0',
  );
  if (count < size) {
    const started = performance.now();
    // The demo generator is deterministic: every version seeds the same calendar (for the same day).
    execFileSync(process.execPath, ['bin/calendar.js', 'seed', '--events', String(size), '--replace'], {
      cwd: serviceDir,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    execFileSync('psql', [databaseUrl, '-qc', `vacuum analyze`], { stdio: 'ignore' });
    console.error(`seeded ${size} events into ${schema} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const service = await startService(env);
  try {
    const row: Record<string, string | number> = { events: size };
    if (suggestOnly) await ready(service);
    else {
      Object.assign(row, await scenarios(service));
      row['req/s at 10'] = (await throughput(service.url, 10, throughputSeconds)).toFixed(1);
      row['CPU ms/page'] = (await cpuPerRequest(service, Math.min(runs * 2, 500))).toFixed(2);
      const cpuRuns = Math.min(runs * 2, 500);
      const plainCpu = await cpuPerFull(service, {}, fresh, cpuRuns);
      const nearCpu = await cpuPerFull(service, { near: { latitude: 59.9139, longitude: 10.7522, radiusKm: 10 } }, fresh, cpuRuns);
      const whenCpu = await cpuPerFull(service, { when: 'THIS_WEEKEND' }, freshWhen, cpuRuns);
      row['CPU ms/full: plain, near, when'] = [plainCpu, nearCpu, whenCpu].map((n) => n.toFixed(2)).join(', ');
    }
    const prefixes = await typedPrefixes(service.url, Math.max(runs * 2, 400));
    const typed = await suggestions(service, prefixes, {}, fresh);
    const typedWhen = await suggestions(service, prefixes, { when: 'THIS_WEEKEND' }, freshWhen);
    row['suggest p50/p95'] = `${ms(percentile(typed.times, 0.5))}/${ms(percentile(typed.times, 0.95))}`;
    row['suggest when p50/p95'] = `${ms(percentile(typedWhen.times, 0.5))}/${ms(percentile(typedWhen.times, 0.95))}`;
    row['suggest CPU ms: plain, when'] = [typed.cpuMs, typedWhen.cpuMs].map((n) => n.toFixed(2)).join(', ');
    const built = buildLine(service.log());
    if (built) {
      row['build s'] = (Number(built['ms']) / 1000).toFixed(2);
      row['heap MB'] = String(built['heapGrowthMB']);
    }
    rows.push(row);
  } finally {
    await service.stop();
  }
  console.table(rows);
}

// The embedded database: the quick start's own calendar.
if (!suggestOnly) {
  const embedded = await startService({ DATABASE_URL: '', CALENDAR_DATA_DIR: 'memory://', DEMO_EVENTS: '2000' });
  try {
    const row = await scenarios(embedded);
    console.log('\nPGlite, 2 000-event demo calendar (ms):');
    console.table([row]);
  } finally {
    await embedded.stop();
  }
}
agent.destroy();
