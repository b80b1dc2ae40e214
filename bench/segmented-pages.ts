/**
 * What a base in k segments would cost per request (issue 54, item 3; docs/performance.md "Compaction's
 * memory"): the walk alone, in process, of a page merged over k segments (the events split by a hash
 * of their id, each segment a snapshot built by the delta's own code, restricted to its ids, with the full
 * build's clock) against `findResultPage` on the one full build, per filter shape, kind of request and page.
 *
 * Two merges, both exact: every segment asked for its first (p + 1) · s nodes (`nodesFrom: 0`); and
 * shares (`sharedPage`). The k lists are merged in listing order (start, event id, date id), totals and
 * facet hits add up. Every case is checked against the full build's answer (nodes by event and date id, total,
 * `hasMore`, facets) before it is timed. Timing as bench/layered-deep-pages.ts: CPU time of batches, the
 * two sides in turns, medians of BENCH_ROUNDS. Also the memory of the k segments against the one build
 * (heap used + array buffers after a full collection).
 *
 * BENCH_MODE=memory (one k per process): what a compaction of one segment peaks at beside the k serving
 * ones (VmHWM), k = 1 being today's whole build beside the whole build:
 *   MALLOC_MMAP_THRESHOLD_=131072 DATABASE_URL=… BENCH_SCHEMA=bench_fresh_1000000 BENCH_MODE=memory BENCH_SEGMENTS=16 \
 *     taskset -c 1 node --max-semi-space-size=16 --no-allocation-site-pretenuring --expose-gc --import tsx bench/segmented-pages.ts
 *
 * Reads an already seeded schema (bench/freshness.ts seeds `bench_fresh_<N>`):
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test BENCH_SCHEMA=bench_fresh_1000000 BENCH_SEGMENTS=8,16 \
 *     taskset -c 1 node --expose-gc --import tsx bench/segmented-pages.ts
 */
import { sql } from 'kysely';
import { openDatabase } from '../src/db/open-database.js';
import { filterShapes, medianTimes, REQUEST_KINDS, timed } from './support/walk-cases.js';
import { buildEventQuery } from '../src/domain/event-query.js';
import type { CalendarSnapshot } from '../src/read-model/snapshot/calendar-snapshot.js';
import { loadSnapshot, RETAINED_ENDED_MS } from '../src/read-model/snapshot/load-snapshot.js';
import { pickCatalogueColumns, readCatalogue } from '../src/read-model/snapshot/read-snapshot-catalogue.js';
import { readDates } from '../src/read-model/snapshot/read-snapshot-dates.js';
import { readEvents } from '../src/read-model/snapshot/read-snapshot-events.js';
import { wordMatches } from '../src/read-model/search/search-matches.js';
import { SuggestionIndexBuilder } from '../src/read-model/typeahead/suggestion-index.js';
import { findSegmentedPage, mergedAnswers, summedAnswers } from '../src/read-model/layers/segmented-result-page.js';
import { findResultPage } from '../src/read-model/walk/find-result-page.js';
import { planWalk } from '../src/read-model/walk/plan-walk.js';
import { peakResidentMB, resetPeakResident, residentMB } from './support/process-memory.js';
import type { ResultRequest } from '../src/read-model/walk/result-page.js';

const url = process.env['DATABASE_URL'];
const schema = process.env['BENCH_SCHEMA'];
if (!url || !schema) throw new Error('set DATABASE_URL and BENCH_SCHEMA (a schema seeded by bench/freshness.ts)');
const segmentCounts = (process.env['BENCH_SEGMENTS'] ?? '4,8,16').split(',').map(Number);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 7);
const pageSize = Number(process.env['BENCH_PAGE_SIZE'] ?? 20);
const pages = (process.env['BENCH_PAGES'] ?? '0,10,100').split(',').map(Number);
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with node --expose-gc');
const NOW = new Date();

const handle = await openDatabase({ url, schema, dataDir: '', poolSize: 2 });
const db = handle.db;

/** Heap used + array buffers after a full collection (MB). */
function heldMb(): number {
  collect!();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 1e6;
}

/**
 * Segment `i` of `k`: a snapshot of the events whose id hashes to i (PostgreSQL's `hashtextextended`, so
 * that segments stay even whatever the ids look like), built as a delta is (load-snapshot.ts).
 */
async function segment(i: number, k: number, cutoff: Date): Promise<CalendarSnapshot> {
  const read = await db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(async (trx) => {
    const { rows: idRows } = await sql<{ id: string }>`
      select id from events where last_ends_at > ${cutoff} and (hashtextextended(id, 0) & 9223372036854775807) % ${k} = ${i}`.execute(trx);
    const ids = idRows.map((r) => r.id);
    const suggestions = new SuggestionIndexBuilder();
    const version = (await trx.selectFrom('calendar_state').select('version').executeTakeFirstOrThrow()).version;
    const catalogue = await readCatalogue(trx);
    const events = await readEvents(trx, cutoff, catalogue, suggestions, { ids });
    const dates = await readDates(trx, cutoff, events, catalogue, { ids });
    const { rows } = await sql<{ top: number }>`select coalesce(max(id), 0)::float8 as top from occurrences`.execute(trx);
    const changeLog = { versions: new Float64Array(0), ids: [], removed: new Uint8Array(0) };
    return { version: String(version), columns: { ...pickCatalogueColumns(catalogue.snapshot), ...events.snapshot, ...dates, occurrencesUpTo: Number(rows[0]?.top ?? 0) }, readOrder: events.readOrder, suggestions, changeLog };
  });
  return { version: read.version, ...read.columns, changeLog: read.changeLog, suggestions: read.suggestions.build(read.columns, read.readOrder, cutoff.getTime()) };
}

async function segmentsOf(k: number, cutoff: Date): Promise<CalendarSnapshot[]> {
  const segments: CalendarSnapshot[] = [];
  for (let i = 0; i < k; i++) segments.push(await segment(i, k, cutoff));
  return segments;
}

if (process.env['BENCH_MODE'] === 'memory') {
  // What a compaction of one segment peaks at beside the k serving ones (k = 1: today's full build beside the full build).
  const k = segmentCounts[0]!;
  const compactions = Number(process.env['BENCH_COMPACTIONS'] ?? 3);
  const cutoff = new Date(Date.now() - RETAINED_ENDED_MS);
  const pid = process.pid;
  const build = (i: number) => (k === 1 ? loadSnapshot(db, NOW) : segment(i, k, cutoff));
  const serving: CalendarSnapshot[] = [];
  for (let i = 0; i < k; i++) serving.push(await build(i));
  collect();
  await new Promise((resolve) => setTimeout(resolve, 200));
  collect();
  const steady = residentMB(pid);
  console.log(`k = ${k}: ${serving.reduce((n, s) => n + s.eventIds.length, 0)} events in ${k} segment(s) (${serving.map((s) => s.eventIds.length).join(', ')}), steady RSS ${steady.toFixed(0)} MB`);
  for (let c = 0; c < compactions; c++) {
    const i = c % k;
    resetPeakResident(pid);
    const started = performance.now();
    serving[i] = await build(i);
    const seconds = (performance.now() - started) / 1000;
    const peak = peakResidentMB(pid);
    collect();
    const after = residentMB(pid);
    console.log(`compaction ${c + 1} (segment ${i}): ${seconds.toFixed(1)} s, peak ${peak.toFixed(0)} MB (${(peak / steady).toFixed(2)}x steady), after a collection ${after.toFixed(0)} MB (${(after / steady).toFixed(2)}x)`);
  }
  await handle.close();
  process.exit(0);
}

const beforeFull = heldMb();
let started = performance.now();
const full = await loadSnapshot(db, NOW);
const fullBuildS = (performance.now() - started) / 1000;
const fullMb = heldMb() - beforeFull;
const cutoff = new Date(full.suggestions.publishingHorizon);
console.log(`${full.eventIds.length} events, ${full.dateCount} dates; full build ${fullBuildS.toFixed(1)} s, holds ${fullMb.toFixed(0)} MB`);

const SHAPES = filterShapes(NOW);
const KINDS = REQUEST_KINDS;

/** The page over k segments: each one's first (p + 1)·s nodes merged in listing order; totals and facets summed. */
function segmentedPage(segments: readonly CalendarSnapshot[], requests: readonly ResultRequest[]) {
  const request = requests[0]!;
  const first = request.page * request.pageSize;
  const answers = segments.map((snapshot, i) => findResultPage(snapshot, { ...requests[i]!, nodesFrom: 0 }));
  const { nodes, taken } = mergedAnswers(segments, answers, first, first + request.pageSize, false);
  return { nodes, page: summedAnswers(request, answers, taken) };
}

/** The service's merge (layers/segmented-result-page.ts): each segment asked for its share, again only when short. */
const sharedPage = (segments: readonly CalendarSnapshot[], requests: readonly ResultRequest[]) => findSegmentedPage(segments, requests, segments.map(() => false));

const key = (snapshot: CalendarSnapshot, event: number, date: number) => `${snapshot.eventIds[event]}#${snapshot.dateId[date]}`;

for (const k of segmentCounts) {
  const before = heldMb();
  started = performance.now();
  const segments = await segmentsOf(k, cutoff);
  const builtS = (performance.now() - started) / 1000;
  const segmentsMb = heldMb() - before;
  console.log(`\nk = ${k}: built in ${builtS.toFixed(1)} s, the k segments hold ${segmentsMb.toFixed(0)} MB (the full build ${fullMb.toFixed(0)} MB)`);

  const rows: Record<string, string | number>[] = [];
  for (const [shape, filter] of Object.entries(SHAPES)) {
    const built = buildEventQuery(filter, NOW);
    if (!built.ok) throw new Error(`invalid filter ${shape}`);
    const query = built.query;
    const fullWords = await wordMatches(db, full, query.searchWords, 'literal');
    const segmentWords = [];
    for (const s of segments) segmentWords.push(await wordMatches(db, s, query.searchWords, 'literal'));
    for (const [kind, asked] of Object.entries(KINDS)) {
      for (const page of pages) {
        const onFull: ResultRequest = { query, words: fullWords, page, pageSize, ...asked };
        const onSegments = segmentWords.map((words) => ({ ...onFull, words }));
        const reference = findResultPage(full, onFull);
        for (const [variant, merged] of [['asked (p + 1)·s each', segmentedPage(segments, onSegments)], ['shares', sharedPage(segments, onSegments)]] as const) {
        const same =
          JSON.stringify(reference.nodes.map((x) => key(full, x.event, x.date))) === JSON.stringify(merged.nodes.map((x) => key(x.snapshot, x.event, x.date))) &&
          reference.totalCount === merged.page.totalCount &&
          reference.hasMore === merged.page.hasMore &&
          JSON.stringify(reference.facets) === JSON.stringify(merged.page.facets);
        if (!same) throw new Error(`k = ${k}, ${shape} ${kind} page ${page}, ${variant}: the segments answer differently from the full build`);
        }
        const probe = timed(() => findResultPage(full, onFull), 5);
        const calls = Math.max(1, Math.min(500, Math.round(5 / Math.max(probe, 0.01))));
        const medians = medianTimes({ segments: () => segmentedPage(segments, onSegments), shares: () => sharedPage(segments, onSegments), full: () => findResultPage(full, onFull) }, calls, rounds);
        const fullMs = medians.full;
        rows.push({
          shape,
          kind,
          page,
          total: reference.totalCount ?? (reference.hasMore ? `>${(page + 1) * pageSize}` : '?'),
          'full plan': planWalk(full, onFull).strategy,
          'full ms': fullMs.toFixed(3),
          'segments ms': medians.segments.toFixed(3),
          ratio: (medians.segments / fullMs).toFixed(2),
          'shares ms': medians.shares.toFixed(3),
          'shares ratio': (medians.shares / fullMs).toFixed(2),
        });
      }
    }
  }
  console.table(rows);
  segments.length = 0;
}
await handle.close();
