/**
 * WORKERS=1 against WORKERS=2 (docs/operating.md, "Capacity"): `calendar serve` as a process on the
 * PostgreSQL of DATABASE_URL (schema bench_workers, the demo calendar), loaded by wrk (Debian's
 * package) with BENCH_CONNECTIONS kept-alive connections, in alternating rounds:
 * - a cached GET (a response-cache hit: a page of 10 events, the same URL each time);
 * - an uncached `{ categories { id name_nb } }`: a new cache key each request (a variable nobody
 *   declares), so parsing, validation and execution run every time.
 * Besides requests/s it reads the CPU time the service's processes used (primary and workers, from
 * /proc: Linux), so the cost per request, and requests/s per core, hold even when the machine is
 * shared and throughput swings.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/workers.ts
 *   BENCH_ROUNDS=3 BENCH_SECONDS=8 BENCH_CONNECTIONS=50 BENCH_EVENTS=2000 ...
 */
import { execFileSync } from 'node:child_process';
import { startPinned } from './support/pinned-process.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './support/process-cpu.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) {
  console.error('bench/workers.ts: set DATABASE_URL (more than one worker needs PostgreSQL)');
  process.exit(2);
}
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const seconds = Number(process.env['BENCH_SECONDS'] ?? 8);
const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const events = Number(process.env['BENCH_EVENTS'] ?? 2000);
const BIN = fileURLToPath(new URL('../bin/calendar.js', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'bench-workers-'));

const PAGE = 'query Page($filter: Filter) { events(filter: $filter, pageSize: 10) { totalCount data { id title_nb startDate venue { name } categories } } }';
const NEVER_SEEN = 'query Categories { categories { id name_nb } }';
const cachedPath = `/graphQL?${new URLSearchParams({ query: PAGE, variables: JSON.stringify({ filter: { categories: ['CONCERT'] } }) })}`;
const uncachedScript = path.join(work, 'uncached.lua');
writeFileSync(
  uncachedScript,
  `local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "/graphQL?query=${encodeURIComponent(NEVER_SEEN)}&variables=%7B%22n%22%3A" .. n .. "%7D")
end
`,
);

/** CPU time (user + system) a process has used, in seconds. */
function cpuSeconds(pid: number): number {
  try {
    return processCpuMs(pid) / 1000;
  } catch {
    return 0;
  }
}

/** The primary and its workers. */
function servicePids(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    // No children: WORKERS=1.
  }
  return [pid, ...children];
}

async function start(workers: number): Promise<{ origin: string; pid: number; stop: () => Promise<void> }> {
  const service = await startPinned([BIN, 'serve'], {
    cpu: 'any',
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WORKERS: String(workers),
      DATABASE_SCHEMA: 'bench_workers',
      DEMO_EVENTS: String(events),
      MAX_IN_FLIGHT_REQUESTS: '1000',
    },
  });
  const origin = new URL(service.url).origin;
  // Every worker builds its read model: wait until a few /ready in a row answer 200.
  for (let ok = 0, waited = 0; ok < 4; waited += 100) {
    if (waited > 300_000) throw new Error('the service never became ready');
    ok = (await fetch(`${origin}/ready`, { headers: { connection: 'close' } })).status === 200 ? ok + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin, pid: service.child.pid!, stop: service.stop };
}

interface Figure {
  perSecond: number;
  cpuMicros: number;
  p99Ms: number;
}

function wrk(target: string, pids: number[], script?: string): Figure {
  const args = ['-t1', `-c${connections}`, '--latency', '-H', 'service-require-preflight: true', ...(script ? ['-s', script] : [])];
  const run = (duration: number) => {
    const cpuBefore = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    const out = execFileSync('wrk', [...args, `-d${duration}s`, target], { encoding: 'utf8' });
    const cpu = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore;
    if (/Non-2xx or 3xx responses: (\d+)/.test(out)) throw new Error(`wrk saw failed responses on ${target}:\n${out}`);
    const total = Number(/(\d+) requests in/.exec(out)?.[1]);
    const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
    const p99Ms = p99 ? Number(p99[1]) * (p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1) : NaN;
    return { perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]), cpuMicros: (cpu * 1e6) / total, p99Ms };
  };
  run(2);
  return run(seconds);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results: Record<string, Figure[]> = {};
const record = (name: string, figure: Figure) => (results[name] ??= []).push(figure);

for (let round = 1; round <= rounds; round++) {
  for (const workers of [1, 2]) {
    const service = await start(workers);
    try {
      const pids = servicePids(service.pid);
      record(`cached GET, WORKERS=${workers}`, wrk(service.origin + cachedPath, pids));
      record(`uncached categories, WORKERS=${workers}`, wrk(`${service.origin}/graphQL`, pids, uncachedScript));
      process.stderr.write(`round ${round}, WORKERS=${workers} done\n`);
    } finally {
      await service.stop();
    }
  }
}

console.log(`\nwrk -t1 -c${connections}, ${seconds} s per run, median of ${rounds} rounds (WORKERS=1 and 2 alternating); ${events} demo events on PostgreSQL`);
console.log(`${'set-up'.padEnd(34)} ${'requests/s'.padStart(10)} ${'p99 ms'.padStart(8)} ${'CPU µs/req'.padStart(11)} ${'req/s per core'.padStart(15)}`);
for (const [name, figures] of Object.entries(results)) {
  const cpu = median(figures.map((f) => f.cpuMicros));
  console.log(
    `${name.padEnd(34)} ${median(figures.map((f) => f.perSecond)).toFixed(0).padStart(10)} ${median(figures.map((f) => f.p99Ms)).toFixed(1).padStart(8)} ${cpu.toFixed(0).padStart(11)} ${(1e6 / cpu).toFixed(0).padStart(15)}`,
  );
}
for (const kind of ['cached GET', 'uncached categories']) {
  const one = median(results[`${kind}, WORKERS=1`]!.map((f) => f.perSecond));
  const two = median(results[`${kind}, WORKERS=2`]!.map((f) => f.perSecond));
  console.log(`${kind}: WORKERS=2 / WORKERS=1 = ${(two / one).toFixed(2)}`);
}
console.log(`load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
