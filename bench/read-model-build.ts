/**
 * How the read model grows with the calendar: for each seeded schema `bench_<N>` (bench/read-model.ts
 * seeds them; 1M with `calendar seed --events 1000000`), builds the snapshot in this process and
 * prints build time, the heap it keeps (after a full GC), its typed columns (and of those the planned
 * walk's indexes, per event), the process's peak RSS, and the scan of a cold filter (total + 3 facets
 * + a 20-node page, no search) p50/p95. Then, per filter shape, the strategy the read model plans
 * (src/read-model/walk/plan-walk.ts, `planWalk`) and its p50 against the full walk's (`everyNode`, the
 * reference) on the same filters, in turns. And
 * `suggest`'s work on the snapshot (findSuggestions: matching, counting, ranking; not the labels'
 * statement nor HTTP) for prefixes of 1–6 characters of real names, without a filter and with
 * `when: THIS_WEEKEND`, p50/p95.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test BENCH_SIZES=10000,100000,1000000 \
 *     node --expose-gc --import tsx bench/read-model-build.ts
 */
import { readFileSync } from 'node:fs';
import { openDatabase } from '../src/db/open-database.js';
import { buildEventQuery } from '../src/domain/event-query.js';
import type { Filter } from '../generated/schema-types.js';
import { typedArrayBytes, type CalendarSnapshot } from '../src/read-model/snapshot/calendar-snapshot.js';
import { everyNode } from '../src/read-model/walk/every-node.js';
import { findResultPage } from '../src/read-model/walk/find-result-page.js';
import { planWalk } from '../src/read-model/walk/plan-walk.js';
import type { ResultRequest } from '../src/read-model/walk/result-page.js';
import { loadSnapshot } from '../src/read-model/snapshot/load-snapshot.js';
import { wordMatch } from '../src/read-model/search/search-matches.js';
import { walkIndexBytes } from '../src/read-model/snapshot/walk-indexes.js';
import { COLD_FILTER_SHAPES } from './support/cold-filters.js';
import { sql } from 'kysely';
import { mulberry32 } from '../src/demo/seeded-random.js';
import { buildSuggestInput } from '../src/domain/suggest-input.js';
import { findSuggestions } from '../src/read-model/typeahead/suggestions.js';

const url = process.env['DATABASE_URL'];
if (!url) throw new Error('set DATABASE_URL');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const sizes = (process.env['BENCH_SIZES'] ?? '10000,100000').split(',').map(Number);
const peakRssMB = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

const SHAPES: Record<string, Filter> = { ...COLD_FILTER_SHAPES, municipality: { municipality: 'Oslo' } };

const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

/** Per shape: the planned strategy, its p50 and the full walk's, asked in turns on the same filters. */
async function shapes(snapshot: CalendarSnapshot, db: Parameters<typeof wordMatch>[0]): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for (const [name, shape] of Object.entries(SHAPES)) {
    const planned: number[] = [];
    const full: number[] = [];
    let strategy = '';
    for (let i = 0; i < 60; i++) {
      const fresh = new Date(Date.now() + i * 60_000).toISOString();
      const filter: Filter = shape.when ? { ...shape, fromStartDate: `2000-01-01T00:00:${String(i % 60).padStart(2, '0')}Z` } : { ...shape, fromDate: fresh };
      const built = buildEventQuery(filter, new Date());
      if (!built.ok) throw new Error(`bad filter ${name}`);
      const words = await Promise.all(built.query.searchWords.map((word) => wordMatch(db, snapshot, word, 'literal')));
      const request: ResultRequest = { query: built.query, words, page: 0, pageSize: 20, facets: ['venues', 'organizers', 'categories'], wantsTotal: true };
      strategy = planWalk(snapshot, request).strategy;
      let t = performance.now();
      findResultPage(snapshot, request);
      if (i >= 10) planned.push(performance.now() - t);
      t = performance.now();
      everyNode(snapshot, request);
      if (i >= 10) full.push(performance.now() - t);
    }
    const p = median(planned);
    const f = median(full);
    rows.push({ shape: name, strategy, 'planned p50 ms': p.toFixed(3), 'full walk p50 ms': f.toFixed(3), ratio: (p / f).toFixed(3) });
  }
  return rows;
}

const rows: Record<string, string | number>[] = [];
for (const size of sizes) {
  const database = await openDatabase({ url, dataDir: 'memory://', schema: `bench_${size}` });
  try {
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const snapshot = await loadSnapshot(database.db, new Date());
    const buildMs = performance.now() - started;
    gc();
    const kept = process.memoryUsage().heapUsed - heapBefore;
    const times: number[] = [];
    for (let i = 0; i < 60; i++) {
      const built = buildEventQuery({ fromDate: new Date(Date.now() + i * 60_000).toISOString() }, new Date());
      if (!built.ok) throw new Error('bad filter');
      const t = performance.now();
      findResultPage(snapshot, { query: built.query, words: [], page: 0, pageSize: 20, facets: ['venues', 'organizers', 'categories'], wantsTotal: true });
      if (i >= 10) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const names = (
      await sql<{ name: string }>`
        select name from venues union all select name from organizers union all select name_nb from categories
        union all (select title_nb from events where title_nb is not null order by id limit 1000)`.execute(database.db)
    ).rows.map((r) => r.name);
    names.push(...snapshot.suggestions.tagNames);
    const random = mulberry32(31);
    const prefixes = Array.from({ length: 600 }, () => names[Math.floor(random() * names.length)]!.slice(0, 1 + Math.floor(random() * 6))).filter((p) => p.trim() !== '');
    const suggestTimes = (filter: Filter) => {
      const took: number[] = [];
      prefixes.forEach((prefix, i) => {
        const built = buildSuggestInput(prefix, filter, 8, new Date());
        if (!built.ok) throw new Error('bad prefix');
        const t = performance.now();
        findSuggestions(snapshot, { ...built.input, literal: [], approximate: null });
        if (i >= 50) took.push(performance.now() - t);
      });
      return took.sort((a, b) => a - b);
    };
    const at = (sorted: number[], p: number) => sorted[Math.floor(sorted.length * p)]!.toFixed(2);
    const plain = suggestTimes({});
    const weekend = suggestTimes({ when: 'THIS_WEEKEND' });
    rows.push({
      events: size,
      'events kept': snapshot.eventIds.length,
      dates: snapshot.dateCount,
      'build s': (buildMs / 1000).toFixed(2),
      'heap kept MB': (kept / 1e6).toFixed(0),
      'columns MB': (typedArrayBytes(snapshot) / 1e6).toFixed(0),
      'walk indexes B/event': (walkIndexBytes(snapshot.walk) / snapshot.eventIds.length).toFixed(1),
      'peak RSS MB': peakRssMB().toFixed(0),
      'scan p50 ms': times[Math.floor(times.length / 2)]!.toFixed(2),
      'scan p95 ms': times[Math.floor(times.length * 0.95)]!.toFixed(2),
      'suggest p50/p95 ms': `${at(plain, 0.5)}/${at(plain, 0.95)}`,
      'suggest when p50/p95 ms': `${at(weekend, 0.5)}/${at(weekend, 0.95)}`,
    });
    console.log(`${size} events: planned walk per shape (in process)`);
    console.table(await shapes(snapshot, database.db));
  } finally {
    await database.close();
  }
}
console.table(rows);
