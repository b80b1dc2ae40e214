/**
 * Issue 43, large answers: time to the last byte of a whole-world `allUpcomingEventsInArea` answer
 * (a new box each time: never kept, every request executes) and of a `changes` page of 1 000 events
 * (RESPONSE_CACHE=off: every request executes), asked as a browser asks (`br`), as Node's fetch does
 * (`gzip`) and with no coding (the floor), and the service's CPU time per answer. Every compressed
 * answer is checked to decode to exactly the identity's bytes.
 *
 * The service runs as a process (`calendar serve`, pinned to CPU 0, or on every CPU with
 * BENCH_SERVICE_CPU=any: the thread pool then has a core of its own) on a seeded PostgreSQL schema
 * (`bench_large_<N>`, seeded on first use); this process loads it (run it on CPU 1). With
 * BENCH_BEFORE_DIR (a built checkout of the reference), before and after alternate in the same run,
 * BENCH_PAIRS times; compare their ratios, not absolutes.
 *
 *   git worktree add --detach /tmp/before main && ln -s "$PWD/node_modules" /tmp/before/node_modules && (cd /tmp/before && node scripts/build.mjs)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test BENCH_BEFORE_DIR=/tmp/before taskset -c 1 npx tsx bench/large-answers-compressed.ts
 *   BENCH_SIZE=20000 BENCH_ROUNDS=7 BENCH_PAIRS=2 BENCH_SERVICE_CPU=any ...
 *   BENCH_AFTER_ENV='MALLOC_MMAP_THRESHOLD_=131072' BENCH_BEFORE_DIR=$PWD ...   # one setting against none, same code
 */
import { execFileSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { environmentWords, startPinnedService, type PinnedProcess } from './support/pinned-process.js';
import { processCpuMs } from './support/process-cpu.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL');
const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
const beforeDir = process.env['BENCH_BEFORE_DIR'];
const size = Number(process.env['BENCH_SIZE'] ?? 20_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 7);
const pairs = Number(process.env['BENCH_PAIRS'] ?? 2);
const cpu = process.env['BENCH_SERVICE_CPU'] === 'any' ? 'any' : 0;
/** `NAME=value` words for the after node's environment alone: a setting measured against its absence (issue 54). */
const afterEnv = environmentWords(process.env['BENCH_AFTER_ENV']);
const schema = `bench_large_${size}`;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

const FIELDS = 'id title_nb startDate endDate venue { name location { latitude longitude } } categories organizers { name } images { urlSmall } prices { type price }';
let boxes = 0;
// A different (still whole-world) box each time, so that no two requests share an execution.
const world = () => `{ allUpcomingEventsInArea(minLatitude: ${-90 + ++boxes * 1e-7}, maxLatitude: 90, minLongitude: -180, maxLongitude: 180) { ${FIELDS} } }`;
const changes = () => `{ changes(pageSize: 1000) { changed { ${FIELDS} } removedIds cursor hasMore } }`;

const CODINGS = [undefined, 'br', 'gzip'] as const;
type Coding = (typeof CODINGS)[number];

interface Answer {
  ms: number;
  bytes: Buffer;
  coding: string | undefined;
}

function post(url: string, query: string, coding: Coding): Promise<Answer> {
  const body = JSON.stringify({ query });
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  if (coding) headers['accept-encoding'] = coding;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const ms = performance.now() - started;
        const bytes = Buffer.concat(chunks);
        if (res.statusCode !== 200) reject(new Error(`${res.statusCode}: ${bytes.subarray(0, 300).toString()}`));
        else resolve({ ms, bytes, coding: res.headers['content-encoding'] });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const decode = (answer: Answer) => (answer.coding === 'br' ? brotliDecompressSync(answer.bytes) : answer.coding === 'gzip' ? gunzipSync(answer.bytes) : answer.bytes);
/** The bytes with a `changes` page's cursor left out (it names the moment the page was read). */
const withoutCursor = (bytes: Buffer) => Buffer.from(bytes.toString().replace(/"cursor":"[^"]*"/, '"cursor":""'));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function seed(): void {
  const env = { ...process.env, DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, DEMO_EVENTS: '0', LOG_LEVEL: 'warn' };
  // A schema not seeded yet (or not created at all) counts as empty.
  const count = () => {
    try {
      return Number(execFileSync('psql', [databaseUrl!, '-Atc', `select count(*) from ${schema}.events`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || '0');
    } catch {
      return 0;
    }
  };
  if (count() >= size) return;
  execFileSync(process.execPath, ['bin/calendar.js', 'seed', '--events', String(size), '--replace'], { cwd: serviceDir, env, stdio: 'inherit' });
  execFileSync('psql', [databaseUrl!, '-qc', `vacuum analyze`], { stdio: 'ignore' });
}

interface Row {
  code: string;
  answer: string;
  coding: string;
  'JSON MB': string;
  'sent MB': string;
  'last byte ms (median)': number;
  /** The median of each round's difference to the identity's time asked just before: steadier on a busy machine. */
  'added to identity ms (median)': number;
  'CPU ms/answer': number;
}

async function measure(label: string, dir: string): Promise<Row[]> {
  // A whole-world answer on a busy machine may pass the default deadline of 6 s.
  const env = { DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schema, DEMO_EVENTS: '0', LOG_LEVEL: 'warn', RESPONSE_CACHE: 'off', REQUEST_TIMEOUT_MS: '120000', ...(label.startsWith('after') ? afterEnv : {}) };
  const service: PinnedProcess = await startPinnedService(dir, env, cpu);
  const rows: Row[] = [];
  try {
    for (const [name, query] of [
      ['whole-world area', world],
      ['changes, 1 000 events', changes],
    ] as const) {
      // Warm-up: the executor's plans, the JIT, the pool's threads.
      for (let i = 0; i < 2; i++) for (const coding of CODINGS) await post(service.url, query(), coding);
      const identity = await post(service.url, query(), undefined);
      const times = new Map<Coding, number[]>(CODINGS.map((coding) => [coding, []]));
      const cpuMs = new Map<Coding, number>(CODINGS.map((coding) => [coding, 0]));
      const sent = new Map<Coding, number>();
      // Codings interleaved round by round, so that all meet the same load.
      for (let round = 0; round < rounds; round++) {
        for (const coding of CODINGS) {
          const before = processCpuMs(service.child.pid!);
          const answer = await post(service.url, query(), coding);
          cpuMs.set(coding, cpuMs.get(coding)! + processCpuMs(service.child.pid!) - before);
          times.get(coding)!.push(answer.ms);
          sent.set(coding, answer.bytes.length);
          if (answer.coding !== coding) throw new Error(`${label} ${name}: asked ${coding}, got ${answer.coding}`);
          // The area's boxes differ, not its events, and a `changes` page differs only in its cursor: every answer
          // decodes to the identity's bytes, but for the cursor.
          if (round === 0 && !withoutCursor(decode(answer)).equals(withoutCursor(identity.bytes))) throw new Error(`${label} ${name} ${coding}: decodes to other bytes`);
        }
      }
      for (const coding of CODINGS) {
        rows.push({
          code: label,
          answer: name,
          coding: coding ?? 'identity',
          'JSON MB': (identity.bytes.length / 1e6).toFixed(2),
          'sent MB': (sent.get(coding)! / 1e6).toFixed(2),
          'last byte ms (median)': Math.round(median(times.get(coding)!)),
          'added to identity ms (median)': Math.round(median(times.get(coding)!.map((ms, round) => ms - times.get(undefined)![round]!))),
          'CPU ms/answer': Math.round(cpuMs.get(coding)! / rounds),
        });
      }
    }
  } finally {
    await service.stop();
  }
  return rows;
}

seed();
const all: Row[] = [];
for (let pair = 0; pair < pairs; pair++) {
  for (const [label, dir] of beforeDir ? [['before', beforeDir], ['after', serviceDir]] : [['this', serviceDir]]) {
    all.push(...(await measure(`${label} ${pair + 1}`, dir!)));
    console.table(all);
  }
}
agent.destroy();
console.log(`${size} events (${schema}), service on CPU ${cpu}, ${rounds} rounds per row, medians; RESPONSE_CACHE=off`);
