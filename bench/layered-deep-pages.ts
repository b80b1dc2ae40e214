/**
 * Deep pages of a layered version (issue 42) against a fresh full build of the same version: the walk
 * alone (`findLayeredPage` on the layers, `findResultPage` on the full build), per filter shape, per
 * kind of request (totals and three facets, the total alone, the page alone) and per page.
 *
 * In process, on an in-memory PGlite (or a schema of its own on DATABASE_URL, seeded for the run and
 * dropped after) holding the demo calendar (BENCH_EVENTS events), of which BENCH_CHANGED then edited by an import
 * (a title word; every tenth moved a week later): the delta. Every case is run once on each side first
 * (warm-up); then per case the layers and the full build are asked in turns, BENCH_ROUNDS times, each
 * turn a batch of calls timed in the process's CPU time (the machine is shared); medians, and their ratio. With
 * BENCH_BEFORE_DIR (a checkout of another version, e.g. main), that checkout's `findLayeredPage` on the
 * same layers too, in the same turns: its median and ours over it.
 *
 *   taskset -c 1 npx tsx bench/layered-deep-pages.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test BENCH_EVENTS=100000 BENCH_CHANGED=1000 \
 *     BENCH_BEFORE_DIR=/tmp/main taskset -c 1 npx tsx bench/layered-deep-pages.ts
 */
import { pathToFileURL } from 'node:url';
import { dropSchema, migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/open-database.js';
import { generateDemoCalendar } from '../src/demo/demo-calendar.js';
import { mulberry32 } from '../src/demo/seeded-random.js';
import { filterShapes, medianTimes, REQUEST_KINDS, timed } from './support/walk-cases.js';
import { buildEventQuery } from '../src/domain/event-query.js';
import { importCalendar } from '../src/import/import-calendar.js';
import { layeredWordMatches } from '../src/read-model/calendar-reader.js';
import { findLayeredPage, type LayeredWords } from '../src/read-model/layers/layered-result-page.js';
import { singleSnapshotLayers } from '../src/read-model/layers/layered-snapshot.js';
import { loadLayeredSnapshot, loadSnapshot } from '../src/read-model/snapshot/load-snapshot.js';
import { wordMatches } from '../src/read-model/search/search-matches.js';
import { findResultPage } from '../src/read-model/walk/find-result-page.js';
import { planWalk } from '../src/read-model/walk/plan-walk.js';
import type { ResultRequest } from '../src/read-model/walk/result-page.js';

const events = Number(process.env['BENCH_EVENTS'] ?? 20_000);
const changed = Number(process.env['BENCH_CHANGED'] ?? 500);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 9);
const pageSize = Number(process.env['BENCH_PAGE_SIZE'] ?? 20);
const pages = (process.env['BENCH_PAGES'] ?? '0,10,100,1000').split(',').map(Number);
const url = process.env['DATABASE_URL'];
const beforeDir = process.env['BENCH_BEFORE_DIR'];
const TODAY = new Date('2026-06-01T12:00:00+02:00');
const DAY = 86_400_000;

/** `findLayeredPage` of a checkout from before a full build came in segments: one base, the request carrying its words. */
type OneBaseFindLayeredPage = (layers: unknown, request: ResultRequest, deltaWords: ResultRequest['words']) => unknown;
const before: OneBaseFindLayeredPage | null = beforeDir
  ? ((await import(pathToFileURL(`${beforeDir}/src/read-model/layers/layered-result-page.ts`).href)) as { findLayeredPage: OneBaseFindLayeredPage }).findLayeredPage
  : null;

async function seededDatabase(): Promise<DatabaseHandle> {
  if (!url) {
    const handle = await openDatabase({ url: undefined, dataDir: 'memory://', schema: 'public', poolSize: 4 });
    await migrateToLatest(handle.db);
    return handle;
  }
  const schema = `bench_layered_deep_${events}`;
  const old = await openDatabase({ url, schema, dataDir: '', poolSize: 2 });
  await dropSchema(old.db, schema);
  await old.close();
  const handle = await openDatabase({ url, schema, dataDir: '', poolSize: 4 });
  await migrateToLatest(handle.db);
  return handle;
}

const handle = await seededDatabase();
const seedStarted = performance.now();
const calendar = generateDemoCalendar({ events, seed: 3, today: TODAY });
await importCalendar(handle, calendar);
const first = await loadSnapshot(handle.db, TODAY);
const random = mulberry32(17);
const all = calendar.events ?? [];
const edited = new Map<string, (typeof all)[number]>();
while (edited.size < Math.min(changed, all.length)) {
  const event = all[Math.floor(random() * all.length)]!;
  if (edited.has(event.id)) continue;
  const moved = edited.size % 10 === 0;
  const dates = moved ? event.dates.map((d) => ({ ...d, start: shifted(d.start), end: d.end == null ? d.end : shifted(d.end) })) : event.dates;
  edited.set(event.id, { ...event, title_nb: `${event.title_nb ?? ''} endret`, dates });
}
await importCalendar(handle, { events: [...edited.values()] });
const next = await loadLayeredSnapshot(handle.db, singleSnapshotLayers(first));
if ('fallback' in next) throw new Error(`no delta: ${next.fallback}`);
const layers = next.layered;
// The same layers as a checkout from before segments reads them (`before`).
const oneBase = { ...layers, base: layers.bases[0]!, full: layers.full.segments[0]! };
const fresh = await loadSnapshot(handle.db, TODAY);
console.log(
  `${events} events (${fresh.eventIds.length} kept, ${fresh.dateCount} dates), delta ${layers.delta?.eventIds.length ?? 0} events ` +
    `(${layers.delta?.dateCount ?? 0} dates, ${layers.masked} masked); seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s; ` +
    `page size ${pageSize}, ${rounds} rounds${beforeDir ? `, before: ${beforeDir}` : ''}`,
);

function shifted(instant: string): string {
  return new Date(new Date(instant).getTime() + 7 * DAY).toISOString();
}

const SHAPES = filterShapes(TODAY);
const KINDS = REQUEST_KINDS;


interface Case {
  shape: string;
  kind: string;
  page: number;
  onFresh: ResultRequest;
  onBase: ResultRequest;
  words: LayeredWords;
}
const cases: Case[] = [];
for (const [shape, filter] of Object.entries(SHAPES)) {
  const built = buildEventQuery(filter, TODAY);
  if (!built.ok) throw new Error(`invalid filter ${shape}`);
  const query = built.query;
  const layered = await layeredWordMatches(handle.db, layers, query.searchWords, 'literal');
  const freshWords = await wordMatches(handle.db, fresh, query.searchWords, 'literal');
  for (const [kind, asked] of Object.entries(KINDS)) {
    for (const page of pages) {
      const onFresh: ResultRequest = { query, words: freshWords, page, pageSize, ...asked };
      cases.push({ shape, kind, page, onFresh, onBase: { ...onFresh, words: layered.bases[0]! }, words: layered });
    }
  }
}
// Every case once on each side first: the walks compiled for every shape before any is timed.
for (const { onFresh, onBase, words } of cases) {
  findLayeredPage(layers, onBase, words);
  findResultPage(fresh, onFresh);
  before?.(oneBase, onBase, words.delta);
}

const rows: Record<string, string | number>[] = [];
for (const { shape, kind, page, onFresh, onBase, words } of cases) {
  const reference = findResultPage(fresh, onFresh);
  // Calls per timing: about 5 ms of the full build's walk each.
  const probe = timed(() => findResultPage(fresh, onFresh), 5);
  const calls = Math.max(1, Math.min(500, Math.round(5 / Math.max(probe, 0.01))));
  const sides: Record<string, () => unknown> = { layers: () => findLayeredPage(layers, onBase, words), full: () => findResultPage(fresh, onFresh) };
  if (before) sides['before'] = () => before(oneBase, onBase, words.delta);
  const medians = medianTimes(sides, calls, rounds);
  const layersMs = medians['layers']!;
  const fullMs = medians['full']!;
  const beforeMs = medians['before'] ?? Number.NaN;
  rows.push({
    shape,
    kind,
    page,
    total: reference.totalCount ?? (reference.hasMore ? `>${(page + 1) * pageSize}` : '?'),
    'base plan': planWalk(layers.bases[0]!, onBase).strategy,
    'full plan': planWalk(fresh, onFresh).strategy,
    'layers ms': layersMs.toFixed(3),
    'full ms': fullMs.toFixed(3),
    'layers/full': (layersMs / fullMs).toFixed(2),
    ...(before ? { 'before ms': beforeMs.toFixed(3), 'before/full': (beforeMs / fullMs).toFixed(2), 'layers/before': (layersMs / beforeMs).toFixed(2) } : {}),
  });
}
console.table(rows);
if (url) await dropSchema(handle.db, handle.schema);
await handle.close();
