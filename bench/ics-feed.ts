/**
 * GET /events.ics (issue 19, item 1) through the real HTTP server, at 100k events.
 *
 * The service runs as a process (`calendar serve`, pinned to CPU 0) on the schema `bench_<N>` of the
 * PostgreSQL named by DATABASE_URL, seeded by bench/read-model.ts (run that first: this bench does
 * not seed); this process is the load generator (pin it to CPU 1). Prints:
 * - an uncached feed of about 500 dates (a venue's concerts up to an `untilDate` found by probing),
 *   every request made unique by a `fromStartDate` in 2000 (before every date: it removes nothing),
 *   interleaved request by request with the `events` query of the same filter (totals, three facets,
 *   20 nodes: the read model's reference scenario), so both meet the same load: p50/p95 and the ratio;
 * - the feed from the cache (the same URL again and again) next to a cached `events` POST: p50/p95.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test taskset -c 1 npx tsx bench/ics-feed.ts
 *   BENCH_SIZE=100000 BENCH_RUNS=200 BENCH_VENUE=operaen BENCH_CATEGORY=CONCERT ...
 */
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startPinnedService } from './support/pinned-process.js';

const serviceDir = fileURLToPath(new URL('..', import.meta.url));
const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL holding bench_<N> (seeded by bench/read-model.ts)');
const size = Number(process.env['BENCH_SIZE'] ?? 100_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 200);
const venue = process.env['BENCH_VENUE'] ?? 'operaen';
const category = process.env['BENCH_CATEGORY'] ?? 'CONCERT';
const TARGET_DATES = 500;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

const FULL = `query ($filter: Filter) { events(filter: $filter, pageSize: 20) {
  totalCount hasMore pageInfo { totalPages }
  data { id title_nb startDate endDate venue { name } organizers { name } categories images { urlSmall } prices { type price } }
  venues { id hits } organizers { id hits } categories { id hits } } }`;

interface Answer {
  ms: number;
  status: number;
  body: string;
}

function send(url: string, method: 'GET' | 'POST', body?: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {};
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function ok(answer: Promise<Answer>): Promise<Answer> {
  const a = await answer;
  if (a.status !== 200 || a.body.startsWith('{"errors"')) throw new Error(`${a.status}: ${a.body.slice(0, 300)}`);
  return a;
}

let unique = 0;
const freshStart = () => new Date(Date.UTC(2000, 0, 1) + ++unique * 1000).toISOString();

const feedUrl = (origin: string, untilDate: string, fromStartDate?: string) => {
  const url = new URL('/events.ics', origin);
  url.searchParams.set('venueSlug', venue);
  url.searchParams.set('categories', category);
  url.searchParams.set('untilDate', untilDate);
  if (fromStartDate) url.searchParams.set('fromStartDate', fromStartDate);
  return url.toString();
};
const eventsBody = (untilDate: string, fromStartDate?: string) =>
  JSON.stringify({ query: FULL, variables: { filter: { venueSlug: venue, categories: [category], untilDate, ...(fromStartDate ? { fromStartDate } : {}) } } });

const countDates = (ics: string) => ics.split('BEGIN:VEVENT').length - 1;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const sortedMs = (list: number[]) => [...list].sort((a, b) => a - b);
const row = (name: string, times: number[]) => {
  const sorted = sortedMs(times);
  return `${name.padEnd(44)} p50 ${percentile(sorted, 0.5).toFixed(1).padStart(6)} ms   p95 ${percentile(sorted, 0.95).toFixed(1).padStart(6)} ms`;
};

const service = await startPinnedService(serviceDir, { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: `bench_${size}`, DEMO_EVENTS: '0', LOG_LEVEL: 'warn' });
try {
  const origin = new URL(service.url).origin;
  for (;;) {
    const response = await fetch(`${origin}/ready`).catch(() => undefined);
    if (response?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The untilDate (whole days from now) whose feed holds about TARGET_DATES dates.
  let low = 1;
  let high = 365;
  let until = '';
  let dates = 0;
  while (low <= high) {
    const days = (low + high) >> 1;
    until = new Date(Date.now() + days * 86_400_000).toISOString();
    dates = countDates((await ok(send(feedUrl(origin, until, freshStart()), 'GET'))).body);
    if (Math.abs(dates - TARGET_DATES) <= 25) break;
    if (dates < TARGET_DATES) low = days + 1;
    else high = days - 1;
  }
  console.log(`calendar bench_${size}: feed of venueSlug=${venue}&categories=${category}&untilDate=${until}: ${dates} dates`);

  const feed: number[] = [];
  const events: number[] = [];
  for (let round = -20; round < runs; round++) {
    const a = await ok(send(feedUrl(origin, until, freshStart()), 'GET'));
    const b = await ok(send(service.url, 'POST', eventsBody(until, freshStart())));
    if (round >= 0) {
      feed.push(a.ms);
      events.push(b.ms);
    }
  }
  console.log(row(`uncached /events.ics (${dates} dates)`, feed));
  console.log(row('uncached events (totals, 3 facets, 20 nodes)', events));
  const p95 = (list: number[]) => percentile(sortedMs(list), 0.95);
  console.log(`feed p95 / events p95: ${(p95(feed) / p95(events)).toFixed(2)}`);

  const cachedFeed: number[] = [];
  const cachedEvents: number[] = [];
  const feedAgain = feedUrl(origin, until);
  const eventsAgain = eventsBody(until);
  for (let round = -20; round < runs; round++) {
    const a = await ok(send(feedAgain, 'GET'));
    const b = await ok(send(service.url, 'POST', eventsAgain));
    if (round >= 0) {
      cachedFeed.push(a.ms);
      cachedEvents.push(b.ms);
    }
  }
  console.log(row('cached /events.ics', cachedFeed));
  console.log(row('cached events POST', cachedEvents));
  console.log(`cached feed p95 / cached events p95: ${(p95(cachedFeed) / p95(cachedEvents)).toFixed(2)}`);
} finally {
  await service.stop();
  agent.destroy();
}
