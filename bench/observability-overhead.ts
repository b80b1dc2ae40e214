/**
 * What the access log and tracing cost per request: `calendar serve` as a process (embedded
 * database, in memory) in four set-ups, each loaded with the same bounded run of requests, in
 * alternating rounds; prints the median CPU time the service spent per request (from /proc: Linux),
 * throughput and latency of each.
 *
 *   npx tsx bench/observability-overhead.ts [requests per round, default 4000] [rounds, default 3]
 *
 * The request is a response-cache hit (`{ categories { id } }`, the same text each time), the
 * cheapest GraphQL answer there is, so the fixed per-request cost of logging and tracing shows
 * as much as it can. Spans go to a stand-in OTLP receiver in this process that answers 200.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './support/process-cpu.js';

const REQUESTS = Number(process.argv[2] ?? 4000);
const ROUNDS = Number(process.argv[3] ?? 3);
const CONCURRENCY = 16;
const BIN = fileURLToPath(new URL('../bin/calendar.js', import.meta.url));

const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end());
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverPort = (receiver.address() as { port: number }).port;

const setups: Record<string, Record<string, string>> = {
  'no access log (LOG_LEVEL=warn)': { LOG_LEVEL: 'warn' },
  'access log (LOG_LEVEL=info)': { LOG_LEVEL: 'info' },
  'access log + tracing': { LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}` },
  'tracing, 10 % sampled': {
    LOG_LEVEL: 'info',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
    OTEL_TRACES_SAMPLER: 'traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.1',
  },
};

async function start(env: Record<string, string>): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const { DATABASE_URL: _url, REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', CALENDAR_DATA_DIR: 'memory://', DEMO_EVENTS: '20', ...env },
    // The log goes where an operator's would: a pipe, read (and dropped) by this process.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Kept only to explain a failed start.
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`serve exited before listening:\n${errors}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function load(url: string, requests: number): Promise<{ perSecond: number; p50: number; p99: number }> {
  const body = JSON.stringify({ query: '{ categories { id } }' });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests) {
        next++;
        const t0 = performance.now();
        const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`status ${response.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: requests / seconds, p50: latencies[Math.floor(latencies.length * 0.5)]!, p99: latencies[Math.floor(latencies.length * 0.99)]! };
}

interface Result {
  perSecond: number;
  p50: number;
  p99: number;
  /** The service's CPU time per request: less sensitive than throughput to other work on the machine. */
  cpuUs: number;
}
const results = new Map<string, Result[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, env] of Object.entries(setups)) {
    const service = await start(env);
    await load(service.url, 500); // warm-up: JIT, caches
    const cpuBefore = processCpuMs(service.pid);
    const timing = await load(service.url, REQUESTS);
    const result = { ...timing, cpuUs: ((processCpuMs(service.pid) - cpuBefore) * 1000) / REQUESTS };
    await service.stop();
    results.set(name, [...(results.get(name) ?? []), result]);
    console.error(`round ${round + 1}: ${name}: ${result.perSecond.toFixed(0)} req/s, ${result.cpuUs.toFixed(0)} µs CPU per request`);
  }
}
receiver.close();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`\n${REQUESTS} requests per round, ${CONCURRENCY} at a time, median of ${ROUNDS} rounds\n`);
console.log('| set-up | service CPU per request | requests/s | p50 ms | p99 ms |\n|---|---|---|---|---|');
for (const [name, runs] of results) {
  const cells = [
    `${median(runs.map((r) => r.cpuUs)).toFixed(0)} µs`,
    median(runs.map((r) => r.perSecond)).toFixed(0),
    median(runs.map((r) => r.p50)).toFixed(2),
    median(runs.map((r) => r.p99)).toFixed(2),
  ];
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
