/**
 * What a node's read model is made of (issue 42's memory figures): builds the snapshot of one seeded
 * schema in this process and prints, per part of it (`CalendarSnapshot`'s fields, the walk's indexes
 * and the suggestion index one level down), the bytes of its typed arrays, its strings and the rest
 * (arrays, records, maps), estimated by walking the object graph with V8's layout on 64-bit Node
 * (no pointer compression): a sequential string is 16 bytes of header + its characters (1 byte each
 * when all are Latin-1, else 2), rounded up to 8; an array 32 bytes + 8 a slot; an object 24 + 8 a
 * property; a Map about 40 bytes an entry. Then the same process's measured figures for the check:
 * the heap kept and the array buffers after a full GC, and the RSS. Then, with BENCH_SERVE (default on),
 * a `calendar serve` process of this checkout on the same schema: its RSS once ready and settled (the
 * figure per worker).
 *
 *   npm run build
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test DATABASE_SCHEMA=bench_fresh_1000000 \
 *     node --expose-gc --import tsx bench/snapshot-memory.ts
 *   BENCH_SERVE=0 ...   # the in-process figures alone
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/db/open-database.js';
import type { CalendarSnapshot } from '../src/read-model/snapshot/calendar-snapshot.js';
import { loadSnapshot } from '../src/read-model/snapshot/load-snapshot.js';

const url = process.env['DATABASE_URL'];
const schema = process.env['DATABASE_SCHEMA'];
if (!url || !schema) throw new Error('set DATABASE_URL and DATABASE_SCHEMA (a seeded calendar, e.g. bench_fresh_1000000)');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const serve = process.env['BENCH_SERVE'] !== '0';
const MB = 1024 * 1024;
const statusMB = (pid: number | 'self', field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

interface Tally {
  typed: number;
  strings: number;
  stringCount: number;
  other: number;
}

/** Estimated bytes of everything reachable from `root` not already counted (`seen` is shared across parts, so a value two parts share counts once, in the first). */
function tally(root: unknown, seen: Set<unknown>, buffers: Set<ArrayBufferLike>): Tally {
  const t: Tally = { typed: 0, strings: 0, stringCount: 0, other: 0 };
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      // Strings are values: equal ones may be one object or many; counted each time they are held (an upper bound).
      let wide = false;
      for (let i = 0; i < value.length && !wide; i++) wide = value.charCodeAt(i) > 0xff;
      t.strings += Math.ceil((16 + value.length * (wide ? 2 : 1)) / 8) * 8;
      t.stringCount++;
      continue;
    }
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (ArrayBuffer.isView(value)) {
      t.other += 80; // the view object
      if (!buffers.has(value.buffer)) {
        buffers.add(value.buffer);
        t.typed += value.buffer.byteLength;
      }
    } else if (Array.isArray(value)) {
      t.other += 32 + 8 * value.length;
      for (const item of value) stack.push(item);
    } else if (value instanceof Map) {
      t.other += 40 * value.size + 64;
      for (const [key, item] of value) stack.push(key, item);
    } else if (value instanceof Set) {
      t.other += 32 * value.size + 64;
      for (const item of value) stack.push(item);
    } else {
      const entries = Object.values(value as Record<string, unknown>);
      t.other += 24 + 8 * entries.length;
      for (const item of entries) stack.push(item);
    }
  }
  return t;
}

const database = await openDatabase({ url, dataDir: 'memory://', schema });
gc();
const before = process.memoryUsage();
const rssBefore = statusMB('self', 'VmRSS');
const started = performance.now();
const snapshot: CalendarSnapshot = await loadSnapshot(database.db, new Date());
const buildS = (performance.now() - started) / 1000;
const peakDuringBuild = statusMB('self', 'VmHWM');
gc();
const after = process.memoryUsage();
await database.close();

// Parts: each field of the snapshot; the walk's indexes and the suggestion index one level down.
const seen = new Set<unknown>([snapshot, snapshot.walk, snapshot.suggestions]);
const buffers = new Set<ArrayBufferLike>();
const parts: [string, unknown][] = [
  ...Object.entries(snapshot).filter(([name]) => name !== 'walk' && name !== 'suggestions'),
  ...Object.entries(snapshot.walk).map(([name, value]): [string, unknown] => [`walk.${name}`, value]),
  ...Object.entries(snapshot.suggestions).map(([name, value]): [string, unknown] => [`suggestions.${name}`, value]),
];
const rows = parts
  .map(([name, value]) => ({ name, ...tally(value, seen, buffers) }))
  .map((row) => ({ ...row, total: row.typed + row.strings + row.other }))
  .sort((a, b) => b.total - a.total);
const sum = (key: 'typed' | 'strings' | 'other' | 'total' | 'stringCount') => rows.reduce((s, row) => s + row[key], 0);
const fmt = (bytes: number) => (bytes / MB).toFixed(1).padStart(8);

console.log(`\n${schema}: ${snapshot.eventIds.length} events kept, ${snapshot.dateCount} dates; built in ${buildS.toFixed(1)} s (Node ${process.version})\n`);
console.log(`${'part'.padEnd(36)}${'typed MB'.padStart(9)}${'strings MB'.padStart(11)}${'other MB'.padStart(9)}${'total MB'.padStart(9)}${'strings'.padStart(10)}`);
for (const row of rows.filter((r) => r.total >= 0.05 * MB)) {
  console.log(`${row.name.padEnd(36)} ${fmt(row.typed)}  ${fmt(row.strings)} ${fmt(row.other)} ${fmt(row.total)}${String(row.stringCount).padStart(10)}`);
}
const small = rows.filter((r) => r.total < 0.05 * MB);
console.log(`${`(${small.length} parts under 0.05 MB)`.padEnd(36)} ${fmt(small.reduce((s, r) => s + r.typed, 0))}  ${fmt(small.reduce((s, r) => s + r.strings, 0))} ${fmt(small.reduce((s, r) => s + r.other, 0))} ${fmt(small.reduce((s, r) => s + r.total, 0))}`);
console.log(`${'estimated, all'.padEnd(36)} ${fmt(sum('typed'))}  ${fmt(sum('strings'))} ${fmt(sum('other'))} ${fmt(sum('total'))}${String(sum('stringCount')).padStart(10)}`);
console.log(
  `\nmeasured after a full GC: heap kept ${fmt(after.heapUsed - before.heapUsed)} MB, array buffers ${fmt(after.arrayBuffers - before.arrayBuffers)} MB` +
    ` (estimate: strings + other ${((sum('strings') + sum('other')) / MB).toFixed(1)} MB, typed ${(sum('typed') / MB).toFixed(1)} MB)`,
);
console.log(
  `this process: RSS ${rssBefore.toFixed(0)} MB before the build, ${statusMB('self', 'VmRSS').toFixed(0)} MB after it, peak ${peakDuringBuild.toFixed(0)} MB during it; ` +
    `after it V8's heap ${fmt(after.heapTotal).trim()} MB committed (${fmt(after.heapUsed).trim()} used), external ${fmt(after.external).trim()} MB`,
);

if (serve) {
  // One `calendar serve` of this checkout: what one node (or one worker) holds, settled.
  const root = fileURLToPath(new URL('..', import.meta.url));
  // As npm start runs it (its V8 flags), logging to stderr.
  const child = spawn(process.execPath, ['--max-semi-space-size=16', '--no-allocation-site-pretenuring', 'bin/calendar.js', 'serve'], {
    cwd: root,
    env: { ...process.env, PORT: '0', MIGRATE: 'off', LOG_LEVEL: 'info', DEMO_EVENTS: '0', REDIS_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 600_000;
  while (!/"msg":"read model built"/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`calendar serve did not build its read model:\n${output.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const builtRss = statusMB(child.pid!, 'VmRSS');
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  // Its own account of the memory (prom-client's default process and heap metrics).
  const metricsUrl = /"metrics":\{[^}]*"url":"([^"]+)"/.exec(output)?.[1];
  if (metricsUrl) {
    const metrics = await (await fetch(metricsUrl)).text();
    const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(metrics)?.[1] ?? NaN) / MB;
    console.log(
      `calendar serve, its /metrics: resident ${value('process_resident_memory_bytes').toFixed(0)} MB, heap committed ${value('nodejs_heap_size_total_bytes').toFixed(0)} MB ` +
        `(used ${value('nodejs_heap_size_used_bytes').toFixed(0)}), external ${value('nodejs_external_memory_bytes').toFixed(0)} MB`,
    );
  }
  console.log(
    `calendar serve: RSS ${builtRss.toFixed(0)} MB when its read model was built, ${statusMB(child.pid!, 'VmRSS').toFixed(0)} MB settled 15 s later, ` +
      `peak ${statusMB(child.pid!, 'VmHWM').toFixed(0)} MB (start-up build)`,
  );
  console.log(`its build: ${/\{[^\n]*"msg":"read model built"\}/.exec(output)![0]}`);
  child.kill('SIGTERM');
}
