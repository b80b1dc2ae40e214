/**
 * Where a compaction's peak RSS comes from (issue 54, item 3). In this process: one full build of a seeded
 * schema is kept (the build a compaction replaces, still serving), then a second one is built step by step
 * as load-snapshot.ts builds it (catalogue, events, dates with the walk's indexes, the suggestion index), and
 * after each step this prints the process's RSS, its peak during the step (VmHWM, reset before each), V8's
 * heap and the array buffers. Then the first build is dropped and a full collection run: the RSS after.
 * Run with node's serve flags and --expose-gc, and the allocator setting under test in the environment:
 *
 *   npm run build
 *   MALLOC_MMAP_THRESHOLD_=131072 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test DATABASE_SCHEMA=bench_fresh_1000000 \
 *     taskset -c 1 node --max-semi-space-size=16 --no-allocation-site-pretenuring --expose-gc --import tsx bench/compaction-memory.ts
 */
import { sql } from 'kysely';
import { openDatabase } from '../src/db/open-database.js';
import type { CalendarSnapshot } from '../src/read-model/snapshot/calendar-snapshot.js';
import { loadSnapshot, RETAINED_ENDED_MS } from '../src/read-model/snapshot/load-snapshot.js';
import { readCatalogue } from '../src/read-model/snapshot/read-snapshot-catalogue.js';
import { readDates } from '../src/read-model/snapshot/read-snapshot-dates.js';
import { readEvents } from '../src/read-model/snapshot/read-snapshot-events.js';
import { SuggestionIndexBuilder } from '../src/read-model/typeahead/suggestion-index.js';
import { peakResidentMB, resetPeakResident, residentMB } from './support/process-memory.js';

const url = process.env['DATABASE_URL'];
const schema = process.env['DATABASE_SCHEMA'];
if (!url || !schema) throw new Error('set DATABASE_URL and DATABASE_SCHEMA (a seeded calendar, e.g. bench_fresh_1000000)');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const MB = 1024 * 1024;
const pid = process.pid;

const rows: Record<string, string | number>[] = [];
let stepStarted = performance.now();
const step = (name: string) => {
  const memory = process.memoryUsage();
  rows.push({
    step: name,
    's': Math.round((performance.now() - stepStarted) / 100) / 10,
    'RSS MB': Math.round(residentMB(pid)),
    'peak in step MB': Math.round(peakResidentMB(pid)),
    'heap used MB': Math.round(memory.heapUsed / MB),
    'heap committed MB': Math.round(memory.heapTotal / MB),
    'array buffers MB': Math.round(memory.arrayBuffers / MB),
  });
  console.error(JSON.stringify(rows.at(-1)));
  resetPeakResident(pid);
  stepStarted = performance.now();
};

const database = await openDatabase({ url, schema, dataDir: '', poolSize: 2 });
try {
  step('process');
  let serving: CalendarSnapshot | null = await loadSnapshot(database.db, new Date());
  step('first build (serving)');
  gc();
  step('after a full collection: steady');

  const cutoff = new Date(Date.now() - RETAINED_ENDED_MS);
  const suggestions = new SuggestionIndexBuilder();
  const columns = await database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      await sql`select 1`.execute(trx);
      const catalogue = await readCatalogue(trx);
      step('compaction: catalogue');
      const events = await readEvents(trx, cutoff, catalogue, suggestions);
      step('compaction: events (and their words)');
      const dates = await readDates(trx, cutoff, events, catalogue);
      step('compaction: dates and the walk indexes');
      return { ...catalogue.snapshot, ...events.snapshot, ...dates, readOrder: events.readOrder };
    });
  const index = suggestions.build(columns, columns.readOrder, cutoff.getTime());
  step('compaction: suggestion index');
  const replacement = { ...columns, suggestions: index };
  console.error(`kept: ${serving.eventIds.length} events serving, ${replacement.eventIds.length} built`);
  serving = null;
  await new Promise((resolve) => setTimeout(resolve, 100));
  gc();
  step('swapped: replaced build dropped, full collection');
  await new Promise((resolve) => setTimeout(resolve, 3000));
  step('3 s later');
  console.table(rows);
  console.log(`environment: MALLOC_MMAP_THRESHOLD_=${process.env['MALLOC_MMAP_THRESHOLD_'] ?? '(unset)'}; ${replacement.dateCount} dates`);
} finally {
  await database.close();
}
