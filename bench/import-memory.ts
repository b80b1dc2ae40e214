/**
 * Wall time and peak memory of `calendar import FILE` and `calendar seed --events N` at scale, each
 * run as its own process against the PostgreSQL named by DATABASE_URL, into a fresh schema
 * (BENCH_SCHEMA, dropped before every run and at the end). The import files are demo calendars
 * written into a temporary folder (100k events: 188 MB, 1M: 1.9 GB) and removed at the end.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/import-memory.ts
 *   BENCH_SIZES=100000 BENCH_SERVICE_DIR=/tmp/before-import node --import tsx bench/import-memory.ts   # another checkout
 *   BENCH_COMMANDS=import BENCH_DIR=/var/tmp BENCH_SCHEMA=bench_import
 *
 * Peak RSS is the kernel's high-water mark of the command's process (VmHWM in /proc/<pid>/status),
 * read every 50 ms until it exits: the mark only grows, so the last reading is the peak.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { demoCalendar } from '../src/demo/demo-calendar.js';

const url = process.env['DATABASE_URL'];
if (!url) throw new Error('Set DATABASE_URL to a PostgreSQL database, e.g. postgres://postgres@127.0.0.1:5432/test');
const schema = process.env['BENCH_SCHEMA'] ?? 'bench_import';
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`BENCH_SCHEMA must be a lower-case SQL identifier, got ${schema}`);
const sizes = (process.env['BENCH_SIZES'] ?? '100000,1000000').split(',').map(Number);
const commands = (process.env['BENCH_COMMANDS'] ?? 'import,seed').split(',');
const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
// A fixed day: the same calendar in the file and from `seed`, whenever the bench runs.
const NOW = '2026-03-25T12:00:00+01:00';

/** The demo calendar as a file, written event by event (the same bytes as JSON.stringify of it whole). */
async function writeDemoFile(path: string, events: number): Promise<void> {
  const demo = demoCalendar({ events, seed: 1, today: new Date(NOW) });
  const out = createWriteStream(path);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`{"categories":${JSON.stringify(demo.categories)},"venues":${JSON.stringify(demo.venues)},"organizers":${JSON.stringify(demo.organizers)},"events":[`);
  let first = true;
  for (const event of demo.events) {
    await write(`${first ? '' : ','}${JSON.stringify(event)}`);
    first = false;
  }
  await write(']}');
  out.end();
  await once(out, 'finish');
}

async function dropSchema(): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

async function highWaterMarkKb(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null; // exited between two readings
  }
}

interface Measured {
  code: number | null;
  seconds: number;
  peakMb: number;
  summary: string;
  stderrTail: string;
}

/** `node bin/calendar.js ...args` in the service folder, into a fresh schema. */
async function measure(args: string[]): Promise<Measured> {
  await dropSchema();
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/calendar.js', ...args], {
    cwd: serviceDir,
    env: { ...process.env, DATABASE_URL: url, DATABASE_SCHEMA: schema, CALENDAR_NOW: NOW, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  let peakKb = 0;
  const exited = once(child, 'exit') as Promise<[number | null]>;
  let running = true;
  void exited.then(() => (running = false));
  while (running) {
    const kb = await highWaterMarkKb(child.pid!);
    if (kb !== null) peakKb = Math.max(peakKb, kb);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  const [code] = await exited;
  const summary = /^(Imported .*)$/m.exec(stdout)?.[1] ?? '';
  return { code, seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, summary, stderrTail: stderr.trim().split('\n').slice(-3).join('\n') };
}

const dir = await mkdtemp(join(process.env['BENCH_DIR'] ?? tmpdir(), 'import-memory-'));
const rows: string[] = [];
try {
  console.log(`service: ${serviceDir}, schema ${schema}, files in ${dir}`);
  for (const events of sizes) {
    const file = join(dir, `demo-${events}.json`);
    if (commands.includes('import')) {
      const generated = performance.now();
      await writeDemoFile(file, events);
      const bytes = (await stat(file)).size;
      console.log(`wrote ${file}: ${(bytes / 1e6).toFixed(0)} MB in ${((performance.now() - generated) / 1000).toFixed(1)} s`);
      const run = await measure(['import', file]);
      rows.push(row(`import (${(bytes / 1e6).toFixed(0)} MB file)`, events, run));
      await rm(file, { force: true });
    }
    if (commands.includes('seed')) rows.push(row('seed', events, await measure(['seed', '--events', String(events)])));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
  await dropSchema();
}

function row(command: string, events: number, run: Measured): string {
  const line = `| ${command} | ${events.toLocaleString('en-US')} | ${run.seconds.toFixed(1)} | ${run.peakMb.toFixed(0)} | ${run.code === 0 ? 'ok' : `exit ${run.code}`} |`;
  console.log(line);
  if (run.code !== 0) console.log(run.stderrTail);
  else console.log(`  ${run.summary}`);
  return line;
}

console.log('\n| command | events | wall s | peak RSS MB | result |\n|---|---|---|---|---|');
for (const line of rows) console.log(line);
