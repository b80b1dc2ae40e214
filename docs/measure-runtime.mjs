// Start-up time and memory of the ways to run `calendar` (docs/runtime.md), from the repository root:
//   node docs/measure-runtime.mjs [runs]
// The compiled variant needs a build beside src/ first (not part of the project):
//   npx esbuild 'src/**/*.ts' --outdir=dist --outbase=src --platform=node --format=esm --target=node22
// Each variant: `--help` until exit, and `serve` until it prints "listening on" (then SIGTERM).
// RSS: the process and its descendants (tsx's CLI runs a child node; tsx keeps an esbuild service
// process), summed from /proc at the listening line. The PostgreSQL runs use the schema
// runtime_measure of MEASURE_DATABASE_URL (default: the local test database), dropped at the end.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 7);
const NODE = process.execPath;
const compiled = existsSync('dist/cli/main.js');
const variants = {
  'tsx at run time (bin/calendar.js)': [NODE, 'bin/calendar.js'],
  'tsx, empty transform cache': [NODE, 'bin/calendar.js'],
  ...(compiled ? { 'compiled (node dist/cli/main.js)': [NODE, 'dist/cli/main.js'] } : {}),
  'tsx CLI (npm start before)': [NODE, 'node_modules/tsx/dist/cli.mjs', 'src/cli/main.ts'],
};

function children(pid) {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))[1]);
      if (ppid === pid) out.push(Number(entry), ...children(Number(entry)));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return out;
}
function kb(pid, field) {
  try { return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]); } catch { return 0; }
}

function run(argv, args, env, waitFor) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(argv[0], [...argv.slice(1), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '', result;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      if (waitFor && !result && out.includes(waitFor)) {
        const ms = performance.now() - started;
        const tree = [child.pid, ...children(child.pid)];
        result = { ms, rssMb: tree.reduce((s, p) => s + kb(p, 'VmRSS'), 0) / 1024, peakMb: Math.max(...tree.map((p) => kb(p, 'VmHWM'))) / 1024, processes: tree.length };
        child.kill('SIGTERM');
      }
    });
    child.on('exit', (code) => {
      if (!waitFor) return code === 0 ? resolve({ ms: performance.now() - started }) : reject(new Error(err));
      return result ? resolve(result) : reject(new Error(`exited ${code} before listening: ${err}`));
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = { LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', DEMO_EVENTS: '20' };
const scratchDirs = [];
const scratch = (prefix) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
};
const seededDir = scratch('calendar-measure-');
const postgres = { DATABASE_URL: process.env.MEASURE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', DATABASE_SCHEMA: 'runtime_measure' };
const { Client } = createRequire(import.meta.url)('pg');
async function sql(text) {
  const client = new Client(postgres.DATABASE_URL);
  try {
    await client.connect();
    await client.query(text);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
const withPostgres = await sql('select 1');
for (const env of [{ CALENDAR_DATA_DIR: seededDir }, ...(withPostgres ? [postgres] : [])]) {
  await run([NODE, 'bin/calendar.js'], ['seed', '--events', '20', '--replace'], { ...base, ...env });
}

console.log(`node ${process.version}, ${runs} runs each, medians`);
console.log('| variant | `--help` | `serve`, PGlite memory:// | RSS | `serve`, PGlite data dir | RSS | `serve`, PostgreSQL | RSS |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, argv] of Object.entries(variants)) {
  const help = [], mem = [], disk = [], pg = [];
  for (let i = 0; i < runs; i++) {
    // The empty-cache variant gets a new TMPDIR (tsx keeps its cache in $TMPDIR/tsx-<uid>) per start.
    const cold = () => (name.includes('empty') ? { TMPDIR: scratch('tsx-cold-') } : {});
    help.push(await run(argv, ['--help'], { ...base, ...cold() }));
    mem.push(await run(argv, ['serve'], { ...base, ...cold(), CALENDAR_DATA_DIR: 'memory://' }, 'listening on'));
    disk.push(await run(argv, ['serve'], { ...base, ...cold(), CALENDAR_DATA_DIR: seededDir }, 'listening on'));
    if (withPostgres) pg.push(await run(argv, ['serve'], { ...base, ...cold(), ...postgres }, 'listening on'));
  }
  const f = (xs, k, unit) => (xs.length ? `${median(xs.map((x) => x[k])).toFixed(0)} ${unit}` : 'n/a');
  console.log(`| ${name} | ${f(help, 'ms', 'ms')} | ${f(mem, 'ms', 'ms')} | ${f(mem, 'rssMb', 'MB')} (${mem[0].processes} proc.) | ${f(disk, 'ms', 'ms')} | ${f(disk, 'rssMb', 'MB')} | ${f(pg, 'ms', 'ms')} | ${f(pg, 'rssMb', 'MB')} |`);
}
for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
if (withPostgres) await sql('drop schema if exists runtime_measure cascade');
