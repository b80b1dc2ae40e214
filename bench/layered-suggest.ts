/**
 * Typeahead of a layered version (issue 42) against what it replaced: before, the first `suggest` after
 * an import waited a full build of the version (a compaction), later ones ran on it; now every one runs
 * on the layers (base + delta), reading the candidate events' labels per layer.
 *
 * In process, on an in-memory PGlite holding the demo calendar (BENCH_EVENTS events), with BENCH_CHANGED
 * events then edited by an import: the full build's time (what the first suggest waited before), and,
 * for the same prefixes (starts of real names, 1–6 characters) and rounds, the median time of one
 * suggestion (words matched, suggestions found, labels read) on the layers and on a fresh full build of
 * the same version, alternated prefix by prefix, with their ratio.
 *
 *   taskset -c 1 npx tsx bench/layered-suggest.ts
 *   BENCH_EVENTS=5000 BENCH_CHANGED=200 BENCH_ROUNDS=5 ...
 */
import { openDatabase, migrateToLatest } from '../src/db/open-database.js';
import { generateDemoCalendar } from '../src/demo/demo-calendar.js';
import { mulberry32 } from '../src/demo/seeded-random.js';
import { buildSuggestInput, type SuggestInput } from '../src/domain/suggest-input.js';
import { importCalendar } from '../src/import/import-calendar.js';
import { layeredWordMatches } from '../src/read-model/calendar-reader.js';
import type { CalendarSnapshot } from '../src/read-model/snapshot/calendar-snapshot.js';
import { eventRecordsAt } from '../src/read-model/records/event-records.js';
import { singleSnapshotLayers, type LayeredSnapshot } from '../src/read-model/layers/layered-snapshot.js';
import { loadLayeredSnapshot, loadSnapshot } from '../src/read-model/snapshot/load-snapshot.js';
import { findLayeredSuggestions } from '../src/read-model/typeahead/layered-suggestions.js';

const events = Number(process.env['BENCH_EVENTS'] ?? 5000);
const changed = Number(process.env['BENCH_CHANGED'] ?? 200);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
const TODAY = new Date('2026-06-01T12:00:00+02:00');

const handle = await openDatabase({ url: undefined, dataDir: 'memory://', schema: 'public', poolSize: 4 });
await migrateToLatest(handle.db);
const calendar = generateDemoCalendar({ events, seed: 3, today: TODAY });
await importCalendar(handle, calendar);
const first = await loadSnapshot(handle.db, TODAY);
const random = mulberry32(11);
const all = calendar.events ?? [];
const edited = Array.from({ length: changed }, () => all[Math.floor(random() * all.length)]!).map((e) => ({ ...e, title_nb: `${e.title_nb ?? ''} endret` }));
await importCalendar(handle, { events: [...new Map(edited.map((e) => [e.id, e])).values()] });
const next = await loadLayeredSnapshot(handle.db, singleSnapshotLayers(first));
if ('fallback' in next) throw new Error(`no delta: ${next.fallback}`);
const layers = next.layered;

const buildStarted = performance.now();
const fresh = await loadSnapshot(handle.db, TODAY);
const buildMs = performance.now() - buildStarted;

const names = [
  ...(calendar.venues ?? []).map((v) => v.name),
  ...(calendar.organizers ?? []).map((o) => o.name),
  ...(calendar.categories ?? []).map((c) => c.name_nb),
  ...all.slice(0, 200).map((e) => e.title_nb ?? ''),
].filter((name) => name.trim().length > 0);
const prefixes = Array.from({ length: 100 }, () => {
  const name = names[Math.floor(random() * names.length)]!;
  return name.slice(0, 1 + Math.floor(random() * 6)).trim() || 'a';
});

async function suggestOn(on: LayeredSnapshot, input: SuggestInput): Promise<number> {
  const started = performance.now();
  const words = input.queries.filter.searchWords;
  const literal = await layeredWordMatches(handle.db, on, words, 'literal');
  const labelsOf = (snapshot: CalendarSnapshot, list: readonly number[]) => eventRecordsAt(handle.db, snapshot, list, ['id', 'slug', 'title_nb', 'title_en']);
  const found = await findLayeredSuggestions(on, { queries: input.queries, words: input.words, limit: input.limit }, { literal, approximate: null }, labelsOf);
  if (!on.delta) await labelsOf(on.bases[0]!, found.filter((s) => s.kind === 'EVENT').map((s) => s.entity));
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const onLayers: number[] = [];
const onFull: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const [k, prefix] of prefixes.entries()) {
    // A fresh fromDate each time, as a typeahead's requests mostly are: no answer cache in between anyway.
    const input = buildSuggestInput(prefix, { fromDate: new Date(TODAY.getTime() + (round * prefixes.length + k) * 60_000).toISOString() }, 10, TODAY);
    if (!input.ok) throw new Error(`invalid prefix ${prefix}`);
    const pair = k % 2 === 0 ? [true, false] : [false, true];
    for (const layered of pair) (layered ? onLayers : onFull).push(await suggestOn(layered ? layers : singleSnapshotLayers(fresh), input.input));
  }
}
console.log(`events ${events}, delta ${layers.delta?.eventIds.length ?? 0} events (${layers.masked} masked), ${prefixes.length} prefixes x ${rounds} rounds`);
console.log(`full build of the version (what the first suggest after an import waited before): ${buildMs.toFixed(0)} ms`);
console.log(`suggest median: layers ${median(onLayers).toFixed(3)} ms, full build ${median(onFull).toFixed(3)} ms, ratio ${(median(onLayers) / median(onFull)).toFixed(2)}`);
await handle.close();
