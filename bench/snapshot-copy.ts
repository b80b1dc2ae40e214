/**
 * Issue 42's floor for a snapshot patched in place of a rebuild: one copy of every typed array the
 * snapshot holds (a patch that keeps the old version intact for the requests still reading it copies
 * at least that much). Builds the snapshot of the schema SCHEMA in this process, prints the build's
 * CPU, the arrays' count and bytes, then the CPU of copying them all (`slice()`), three rounds.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test SCHEMA=bench_fresh_100000 node --expose-gc --import tsx bench/snapshot-copy.ts
 */
import { openDatabase } from '../src/db/open-database.js';
import { loadSnapshot } from '../src/read-model/snapshot/load-snapshot.js';
import { typedArrayBytes } from '../src/read-model/snapshot/calendar-snapshot.js';
import { readFileSync } from 'node:fs';
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const url = process.env['DATABASE_URL'];
const schema = process.env['SCHEMA'];
if (!url || !schema) throw new Error('set DATABASE_URL and SCHEMA (a seeded schema, e.g. bench_fresh_100000 of bench/freshness.ts)');
const database = await openDatabase({ url, schema, dataDir: '', poolSize: 2 });
const c0 = process.cpuUsage();
const s = await loadSnapshot(database.db, new Date());
const cu = process.cpuUsage(c0);
await database.close();
(globalThis as { gc?: () => void }).gc?.();
const arrays: ArrayBufferView[] = [];
const seen = new Set<unknown>();
/** Every typed array reachable from the snapshot (maps and the strings of arrays aside). */
const visit = (v: unknown, depth: number) => {
  if (v === null || typeof v !== 'object' || seen.has(v) || depth > 6) return;
  seen.add(v);
  if (ArrayBuffer.isView(v)) { arrays.push(v); return; }
  if (v instanceof Map) return;
  for (const x of Array.isArray(v) ? v.slice(0, 64) : Object.values(v)) visit(x, depth + 1);
};
visit(s, 0);
const bytes = arrays.reduce((n, a) => n + a.byteLength, 0);
console.log(`build CPU ${((cu.user + cu.system) / 1000).toFixed(0)} ms; ${s.eventIds.length} events, ${s.dateCount} dates; typedArrayBytes ${(typedArrayBytes(s) / 1e6).toFixed(1)} MB, arrays found ${arrays.length} = ${(bytes / 1e6).toFixed(1)} MB; RSS ${rss().toFixed(0)} MB; heapUsed ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
for (let round = 0; round < 3; round++) {
  const t = process.cpuUsage();
  const copies = arrays.map((a) => (a as Uint8Array).slice());
  const u = process.cpuUsage(t);
  console.log(`copy of every typed array (a patch's floor): ${((u.user + u.system) / 1000).toFixed(1)} ms CPU, ${copies.length} arrays`);
}
