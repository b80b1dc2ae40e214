/**
 * Latency and throughput of the service while its Redis fails: the service runs as a process
 * (`calendar serve`, embedded database with the demo calendar, pinned to CPU 0) against a
 * `redis-server` of the bench's own, under a closed-loop load of cached and uncached GETs from
 * this process (pin it to the other core). Phases: Redis up, Redis frozen (SIGSTOP), Redis gone.
 *
 *   taskset -c 1 npx tsx bench/redis-outage.ts
 *   BENCH_SERVICE_DIR=/tmp/old-checkout taskset -c 1 npx tsx bench/redis-outage.ts   # another version, same load
 *   BENCH_CLIENTS=20 BENCH_PHASE_SECONDS=8
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startThrowawayRedis } from '../test/support/throwaway-redis.js';

const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
const clients = Number(process.env['BENCH_CLIENTS'] ?? 20);
const phaseMs = Number(process.env['BENCH_PHASE_SECONDS'] ?? 8) * 1000;

const redis = await startThrowawayRedis();
const child = spawn('taskset', ['-c', '0', `${serviceDir}/node_modules/.bin/tsx`, 'src/cli/main.ts', 'serve'], {
  cwd: serviceDir,
  env: { ...process.env, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', CALENDAR_DATA_DIR: 'memory://', DEMO_EVENTS: '2000', LOG_LEVEL: 'error', REDIS_URL: redis.url },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const match = /listening on (\S+)/.exec(out);
    if (match?.[1]) resolve(match[1]);
  });
  child.once('exit', (code) => reject(new Error(`service exited ${code}`)));
});

const HOT = 'query($p: Int) { events(page: $p, pageSize: 5) { totalCount data { id title_nb startDate } } }';
let unique = 1000;
/** 90 % of requests ask one of 20 popular pages (cache hits once warm), 10 % a page nobody asked before. */
function nextRequest(): string {
  const page = Math.random() < 0.9 ? Math.floor(Math.random() * 20) : (unique += 1);
  return `${url}?query=${encodeURIComponent(HOT)}&variables=${encodeURIComponent(JSON.stringify({ p: page }))}`;
}

async function phase(name: string): Promise<Record<string, string | number>> {
  const latencies: number[] = [];
  let failures = 0;
  const end = performance.now() + phaseMs;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        const response = await fetch(nextRequest(), { headers: { 'service-require-preflight': 'true' } });
        await response.arrayBuffer();
        if (response.status !== 200) failures += 1;
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  return { phase: name, 'requests/s': Math.round(latencies.length / (phaseMs / 1000)), 'p50 ms': at(0.5), 'p95 ms': at(0.95), 'p99 ms': at(0.99), 'non-200': failures };
}

try {
  await phase('warm-up');
  const rows = [await phase('Redis up')];
  redis.freeze();
  rows.push(await phase('Redis frozen (SIGSTOP)'));
  redis.thaw();
  await phase('recovering');
  rows.push(await phase('Redis up again'));
  await redis.kill();
  rows.push(await phase('Redis gone'));
  console.log(`service: ${serviceDir}, ${clients} clients, ${phaseMs / 1000} s per phase`);
  console.table(rows);
} finally {
  child.kill('SIGTERM');
  await redis.kill();
}
