/**
 * Issue 55's rehearsal as a command: two `calendar serve` nodes (built dist/, MIGRATE=off) over one
 * PostgreSQL schema (`bench_faults`, migrated and loaded with the rehearsal's 40 events), a Redis of
 * the bench's own, the shipped edge (deploy/varnish/default.vcl in a varnishd) in front of both, and
 * BENCH_CONCURRENCY loops of cached GETs, new GETs and POSTs through it (the rolling restart's load: most of
 * its answers come from a cache or the snapshot alone), and BENCH_READERS loops of POSTs that each read an
 * event's record from the database (a document no cache has seen), for BENCH_MINUTES. Meanwhile an
 * edit (a new English title for one event: the load checks the Norwegian ones) is imported every 45 s and
 * timed until a GET through the edge shows it, and three faults come in turn:
 *   - at 20 %: each node stopped (SIGTERM), started again and waited for until the edge holds it healthy;
 *   - at 45 %: Redis stopped for 10 s (SIGTERM), then started again on its port;
 *   - at 70 %: every backend of the service terminated (`pg_terminate_backend`: the request pools, the LISTEN
 *     connections, the probes), as a DBA or a pooler restart does, BENCH_TERMINATIONS times 100 ms apart
 *     (default 30: once catches few reads in flight, the load's statements take a millisecond).
 * Prints what was answered, every failed request, and the edits' latency at the edge.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/connection-faults.ts
 *   BENCH_MINUTES=6 BENCH_CONCURRENCY=12 BENCH_READERS=6 BENCH_TERMINATIONS=3 ...
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { dropSchema, migrateToLatest, openDatabase } from '../src/db/open-database.js';
import { importCalendar } from '../src/import/import-calendar.js';
import { freePort, waitForPort } from '../test/support/throwaway-postgres.js';
import { startThrowawayVarnish } from '../test/support/throwaway-varnish.js';
import { RehearsalNode, rehearsalCalendar, startLoad, untilEdgeHolds } from '../test/support/varnish-rolling-restart.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL the bench may create the schema bench_faults in');
const minutes = Number(process.env['BENCH_MINUTES'] ?? 20);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 12);
const terminations = Number(process.env['BENCH_TERMINATIONS'] ?? 30);
const readers = Number(process.env['BENCH_READERS'] ?? 6);
const schema = 'bench_faults';
const EDIT_EVERY_MS = 45_000;
const EDITED = 'E-40';
const started = performance.now();
const log = (line: string) => console.log(`${((performance.now() - started) / 1000).toFixed(1).padStart(7)} s  ${line}`);

// A Redis of the bench's own, stopped and started again on its port.
const redisPort = await freePort();
let redis: ChildProcess | undefined;
const startRedis = async () => {
  redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await waitForPort(redisPort, (attempt) => attempt > 100, () => new Error('redis-server did not start'));
};
const stopRedis = async () => {
  const stopping = redis;
  if (!stopping || stopping.exitCode !== null) return;
  const exited = new Promise((resolve) => stopping.once('exit', resolve));
  stopping.kill('SIGTERM');
  await exited;
};
await startRedis();

// One connection of the bench's own (the edits), left alone when the service's backends are terminated.
const setup = await openDatabase({ url: databaseUrl, schema, dataDir: '', poolSize: 1 });
await dropSchema(setup.db, schema);
await setup.close();
const database = await openDatabase({ url: databaseUrl, schema, dataDir: '', poolSize: 1 });
await migrateToLatest(database.db);
const calendar = rehearsalCalendar();
await importCalendar(database, calendar);
const benchBackend = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0]!.pid;

const env = {
  DATABASE_URL: databaseUrl,
  DATABASE_SCHEMA: schema,
  DATABASE_POOL_SIZE: '4',
  MIGRATE: 'off',
  // As deploy/ ships it (calendar.env.example, compose.yaml): a stopping node answers 3 s more while the edge notices.
  SHUTDOWN_DELAY_MS: '3000',
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
};
const nodes = [await RehearsalNode.start(env), await RehearsalNode.start(env)] as const;
const edge = await startThrowawayVarnish([nodes[0].port, nodes[1].port]);
await untilEdgeHolds(edge, ['node_1', 'node_2'], true);
log(`${minutes} min, ${concurrency} + ${readers} loops through the edge, edits every ${EDIT_EVERY_MS / 1000} s`);
const load = startLoad(edge.origin, concurrency);

// Reads of the database through the edge: each document new (its alias), so neither the edge nor a node's
// answer cache has it, and its title is read from the event's record at the snapshot's version.
const reads = { answered: 0, failures: [] as string[] };
let reading = true;
let readSequence = 0;
const readLoop = async () => {
  while (reading) {
    const n = readSequence++;
    const k = (n % 39) + 1;
    const alias = `r${n}`;
    try {
      const response = await fetch(`${edge.origin}/graphQL`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ ${alias}: eventByID(eventID: "E-${String(k).padStart(2, '0')}") { id title_nb } }` }),
      });
      const body = await response.text();
      const title = response.status === 200 ? (JSON.parse(body) as { data?: Record<string, { title_nb?: string } | null> }).data?.[alias]?.title_nb : undefined;
      if (title === `Arrangement ${k}`) reads.answered += 1;
      else reads.failures.push(`database read ${response.status}: ${body.replace(/\s+/g, ' ').slice(0, 200)}`);
    } catch (error) {
      reads.failures.push(`database read no answer: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
};
const readLoops = Array.from({ length: readers }, readLoop);

// Edits: a new English title for EDITED, then a GET through the edge until it shows (the edge and the nodes cache it).
const editLatencies: number[] = [];
const editFailures: string[] = [];
const titleAtEdge = async (): Promise<string | undefined> => {
  const query = `{ eventByID(eventID: "${EDITED}") { title_en } }`;
  const response = await fetch(`${edge.origin}/graphQL?query=${encodeURIComponent(query)}`, { headers: { 'service-require-preflight': 'true' } }).catch(() => undefined);
  if (response?.status !== 200) return undefined;
  return ((await response.json()) as { data?: { eventByID?: { title_en?: string } } }).data?.eventByID?.title_en;
};
const edit = async (n: number) => {
  const title = `Edited ${n}`;
  const event = calendar.events.find((e) => e.id === EDITED)!;
  try {
    await importCalendar(database, { events: [{ ...event, title_en: title }] });
  } catch (error) {
    editFailures.push(`edit ${n}: import failed: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const committed = performance.now();
  while (performance.now() - committed < 30_000) {
    if ((await titleAtEdge()) === title) {
      editLatencies.push(performance.now() - committed);
      return;
    }
    await sleep(20);
  }
  editFailures.push(`edit ${n}: not at the edge within 30 s`);
};
let editing = true;
const edits = (async () => {
  for (let n = 1; editing; n++) {
    await sleep(EDIT_EVERY_MS);
    if (editing) await edit(n);
  }
})();

const totalMs = minutes * 60_000;
const at = async (fraction: number) => {
  const wait = started + totalMs * fraction - performance.now();
  if (wait > 0) await sleep(wait);
};

await at(0.2);
for (const [i, node] of nodes.entries()) {
  const since = performance.now();
  const exit = await node.stop();
  await node.startProcess();
  await untilEdgeHolds(edge, [`node_${i + 1}`], true);
  log(`node_${i + 1}: restarted (exit ${exit}), healthy at the edge after ${Math.round(performance.now() - since)} ms`);
}

await at(0.45);
await stopRedis();
log('Redis stopped');
await sleep(10_000);
await startRedis();
log('Redis started again');

await at(0.7);
const keep = await benchBackend();
let terminated = 0;
for (let round = 0; round < terminations; round++) {
  const { rows } = await sql<{ n: string }>`
    select count(pg_terminate_backend(pid)) as n from pg_stat_activity
    where application_name = 'event-calendar-api' and pid <> ${keep}`.execute(database.db);
  terminated += Number(rows[0]!.n);
  await sleep(100);
}
log(`terminated ${terminated} backends of the service (${terminations} rounds, 100 ms apart)`);

await at(1);
// What the nodes said that was not routine, for a run with failures.
const nodeTrouble = nodes.flatMap((node, i) =>
  node.processes.flatMap((process, p) =>
    process
      .stderr()
      .split('\n')
      .filter((line) => /"level":(40|50|60)|Unhandled|uncaught/i.test(line))
      .map((line) => `node_${i + 1}/${p + 1}: ${line.slice(0, 300)}`),
  ),
);
editing = false;
const result = await load.stop();
reading = false;
await Promise.all(readLoops);
await edits;
await edge.stop();
for (const node of nodes) await node.stop();
await database.close();
await stopRedis();

result.failures.push(...reads.failures);
const answered = Object.values(result.answered).reduce((a, b) => a + b, 0) + reads.answered;
const sorted = [...editLatencies].sort((a, b) => a - b);
const quantile = (q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
console.log(`answered: ${answered} (${Object.entries(result.answered).map(([kind, n]) => `${kind} ${n}`).join(', ')}, database reads ${reads.answered})`);
console.log(`failed: ${result.failures.length}`);
// By kind: the edge's own 503 (no node answered), the service's error code, or no answer at all.
const kinds = new Map<string, number>();
for (const failure of result.failures) {
  const kind = failure.includes('Backend fetch failed')
    ? `${failure.split(':')[0]}: the edge got no answer from a node`
    : `${failure.split(':')[0]}: ${/"code":"([A-Z_]+)"/.exec(failure)?.[1] ?? failure.slice(failure.indexOf(':') + 2, failure.indexOf(':') + 60)}`;
  kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
}
for (const [kind, n] of kinds) console.log(`  ${n} × ${kind}`);
for (const failure of result.failures.slice(0, 5)) console.log(`  e.g. ${failure}`);
console.log(`edits at the edge: ${sorted.length}, p50 ${Math.round(quantile(0.5))} ms, max ${Math.round(sorted.at(-1) ?? NaN)} ms; failed ${editFailures.length}`);
for (const failure of editFailures) console.log(`  ${failure}`);
console.log(`warnings and errors the nodes logged: ${nodeTrouble.length}`);
for (const line of nodeTrouble.slice(0, 30)) console.log(`  ${line}`);
process.exitCode = result.failures.length === 0 && editFailures.length === 0 && sorted.every((ms) => ms <= 5000) ? 0 : 1;
