/**
 * `allUpcomingEventsInArea` over the whole world (every event with a venue), through HTTP: the
 * service as a process pinned to CPU 0 on a seeded PostgreSQL schema (`bench_<N>`, as
 * bench/read-model.ts seeds it), this process on CPU 1. Prints, per calendar size:
 * - one caller: latency p50/max over repeated runs, answer size, and the service's RSS growth;
 * - the service's CPU time per whole-world answer (/proc/<pid>/stat: steadier than latency on a busy
 *   machine);
 * - two whole-world callers at once (distinct boxes) while a third client asks a small `events` page
 *   in a loop and a fourth `/health`: their p50/p95/max (do big answers starve others?) and the
 *   service's peak RSS.
 * With BENCH_BEFORE_DIR (a checkout of an earlier commit), each size is measured on that checkout
 * first, then on this one, on the same schema and in the same run: compare the rows, not absolutes.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test taskset -c 1 npx tsx bench/area.ts
 *   BENCH_SIZES=20000,100000 BENCH_BEFORE_DIR=/tmp/before ...
 * The service started for "after" migrates the bench schema; an older checkout refuses a schema that
 * is newer than its code. Then measure it alone, on a schema of its own:
 *   BENCH_SERVICE_DIR=/tmp/before BENCH_TAG=before_ ...
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './support/process-cpu.js';

const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
const databaseUrl = process.env['DATABASE_URL'];
const sizes = (process.env['BENCH_SIZES'] ?? '20000,100000').split(',').map(Number);
const runs = Number(process.env['BENCH_RUNS'] ?? 10);
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

// A different (still whole-world) box each time, so that no response cache answers it.
let boxes = 0;
const world = () => `{ allUpcomingEventsInArea(minLatitude: ${-90 + ++boxes * 1e-7}, maxLatitude: 90, minLongitude: -180, maxLongitude: 180) {
  id title_nb startDate endDate venue { name location { latitude longitude } } categories organizers { name }
  images { urlSmall } prices { type price } } }`;
const SMALL = `query ($filter: Filter) { events(filter: $filter, pageSize: 5) { totalCount data { id title_nb startDate } } }`;

const beforeDir = process.env['BENCH_BEFORE_DIR'];

function startService(dir: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('taskset', ['-c', '0', process.execPath, 'bin/calendar.js', 'serve'], {
    cwd: dir,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
}

function post(url: string, query: string, variables: Record<string, unknown> = {}): Promise<{ ms: number; bytes: number }> {
  const body = JSON.stringify({ query, variables });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let bytes = 0;
      let head = '';
      res.on('data', (c: Buffer) => {
        if (head.length < 200) head += c.toString();
        bytes += c.length;
      });
      res.on('end', () => (res.statusCode === 200 && !head.startsWith('{"errors"') ? resolve({ ms: performance.now() - started, bytes }) : reject(new Error(`${res.statusCode} ${head}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function get(url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    }).on('error', reject).end();
  });
}

const quantile = (sorted: number[], q: number) => (sorted.length > 0 ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!.toFixed(1) : '-');

const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const peakMB = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

if (!databaseUrl) throw new Error('set DATABASE_URL');
const rows: Record<string, string | number>[] = [];
for (const size of sizes) {
  const schema = `bench_${process.env['BENCH_TAG'] ?? ''}${size}`;
  const env = { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, DEMO_EVENTS: '0' };
  // A schema not seeded yet (or not created at all) counts as empty.
  const seeded = () => {
    try {
      return Number(execFileSync('psql', [databaseUrl, '-Atc', `select count(*) from ${schema}.events`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || '0');
    } catch {
      return 0;
    }
  };
  const count = seeded();
  if (count < size) {
    execFileSync(process.execPath, ['bin/calendar.js', 'seed', '--events', String(size), '--replace'], { cwd: serviceDir, env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, stdio: 'inherit' });
    execFileSync('psql', [databaseUrl, '-qc', 'vacuum analyze'], { stdio: 'ignore' });
  }
  for (const [label, dir] of beforeDir ? [['before', beforeDir], ['after', serviceDir]] : [['', serviceDir]]) {
    rows.push(await measure(size, label!, dir!, env));
    console.table(rows);
  }
}

async function measure(size: number, label: string, dir: string, env: Record<string, string>): Promise<Record<string, string | number>> {
  const { child, url } = await startService(dir, env);
  const pid = child.pid!;
  try {
    await post(url, SMALL);
    const idle = rssMB(pid);
    const times: number[] = [];
    let bytes = 0;
    const cpuBefore = processCpuMs(pid);
    let singleFailed = 0;
    for (let i = 0; i < runs; i++) {
      // Before the bounded area answers, a 100k-event world passed the request deadline (503).
      const answer = await post(url, world()).catch(() => undefined);
      if (!answer) {
        singleFailed++;
        continue;
      }
      times.push(answer.ms);
      bytes = answer.bytes;
    }
    const cpuPerAnswer = (processCpuMs(pid) - cpuBefore) / runs;
    times.sort((a, b) => a - b);
    const afterOne = rssMB(pid);
    // Two whole-world callers at once while other clients ask small pages and /health.
    const small: number[] = [];
    const health: number[] = [];
    let smallFailed = 0;
    let busy = true;
    const smallLoop = (async () => {
      let n = 0;
      while (busy) {
        const answer = await post(url, SMALL, { filter: { fromDate: new Date(Date.now() + ++n * 1000).toISOString() } }).catch(() => undefined);
        if (answer) small.push(answer.ms);
        else smallFailed++;
      }
    })();
    const healthLoop = (async () => {
      const origin = new URL(url).origin;
      while (busy) {
        health.push(await get(`${origin}/health`));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    let failed = 0;
    await Promise.all([0, 1].map(async () => {
      for (let i = 0; i < 3; i++) await post(url, world()).catch(() => failed++);
    }));
    busy = false;
    await Promise.all([smallLoop, healthLoop]);
    small.sort((a, b) => a - b);
    health.sort((a, b) => a - b);
    return {
      events: size,
      ...(label ? { code: label } : {}),
      'p50 ms': times.length > 0 ? times[Math.floor(times.length / 2)]!.toFixed(0) : '-',
      'max ms': times.length > 0 ? times.at(-1)!.toFixed(0) : '-',
      'failed (1 caller)': `${singleFailed} / ${runs}`,
      'CPU ms/answer': cpuPerAnswer.toFixed(0),
      'answer MB': (bytes / 1e6).toFixed(1),
      'RSS idle MB': idle.toFixed(0),
      'RSS after MB': afterOne.toFixed(0),
      'peak RSS MB (2 callers)': peakMB(pid).toFixed(0),
      'small page p50/p95 ms (during)': `${quantile(small, 0.5)} / ${quantile(small, 0.95)}`,
      '/health p50/max ms (during)': `${quantile(health, 0.5)} / ${health.length > 0 ? health.at(-1)!.toFixed(1) : '-'}`,
      'failed (2 callers / small)': `${failed} / ${smallFailed}`,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}
agent.destroy();
