/**
 * Issue 54's whole-feed re-import: the whole calendar exported with `calendar export`, one event's title
 * edited, imported again with `calendar import` (what an importer that sends its whole feed every night
 * does). One `calendar serve` node (pinned to CPU 0) on the schema `bench_feed_<N>` of the PostgreSQL
 * named by DATABASE_URL; this process (pin it to CPU 1) runs the commands and reads.
 *
 * Before (BENCH_BEFORE_DIR, default /work/before-f4cf38f: a built checkout of main before issue 54's
 * whole-feed step; '' skips it) seeds the schema afresh with BENCH_EVENTS demo events with its own
 * `calendar seed` and runs one round; then this checkout runs BENCH_ROUNDS rounds on the same schema (its
 * first round finds the digests the earlier release stored: an upgrade, see event-digest.ts). A round:
 * the exported file with one more event retitled, imported by that checkout's `calendar import` (a child
 * process: its wall time is the import's), then the node's cached `GET` of that event polled every 20 ms
 * until it shows the new title (visible-after, from the command's exit: the commit is a few ms before),
 * the node's build line for that version, its peak RSS meanwhile, and the change log's rows at the
 * import's version.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/test taskset -c 1 npx tsx bench/whole-feed.ts
 *   BENCH_EVENTS=100000 BENCH_ROUNDS=3 BENCH_BEFORE_DIR= ...
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedGet, readModelBuilds } from './support/node-answers.js';
import { ready, startPinnedService } from './support/pinned-process.js';
import { peakResidentMB, resetPeakResident, residentMB } from './support/process-memory.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL (the bench seeds the schema bench_feed_<N> there)');
const size = Number(process.env['BENCH_EVENTS'] ?? 100_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const thisDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
const beforeDir = process.env['BENCH_BEFORE_DIR'] ?? '/work/before-f4cf38f';
const schema = `bench_feed_${size}`;
const POLL_MS = 20;
const VISIBLE_TIMEOUT_MS = 180_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const env = { ...process.env, DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, DEMO_EVENTS: '0', LOG_LEVEL: 'warn' };
const psql = (statement: string) =>
  execFileSync('psql', [databaseUrl, '-qAtc', statement], { encoding: 'utf8', env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' } }).trim();

/** Runs a checkout's `calendar` command; its wall time and output. */
function calendar(dir: string, args: string[]): { ms: number; stdout: string } {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['bin/calendar.js', ...args], { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`calendar ${args.join(' ')} in ${dir}: ${run.status}\n${run.stderr}`);
  return { ms: performance.now() - started, stdout: run.stdout };
}

interface Round {
  checkout: string;
  importMs: number;
  summary: string;
  visibleMs: number;
  build: string;
  logged: number;
  steadyMB: number;
  peakMB: number;
}

const work = mkdtempSync(join(tmpdir(), 'whole-feed-'));
const exported = join(work, 'calendar.json');
let edits = 0;
let feed: { events: { id: string; title_nb: string }[] } | null = null;

/** The feed with one more event retitled (the earlier rounds' edits kept: each round is one change). */
function editedFeed(): { file: string; id: string; title: string } {
  feed ??= JSON.parse(readFileSync(exported, 'utf8')) as { events: { id: string; title_nb: string }[] };
  const event = feed.events[Math.floor(feed.events.length / 2) + edits]!;
  edits++;
  event.title_nb = `${event.title_nb} (endret ${Date.now()})`;
  const file = join(work, `edited-${edits}.json`);
  writeFileSync(file, JSON.stringify(feed));
  return { file, id: event.id, title: event.title_nb };
}

async function measure(label: string, dir: string, count: number): Promise<Round[]> {
  const node = await startPinnedService(dir, { DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schema, DEMO_EVENTS: '0', LOG_LEVEL: 'info', READ_MODEL_LAYERED: 'on' });
  const figures: Round[] = [];
  try {
    await ready(node);
    const pid = node.child.pid!;
    for (let round = 1; round <= count; round++) {
      const { file, id, title } = editedFeed();
      const query = `{ eventByID(eventID: ${JSON.stringify(id)}) { id title_nb } }`;
      await cachedGet(node, query);
      await cachedGet(node, query);
      await sleep(2000); // settled: the steady RSS
      const steadyMB = residentMB(pid);
      const builds = readModelBuilds(node).length;
      resetPeakResident(pid);
      const imported = calendar(dir, ['import', file]);
      const committed = performance.now();
      while (!(await cachedGet(node, query)).includes(JSON.stringify(title))) {
        if (performance.now() - committed > VISIBLE_TIMEOUT_MS) throw new Error(`not visible within ${VISIBLE_TIMEOUT_MS} ms: ${query}`);
        await sleep(POLL_MS);
      }
      const visibleMs = performance.now() - committed;
      while (readModelBuilds(node).length <= builds) await sleep(50);
      const line = readModelBuilds(node).at(-1)!;
      const version = psql(`select version from ${schema}.calendar_state`);
      figures.push({
        checkout: `${label} #${round}`,
        importMs: imported.ms,
        summary: imported.stdout.trim().replace(/^Imported .*?; /, '').replace(/ in [\d.]+ s\.$/, ''),
        visibleMs,
        build: `${String(line['kind'])}/${String(line['reason'])}${typeof line['deltaEvents'] === 'number' ? ` (${line['deltaEvents']} in delta)` : ''}`,
        logged: Number(psql(`select count(*) from ${schema}.event_changes where version = ${version}`)),
        steadyMB,
        peakMB: peakResidentMB(pid),
      });
      console.error(`${label} round ${round}: import ${(imported.ms / 1000).toFixed(1)} s, visible after ${visibleMs.toFixed(0)} ms, ${figures.at(-1)!.build}`);
    }
  } finally {
    await node.stop();
  }
  return figures;
}

const results: Round[] = [];
try {
  const seeder = beforeDir === '' ? thisDir : beforeDir;
  const seeded = Number(psql(`select count(*) from information_schema.tables where table_schema = '${schema}' and table_name = 'events'`)) > 0 ? Number(psql(`select count(*) from ${schema}.events`)) : 0;
  // Before's figures need the digests it stores itself: seeded afresh whenever it runs.
  if (beforeDir !== '' || seeded < size) {
    psql(`drop schema if exists ${schema} cascade`);
    const seed = calendar(seeder, ['seed', '--events', String(size)]);
    psql('vacuum analyze');
    console.error(`seeded ${size} events into ${schema} with ${seeder} in ${(seed.ms / 1000).toFixed(0)} s`);
  }
  const exportRun = calendar(thisDir, ['export', exported]);
  console.error(`exported in ${(exportRun.ms / 1000).toFixed(1)} s`);
  if (beforeDir !== '') results.push(...(await measure('before', beforeDir, 1)));
  results.push(...(await measure('this checkout', thisDir, rounds)));
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(`\n${size} demo events (${schema}): the whole calendar exported, one title edited, imported again; one node (layered) pinned to one core`);
console.table(
  results.map((r) => ({
    checkout: r.checkout,
    'import s': (r.importMs / 1000).toFixed(1),
    'visible after ms': Math.round(r.visibleMs),
    build: r.build,
    'logged at the version': r.logged,
    'peak/steady RSS': `${Math.round(r.peakMB)}/${Math.round(r.steadyMB)} MB (${(r.peakMB / r.steadyMB).toFixed(2)}x)`,
    summary: r.summary,
  })),
);
