/**
 * Issue 42's figures: how soon an import shows in a node's cached answers, and what it costs the node,
 * on a large calendar. One `calendar serve` node (pinned to CPU 0) on the schema `bench_fresh_<N>` of
 * the PostgreSQL named by DATABASE_URL, seeded once with the demo calendar of BENCH_EVENTS events and
 * reused; this process (pin it to CPU 1) is the reader and the importer, through the importer the
 * `calendar import` command runs (in process, so that the commit's moment is known). Per node:
 *
 * - BENCH_IMPORTS imports of 1 new event: visible once the node's cached `GET` of the events total
 *   shows one more;
 * - BENCH_NEWCOMERS (default 3) imports of a new venue and a new organizer with one event there (issue
 *   54): visible once the node's cached `GET` of the events total shows one more;
 * - BENCH_IMPORTS imports of BENCH_CHANGED changed events (the bench's own events, retitled): visible
 *   once the node's cached `GET` of the last of them shows its new title;
 * - polled every 20 ms from the commit; per import also the node's CPU from just before the import
 *   until its "read model built" line for it (the 20 ms polls' cache hits included), and its peak
 *   RSS meanwhile (VmHWM, reset before each import) against its steady RSS (after start, settled).
 *
 * - layered: BENCH_COMPACTIONS (default 1) imports of BENCH_COMPACTION_CHANGED edited events each (default
 *   5 001, past the delta's bound; 0 skips them): visible-after (served as a delta), then the compaction it
 *   starts in the background: its build time, the node's CPU and peak RSS until its line, and the RSS 3 s
 *   and 30 s after (a second compaction is where glibc's sliding mmap threshold shows: issue 54, item 3).
 *
 * The same runs first against BENCH_BEFORE_DIR (default /work/before-af9ea4d, a built checkout of the
 * main branch before incremental versions; '' skips it), on the same schema, for the ratios. This
 * checkout's node runs with READ_MODEL_LAYERED=BENCH_LAYERED (default on: versions as layered deltas).
 * BENCH_BEFORE_ENV and BENCH_AFTER_ENV add `NAME=value` words to one node's environment (the same build
 * on both sides with one setting apart: `READ_MODEL_SEGMENT_EVENTS=60000`, say).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test taskset -c 1 npx tsx bench/freshness.ts
 *   BENCH_EVENTS=1000000 BENCH_IMPORTS=5 BENCH_CHANGED=1000 BENCH_BEFORE_DIR= ...
 *   BENCH_SERVICE_DIR=/tmp/copy ...   # another built checkout as "this checkout" (a copy of this one, so that
 *                                     # rebuilding dist/ here meanwhile does not change what is measured)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVE_MALLOC_ENV } from '../src/cli/malloc-settings.js';
import { openDatabase } from '../src/db/open-database.js';
import { importCalendar } from '../src/import/import-calendar.js';
import { cachedGet, logLinesOf, readModelBuilds } from './support/node-answers.js';
import { environmentWords, ready, startPinnedService, type PinnedProcess } from './support/pinned-process.js';
import { processCpuMs } from './support/process-cpu.js';
import { peakResidentMB, resetPeakResident, residentMB } from './support/process-memory.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL (the bench seeds the schema bench_fresh_<N> there)');
const size = Number(process.env['BENCH_EVENTS'] ?? 100_000);
const imports = Number(process.env['BENCH_IMPORTS'] ?? 5);
const changedCount = Number(process.env['BENCH_CHANGED'] ?? 1000);
/** Imports of a new venue and a new organizer with one event there (issue 54); 0 skips them. */
const newcomerImports = Number(process.env['BENCH_NEWCOMERS'] ?? 3);
const thisDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
const beforeDir = process.env['BENCH_BEFORE_DIR'] ?? '/work/before-af9ea4d';
const schema = `bench_fresh_${size}`;
const layered = process.env['BENCH_LAYERED'] ?? 'on';
const POLL_MS = 20;
const VISIBLE_TIMEOUT_MS = 180_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

const storedEvents = (() => {
  try {
    return Number(execFileSync('psql', [databaseUrl, '-Atc', `select count(*) from ${schema}.events`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    return 0; // no schema yet
  }
})();
if (storedEvents < size) {
  const started = performance.now();
  execFileSync(process.execPath, ['bin/calendar.js', 'seed', '--events', String(size), '--replace'], {
    cwd: thisDir,
    env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, DEMO_EVENTS: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  execFileSync('psql', [databaseUrl, '-qc', 'vacuum analyze'], { stdio: 'ignore' });
  console.error(`seeded ${size} events into ${schema} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const database = await openDatabase({ url: databaseUrl, schema, dataDir: '', poolSize: 2 });
const db = database.db;
const venue = (await db.selectFrom('venues').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
const category = (await db.selectFrom('categories').select('id').orderBy('position').limit(1).executeTakeFirstOrThrow()).id;

const DAY_MS = 24 * 60 * 60 * 1000;
/** One of the bench's own events: upcoming (1 to 30 days ahead), at a seeded venue, in a seeded category. */
const benchEvent = (id: string, title: string, k: number) => ({
  id,
  slug: id,
  title_nb: title,
  venue,
  categories: [category],
  dates: [{ start: new Date(Date.now() + (1 + (k % 30)) * DAY_MS).toISOString() }],
});
const editId = (k: number) => `bench-fresh-edit-${k}`;
const editFile = (title: string, count = changedCount) => ({ events: Array.from({ length: count }, (_, k) => benchEvent(editId(k), `${title} ${k}`, k)) });
/** Layered: an import of this many edited events takes the delta past its bound (a compaction follows; 0: none). */
const compactionChanged = Number(process.env['BENCH_COMPACTION_CHANGED'] ?? 5001);
const compactions = Number(process.env['BENCH_COMPACTIONS'] ?? 1);
/** How long a node runs after start before its steady RSS is read (was 3 s until issue 54's item 3). */
const settleMs = Number(process.env['BENCH_SETTLE_MS'] ?? 15_000);
// The edited events exist before any node starts: each round then changes all of them.
await importCalendar(database, editFile(`Ferskhet start ${Date.now()}`, Math.max(changedCount, compactionChanged)));

const TOTAL = '{ events { totalCount } }';
const EDITED = `{ eventByID(eventID: ${JSON.stringify(editId(changedCount - 1))}) { id title_nb } }`;


interface ImportFigures {
  visibleMs: number;
  cpuMs: number;
  peakMB: number;
  build: Record<string, unknown> | undefined;
}

/** One import: commit, then polls `query` every 20 ms until `shows`; CPU and peak RSS until the node's build line for it. */
async function measureImport(node: PinnedProcess, input: unknown, query: string, shows: (body: string) => boolean): Promise<ImportFigures> {
  const pid = node.child.pid!;
  // Cached before the import, so that what is polled is the cached answer's replacement.
  await cachedGet(node, query);
  await cachedGet(node, query);
  const builds = readModelBuilds(node).length;
  resetPeakResident(pid);
  const cpuBefore = processCpuMs(pid);
  await importCalendar(database, input);
  const committed = performance.now();
  for (;;) {
    if (shows(await cachedGet(node, query))) break;
    if (performance.now() - committed > VISIBLE_TIMEOUT_MS) {
      const lines = node.log().split('\n').filter((line) => line && !line.includes('"request completed"'));
      throw new Error(`not visible within ${VISIBLE_TIMEOUT_MS} ms: ${query}; the node's last lines:\n${lines.slice(-6).join('\n')}`);
    }
    await sleep(POLL_MS);
  }
  const visibleMs = performance.now() - committed;
  // The build line is written after the swap (buffered for up to 200 ms): the node's work for this import is done.
  while (readModelBuilds(node).length <= builds) {
    if (performance.now() - committed > VISIBLE_TIMEOUT_MS) throw new Error('no "read model built" line after the import');
    await sleep(50);
  }
  const cpuMs = processCpuMs(pid) - cpuBefore;
  return { visibleMs, cpuMs, peakMB: peakResidentMB(pid), build: readModelBuilds(node).at(-1) };
}

interface NodeFigures {
  label: string;
  firstBuildMs: number;
  steadyMB: number;
  one: ImportFigures[];
  newcomers: ImportFigures[];
  many: ImportFigures[];
  compaction: CompactionFigures[];
}

interface CompactionFigures {
  visibleMs: number;
  compactionMs: number;
  cpuMs: number;
  peakMB: number;
  afterMB: number;
  laterMB: number;
  /** The node's `read model memory released` line for it (none before issue 54's item 3). */
  release: Record<string, unknown> | undefined;
}

/**
 * Layered: an import that takes the delta past its bound. It shows as a delta; the compaction then
 * runs in the background. Visible-after of that import; the compaction's build time (its line) and the
 * node's CPU and peak RSS from the import until that line.
 */
async function measureCompaction(node: PinnedProcess, stamp: number): Promise<CompactionFigures> {
  const pid = node.child.pid!;
  const title = `Ferskhet ${stamp} komprimering`;
  // A compaction's (last) line: of a build in segments, compacted one segment at a time, its last segment's.
  const compactionLines = () =>
    readModelBuilds(node).filter((line) => line['compaction'] !== undefined && line['reason'] === 'delta-size' && (line['segment'] === undefined || line['segment'] === Number(line['segments']) - 1));
  const compactionsBefore = compactionLines().length;
  const query = `{ eventByID(eventID: ${JSON.stringify(editId(compactionChanged - 1))}) { id title_nb } }`;
  await cachedGet(node, query);
  resetPeakResident(pid);
  const cpuBefore = processCpuMs(pid);
  const compactionLine = () => compactionLines()[compactionsBefore];
  await importCalendar(database, editFile(title, compactionChanged));
  const committed = performance.now();
  const expected = JSON.stringify(`${title} ${compactionChanged - 1}`);
  while (!(await cachedGet(node, query)).includes(expected)) {
    if (performance.now() - committed > VISIBLE_TIMEOUT_MS) throw new Error(`not visible within ${VISIBLE_TIMEOUT_MS} ms: ${query}`);
    await sleep(POLL_MS);
  }
  const visibleMs = performance.now() - committed;
  while (!compactionLine()) {
    if (performance.now() - committed > VISIBLE_TIMEOUT_MS * 2) throw new Error(`no compaction line after the import; the last lines:\n${readModelBuilds(node).slice(-3).map((l) => JSON.stringify(l)).join('\n')}`);
    await sleep(100);
  }
  const cpuMs = processCpuMs(pid) - cpuBefore;
  const peakMB = peakResidentMB(pid);
  // The replaced full build is released with its last request; RSS sampled 3 s and 30 s after the line
  // (answering the bench's GETs meanwhile, as a node serving traffic would).
  await sleep(3000);
  const afterMB = residentMB(pid);
  for (let i = 0; i < 27; i++) {
    await cachedGet(node, query);
    await sleep(1000);
  }
  // Since issue 54 (item 3) the node has V8 collect the replaced build and says so: how long its pause was.
  const release = logLinesOf(node, '"read model memory').at(-1);
  // In segments: the sum of the segments' builds (each line its own).
  const last = compactionLine()!;
  const compactionMs =
    last['segment'] === undefined
      ? Number(last['ms'])
      : readModelBuilds(node)
          .filter((line) => line['kind'] === 'segment' && line['reason'] === 'delta-size')
          .slice(-Number(last['segments']))
          .reduce((ms, line) => ms + Number(line['ms']), 0);
  return { visibleMs, compactionMs, cpuMs, peakMB, afterMB, laterMB: residentMB(pid), release };
}

async function measureNode(label: string, dir: string, env: Record<string, string> = {}): Promise<NodeFigures> {
  const node = await startPinnedService(dir, { DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schema, DEMO_EVENTS: '0', LOG_LEVEL: 'info', ...env });
  try {
    await ready(node);
    for (let i = 0; i < 20; i++) await cachedGet(node, TOTAL);
    // Start-up's garbage collected, the first build's transients released (since issue 54's item 3 the node
    // collects them a second after the build, and V8's memory reducer gives the heap back ~8 s after that).
    await sleep(settleMs);
    const steadyMB = residentMB(node.child.pid!);
    const firstBuildMs = Number(readModelBuilds(node)[0]?.['ms']);
    const stamp = Date.now();
    const one: ImportFigures[] = [];
    for (let i = 1; i <= imports; i++) {
      const before = (JSON.parse(await cachedGet(node, TOTAL)) as { data: { events: { totalCount: number } } }).data.events.totalCount;
      const input = { events: [benchEvent(`bench-fresh-add-${stamp}-${i}`, `Ferskhet ny ${stamp} ${i}`, i)] };
      one.push(await measureImport(node, input, TOTAL, (body) => (JSON.parse(body) as { data: { events: { totalCount: number } } }).data.events.totalCount > before));
      console.error(`${label}: 1 event, import ${i}: visible after ${one.at(-1)!.visibleMs.toFixed(0)} ms, node CPU ${one.at(-1)!.cpuMs} ms`);
    }
    // Issue 54: a new venue and a new organizer with one event there (what most days' imports of a growing calendar add).
    const newcomers: ImportFigures[] = [];
    for (let i = 1; i <= newcomerImports; i++) {
      const before = (JSON.parse(await cachedGet(node, TOTAL)) as { data: { events: { totalCount: number } } }).data.events.totalCount;
      const key = `bench-fresh-new-${stamp}-${i}`;
      const input = {
        venues: [{ id: `${key}-venue`, slug: `${key}-venue`, name: `Ny scene ${stamp} ${i}` }],
        organizers: [{ id: `${key}-organizer`, slug: `${key}-organizer`, name: `Ny arrangør ${stamp} ${i}` }],
        events: [{ ...benchEvent(`${key}-event`, `Ferskhet nykommer ${stamp} ${i}`, i), venue: `${key}-venue`, organizers: [`${key}-organizer`] }],
      };
      newcomers.push(await measureImport(node, input, TOTAL, (body) => (JSON.parse(body) as { data: { events: { totalCount: number } } }).data.events.totalCount > before));
      console.error(`${label}: new venue + organizer + 1 event, import ${i}: visible after ${newcomers.at(-1)!.visibleMs.toFixed(0)} ms, node CPU ${newcomers.at(-1)!.cpuMs} ms, build ${String(newcomers.at(-1)!.build?.['kind'])}/${String(newcomers.at(-1)!.build?.['reason'])}`);
    }
    const many: ImportFigures[] = [];
    for (let i = 1; i <= imports; i++) {
      const title = `Ferskhet ${stamp} runde ${i}`;
      const expected = `${title} ${changedCount - 1}`;
      many.push(await measureImport(node, editFile(title), EDITED, (body) => body.includes(JSON.stringify(expected))));
      console.error(`${label}: ${changedCount} events, import ${i}: visible after ${many.at(-1)!.visibleMs.toFixed(0)} ms, node CPU ${many.at(-1)!.cpuMs} ms`);
    }
    const compaction: CompactionFigures[] = [];
    for (let i = 0; i < (env['READ_MODEL_LAYERED'] === 'on' && compactionChanged > 0 ? compactions : 0); i++) compaction.push(await measureCompaction(node, stamp + i));
    return { label, firstBuildMs, steadyMB, one, newcomers, many, compaction };
  } finally {
    await node.stop();
  }
}

const nodes: NodeFigures[] = [];
try {
  if (beforeDir !== '') nodes.push(await measureNode('before', beforeDir, { READ_MODEL_LAYERED: layered, ...environmentWords(process.env['BENCH_BEFORE_ENV']) }));
  // Launched as npm start launches it: serve's allocator setting in its environment (src/cli/malloc-settings.ts;
  // the flags come with startPinnedService). The node before runs as it shipped, without it.
  nodes.push(
    await measureNode(layered === 'on' ? 'this checkout (layered)' : 'this checkout', thisDir, { READ_MODEL_LAYERED: layered, ...SERVE_MALLOC_ENV, ...environmentWords(process.env['BENCH_AFTER_ENV']) }),
  );
} finally {
  await database.close();
}

const row = (node: NodeFigures, kind: string, figures: ImportFigures[]) => {
  const visible = figures.map((f) => f.visibleMs);
  const cpu = figures.map((f) => f.cpuMs);
  const peak = Math.max(...figures.map((f) => f.peakMB));
  return {
    node: node.label,
    import: kind,
    'visible p50 ms': Math.round(percentile(visible, 0.5)),
    'visible max ms': Math.round(Math.max(...visible)),
    'node CPU p50 ms': Math.round(percentile(cpu, 0.5)),
    'node CPU max ms': Math.round(Math.max(...cpu)),
    'first build ms': node.firstBuildMs,
    'steady RSS MB': Math.round(node.steadyMB),
    'peak RSS MB': Math.round(peak),
    'peak/steady': (peak / node.steadyMB).toFixed(2),
    'build kinds': [...new Set(figures.map((f) => (typeof f.build?.['kind'] === 'string' ? f.build['kind'] : 'full')))].join(','),
  };
};
console.log(`\n${size} demo events (${schema}), one node pinned to one core, ${imports} imports of each kind`);
console.table(
  nodes.flatMap((node) => [
    row(node, '1 event', node.one),
    ...(node.newcomers.length > 0 ? [row(node, 'new venue + organizer + 1 event', node.newcomers)] : []),
    ...(node.many.length > 0 ? [row(node, `${changedCount} changed`, node.many)] : []),
  ]),
);
for (const node of nodes) {
  for (const [i, c] of node.compaction.entries()) {
  console.log(
    `${node.label}, compaction ${i + 1}: an import of ${compactionChanged} edited events (past the delta's bound) visible after ${c.visibleMs.toFixed(0)} ms; ` +
      `the compaction behind it ${c.compactionMs} ms; node CPU ${c.cpuMs} ms; peak RSS ${c.peakMB.toFixed(0)} MB (${(c.peakMB / node.steadyMB).toFixed(2)}x steady), ` +
      `${c.afterMB.toFixed(0)} MB 3 s after (${(c.afterMB / node.steadyMB).toFixed(2)}x), ${c.laterMB.toFixed(0)} MB 30 s after (${(c.laterMB / node.steadyMB).toFixed(2)}x)` +
      (c.release ? `; memory release: ${String(c.release['collections'])} collection(s), longest pause ${String(c.release['longestPauseMs'])} ms, RSS ${String(c.release['rssBeforeMB'])} -> ${String(c.release['rssAfterMB'])} MB` : ''),
  );
  }
}
if (nodes.length === 2) {
  const [before, after] = nodes as [NodeFigures, NodeFigures];
  const ratio = (a: ImportFigures[], b: ImportFigures[], pick: (f: ImportFigures) => number) => (percentile(b.map(pick), 0.5) / percentile(a.map(pick), 0.5)).toFixed(3);
  console.log(`this checkout / before, p50: 1 event visible ${ratio(before.one, after.one, (f) => f.visibleMs)}, CPU ${ratio(before.one, after.one, (f) => f.cpuMs)}; ${changedCount} changed visible ${ratio(before.many, after.many, (f) => f.visibleMs)}, CPU ${ratio(before.many, after.many, (f) => f.cpuMs)}`);
  console.log(`1-event import's node CPU against a full build (before's p50): ${((percentile(after.one.map((f) => f.cpuMs), 0.5) / percentile(before.one.map((f) => f.cpuMs), 0.5)) * 100).toFixed(1)} %`);
}
