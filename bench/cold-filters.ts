/**
 * Cold filters per shape, this checkout against another ("before"), in the same run: the service's CPU
 * per request and its latency, for each filter shape `npm run bench` asks (plain, category, venue,
 * organizer, search, near, when, grouped), then the plain filter's p95 at concurrency 1 and requests/s
 * at concurrency 10.
 *
 * Both services run at once on the same seeded schema (`bench_<N>`, as bench/read-model.ts seeds it),
 * each pinned to CPU 0; only one is asked at a time, in turns (before, after, after, before, ...), so
 * that a busy machine's noise falls on both alike. Every request asks a filter never seen before (a
 * unique fromDate, or fromStartDate for `when`): totals + 3 facets + a 20-node page. Figures are
 * medians over rounds; compare the ratios, not the absolutes. Pin this process to the other CPU:
 *
 *   git worktree add /tmp/before main && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test BENCH_BEFORE_DIR=/tmp/before \
 *     taskset -c 1 npx tsx bench/cold-filters.ts
 *   BENCH_SIZES=100000,1000000 BENCH_ROUNDS=5 BENCH_REQUESTS=100 BENCH_SECONDS=5 ...
 * The checkouts must accept the same schema (the same migrations); without BENCH_BEFORE_DIR only this
 * checkout is measured.
 */
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { COLD_FILTER_QUERY, COLD_FILTER_SHAPES } from './support/cold-filters.js';
import { ready, startPinnedService, type PinnedProcess } from './support/pinned-process.js';
import { postGraphQL } from './support/post-graphql.js';
import { processCpuMs } from './support/process-cpu.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL with seeded bench_<N> schemas (npm run bench seeds them)');
const afterDir = fileURLToPath(new URL('..', import.meta.url));
const beforeDir = process.env['BENCH_BEFORE_DIR'];
const sizes = (process.env['BENCH_SIZES'] ?? '100000').split(',').map(Number);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
const requests = Number(process.env['BENCH_REQUESTS'] ?? 100);
const seconds = Number(process.env['BENCH_SECONDS'] ?? 5);
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

const FULL = COLD_FILTER_QUERY;
const SHAPES: Record<string, Record<string, unknown>> = COLD_FILTER_SHAPES;

let unique = 0;
/** A filter never asked before: a fromDate one second later each time (`when` takes no fromDate: a fromStartDate in 2000, which removes nothing). */
const fresh = (shape: Record<string, unknown>) =>
  shape['when']
    ? { filter: { ...shape, fromStartDate: new Date(Date.UTC(2000, 0, 1) + ++unique * 1000).toISOString() } }
    : { filter: { ...shape, fromDate: new Date(Date.now() + ++unique * 1000).toISOString() } };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;


/** CPU per request (ms) and the latencies of `count` requests of one shape, one at a time. */
async function measure(service: PinnedProcess, shape: Record<string, unknown>, count: number): Promise<{ cpu: number; times: number[] }> {
  for (let i = 0; i < 10; i++) await postGraphQL(agent, service.url, FULL, fresh(shape));
  const before = processCpuMs(service.child.pid!);
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push((await postGraphQL(agent, service.url, FULL, fresh(shape))).ms);
  return { cpu: (processCpuMs(service.child.pid!) - before) / count, times };
}

async function throughput(service: PinnedProcess, concurrency: number): Promise<number> {
  let done = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await postGraphQL(agent, service.url, FULL, fresh({}));
        done++;
      }
    }),
  );
  return done / seconds;
}

for (const size of sizes) {
  // A long deadline: at 1M events the checkout before may queue requests past the default 6 s at concurrency 10.
  const env = { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: `bench_${size}`, DEMO_EVENTS: '0', LOG_LEVEL: 'warn', REQUEST_TIMEOUT_MS: '60000' };
  const services: Record<string, PinnedProcess> = {};
  try {
    if (beforeDir) services['before'] = await startPinnedService(beforeDir, env);
    services['after'] = await startPinnedService(afterDir, env);
    for (const service of Object.values(services)) await ready(service);
    const names = Object.keys(services);
    const cpu: Record<string, Record<string, number[]>> = {};
    const p50: Record<string, Record<string, number[]>> = {};
    const plainTimes: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const rates: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < rounds; round++) {
      // Turns alternate each round: before, after; after, before; ...
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const [shapeName, shape] of Object.entries(SHAPES)) {
        for (const name of order) {
          const { cpu: perRequest, times } = await measure(services[name]!, shape, requests);
          ((cpu[shapeName] ??= {})[name] ??= []).push(perRequest);
          ((p50[shapeName] ??= {})[name] ??= []).push(median(times));
          if (shapeName === 'plain') plainTimes[name]!.push(...times);
        }
      }
      for (const name of order) rates[name]!.push(await throughput(services[name]!, 10));
      console.error(`${size}: round ${round + 1} of ${rounds} done`);
    }
    const rows = Object.keys(SHAPES).map((shapeName) => {
      const row: Record<string, string> = { shape: shapeName };
      for (const name of names) {
        row[`${name} CPU ms`] = median(cpu[shapeName]![name]!).toFixed(2);
        row[`${name} p50 ms`] = median(p50[shapeName]![name]!).toFixed(1);
      }
      if (beforeDir) row['CPU after/before'] = (median(cpu[shapeName]!['after']!) / median(cpu[shapeName]!['before']!)).toFixed(2);
      return row;
    });
    console.log(`\n${size} events: cold filter per shape (medians of ${rounds} rounds of ${requests} requests)`);
    console.table(rows);
    console.table(
      names.map((name) => ({
        service: name,
        'plain p50 ms (c=1)': percentile(plainTimes[name]!, 0.5).toFixed(1),
        'plain p95 ms (c=1)': percentile(plainTimes[name]!, 0.95).toFixed(1),
        'plain req/s at c=10 (median)': median(rates[name]!).toFixed(0),
      })),
    );
  } finally {
    for (const service of Object.values(services)) await service.stop();
  }
}
agent.destroy();
