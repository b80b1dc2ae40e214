/**
 * What a compaction one segment at a time holds, step by step (issue 54, item 3), in this process: a full
 * build of a seeded schema in segments of BENCH_SEGMENT_EVENTS (default 60 000), then every segment read
 * again in turn (`loadSegmentSince`) and the newest version layered over the build so far, as the read model
 * does; after each step a full collection and the process's RSS, V8's heap and the array buffers.
 *
 *   MALLOC_MMAP_THRESHOLD_=131072 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test DATABASE_SCHEMA=bench_fresh_1000000 \
 *     taskset -c 1 node --max-semi-space-size=16 --no-allocation-site-pretenuring --expose-gc --import tsx bench/rolling-memory.ts
 */
import { openDatabase } from '../src/db/open-database.js';
import { fullLayers, type LayeredSnapshot } from '../src/read-model/layers/layered-snapshot.js';
import { loadFullBuildSince, loadLayeredSnapshot, loadSegmentSince } from '../src/read-model/snapshot/load-snapshot.js';
import { peakResidentMB, resetPeakResident, residentMB } from './support/process-memory.js';

const url = process.env['DATABASE_URL'];
const schema = process.env['DATABASE_SCHEMA'];
if (!url || !schema) throw new Error('set DATABASE_URL and DATABASE_SCHEMA (a seeded calendar, e.g. bench_fresh_1000000)');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const segmentEvents = Number(process.env['BENCH_SEGMENT_EVENTS'] ?? 60_000);
const MB = 1024 * 1024;
const pid = process.pid;
const now = new Date();

const rows: Record<string, string | number>[] = [];
const step = (name: string) => {
  gc();
  const memory = process.memoryUsage();
  rows.push({
    step: name,
    'peak in step MB': Math.round(peakResidentMB(pid)),
    'RSS MB (collected)': Math.round(residentMB(pid)),
    'heap used MB': Math.round(memory.heapUsed / MB),
    'heap committed MB': Math.round(memory.heapTotal / MB),
    'array buffers MB': Math.round(memory.arrayBuffers / MB),
    'external MB': Math.round(memory.external / MB),
  });
  console.error(JSON.stringify(rows.at(-1)));
  resetPeakResident(pid);
};

const database = await openDatabase({ url, schema, dataDir: '', poolSize: 2 });
try {
  step('process');
  let layers: LayeredSnapshot = fullLayers((await loadFullBuildSince(database.db, now, null, segmentEvents)).full);
  const count = layers.full.segments.length;
  step(`full build in ${count} segments`);
  for (let index = 0; index < count; index++) {
    const full = await loadSegmentSince(database.db, now, layers.full, index, layers);
    const next = await loadLayeredSnapshot(database.db, fullLayers(full));
    if ('fallback' in next) throw new Error(`fell back: ${next.fallback}`);
    layers = next.layered;
    step(`segment ${index} read again`);
  }
} finally {
  await database.close();
}
console.table(rows);
