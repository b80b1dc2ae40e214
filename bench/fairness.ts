/**
 * Issue 29's figures: does one greedy caller take the service from a polite one? `calendar serve`
 * (pinned to CPU 0, `TRUST_PROXY=loopback` so that this process can speak for many addresses) on a
 * PostgreSQL schema of BENCH_EVENTS demo events (`bench_fair_<N>`, seeded by the service the first
 * time); this process (pin it to CPU 1) is every caller. Every request is a cold `events` page (a
 * fresh `fromDate`, totals, three facets, 20 nodes): it must execute.
 *
 * 1. polite alone: 150 pages one after another from 203.0.113.20;
 * 2. the same while a greedy caller (203.0.113.10) keeps 64 pages in flight (BENCH_GREED_SECONDS);
 * 3. the same while the greed comes from one address with 20 keys; 4. from 50 addresses;
 * 5. saturation by one caller alone: 50 in flight, p99/p50.
 * Prints p50/p95/max of the polite caller, its failures, and what the greedy got (answers/s, 429s).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test taskset -c 1 npx tsx bench/fairness.ts
 *   BENCH_SERVICE_DIR=/tmp/before ...   # another checkout, same load (its TRUST_PROXY ignored if it has none)
 *   BENCH_EVENTS=100000 BENCH_GREED_SECONDS=30 BENCH_SERVICE_ENV='EXECUTION_SLOTS=2 MAX_IN_FLIGHT_PER_CALLER=16'
 */
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/db/open-database.js';
import { importCalendar } from '../src/import/import-calendar.js';
import { startPinnedService } from './support/pinned-process.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL the bench may create its schema in');
const events = Number(process.env['BENCH_EVENTS'] ?? 100_000);
const greedSeconds = Number(process.env['BENCH_GREED_SECONDS'] ?? 30);
const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
const extraEnv = Object.fromEntries((process.env['BENCH_SERVICE_ENV'] ?? '').split(/\s+/).filter(Boolean).map((pair) => pair.split('=') as [string, string]));
const schema = `bench_fair_${events}`;

const PAGE = `query ($filter: Filter) { events(filter: $filter, pageSize: 20) {
  totalCount hasMore data { id title_nb startDate venue { name } organizers { name } categories }
  venues { id hits } organizers { id hits } categories { id hits } } }`;

const service = await startPinnedService(serviceDir, {
  DATABASE_URL: databaseUrl,
  DATABASE_SCHEMA: schema,
  DEMO_EVENTS: String(events),
  LOG_LEVEL: 'warn',
  TRUST_PROXY: 'loopback',
  ...extraEnv,
});
const url = service.url;
const db = await openDatabase({ url: databaseUrl, schema, dataDir: '', poolSize: 2 });

interface Outcome {
  ms: number;
  status: number;
}

let unique = 0;
const base = Date.parse('2026-11-28T00:00:00Z');
/** One cold page: a `fromDate` nobody asked before. */
function coldPage(agent: Agent, headers: Record<string, string>): Promise<Outcome> {
  unique += 1;
  const body = JSON.stringify({ query: PAGE, variables: { filter: { fromDate: new Date(base - unique * 1000).toISOString() } } });
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
    req.on('error', () => resolve({ ms: performance.now() - started, status: 0 }));
    req.end(body);
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The polite caller: `count` pages one after another. */
async function polite(count = 150): Promise<{ p50: number; p95: number; max: number; failed: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ms: number[] = [];
  let failed = 0;
  for (let i = 0; i < count; i++) {
    const outcome = await coldPage(agent, { 'x-forwarded-for': '203.0.113.20' });
    if (outcome.status === 200) ms.push(outcome.ms);
    else failed += 1;
  }
  agent.destroy();
  return { p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), max: Math.max(...ms), failed };
}

/** `connections` loops of cold pages until stopped, each with the headers `who(i)` gives; answers and 429s per second. */
function greed(connections: number, who: (i: number) => Record<string, string>): { stop: () => Promise<{ answered: number; refused: number; other: number; ms: number[]; seconds: number }> } {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let running = true;
  const started = performance.now();
  const tally = { answered: 0, refused: 0, other: 0, ms: [] as number[] };
  const loops = Array.from({ length: connections }, async (_, i) => {
    while (running) {
      const outcome = await coldPage(agent, who(i));
      if (outcome.status === 200) {
        tally.answered += 1;
        tally.ms.push(outcome.ms);
      } else if (outcome.status === 429) {
        tally.refused += 1;
        await sleep(5);
      } else tally.other += 1;
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      agent.destroy();
      return { ...tally, seconds: (performance.now() - started) / 1000 };
    },
  };
}

const f = (n: number) => n.toFixed(1);
async function underGreed(label: string, who: (i: number) => Record<string, string>): Promise<void> {
  const greedy = greed(64, who);
  await sleep(2_000);
  const politeStarted = performance.now();
  const result = await polite();
  const politeSeconds = (performance.now() - politeStarted) / 1000;
  await sleep(Math.max(0, greedSeconds * 1000 - 2_000 - politeSeconds * 1000));
  const g = await greedy.stop();
  console.log(
    `${label}: polite p50 ${f(result.p50)} / p95 ${f(result.p95)} / max ${f(result.max)} ms, ${result.failed} failed; ` +
      `greedy ${f(g.answered / g.seconds)} answers/s (p50 ${f(percentile(g.ms, 0.5))} ms), ${g.refused} × 429, ${g.other} other`,
  );
}

try {
  // 20 keys for the greedy caller.
  const keys = Array.from({ length: 20 }, (_, i) => `hsk_bench_fairness_${String(i).padStart(2, '0')}_a1b2c3d4`);
  await importCalendar(db, { apiKeys: keys.map((key, i) => ({ key, application: `Bench greedy ${i}`, revoked: false })) });

  // Warm-up: the code paths, the pools, the JIT.
  const warm = greed(4, () => ({ 'x-forwarded-for': '192.0.2.1' }));
  await sleep(5_000);
  await warm.stop();

  const alone = await polite();
  console.log(`${events} events; service ${serviceDir}; ${JSON.stringify(extraEnv)}`);
  console.log(`polite alone: p50 ${f(alone.p50)} / p95 ${f(alone.p95)} / max ${f(alone.max)} ms, ${alone.failed} failed`);
  await underGreed('greedy, one address', () => ({ 'x-forwarded-for': '203.0.113.10' }));
  await underGreed('greedy, one address, 20 keys', (i) => ({ 'x-forwarded-for': '203.0.113.10', 'x-api-key': keys[i % keys.length]! }));
  await underGreed('greedy, 50 addresses', (i) => ({ 'x-forwarded-for': `198.51.100.${(i % 50) + 1}` }));

  // Saturation by one caller.
  const saturating = greed(50, () => ({ 'x-forwarded-for': '203.0.113.30' }));
  await sleep(greedSeconds * 1000);
  const s = await saturating.stop();
  const p50 = percentile(s.ms, 0.5);
  const p99 = percentile(s.ms, 0.99);
  console.log(`saturation, one caller, 50 in flight: ${f(s.answered / s.seconds)} answers/s, p50 ${f(p50)} / p99 ${f(p99)} ms, p99/p50 ${(p99 / p50).toFixed(2)}, ${s.refused} × 429, ${s.other} other`);
} finally {
  await db.close();
  await service.stop();
}
