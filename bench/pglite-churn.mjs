// How often V8's WebAssembly crash (nodejs/node#64500, docs/runtime.md "A known V8 crash") kills a process
// that creates and frees embedded databases the way the test suite did, by V8 flags:
//
//   node bench/pglite-churn.mjs [processes=20] [instances per process=12] [flags, comma-separated sets]
//   e.g. node bench/pglite-churn.mjs 30 12 ",--liftoff-only"
//
// Each process opens `instances` PGlites, two at a time, each on a worker thread of its own (as
// src/db/pglite-thread.ts does), runs a few statements and closes it. A process that exits other than
// with status 0, or prints V8's check, counts as crashed. Prints one line per flag set: crashed/processes,
// and the wall time the set took (one process at a time).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [processes = '20', instances = '12', flagSets = ',--liftoff-only'] = process.argv.slice(2);

if (process.env['PGLITE_CHURN_CHILD']) {
  const { Worker } = await import('node:worker_threads');
  const body = `
    const { parentPort } = require('node:worker_threads');
    (async () => {
      const { PGlite } = await import('@electric-sql/pglite');
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
      const db = await PGlite.create({ extensions: { pg_trgm } });
      await db.exec('create extension pg_trgm; create table t (s text); insert into t select g::text from generate_series(1, 2000) g;');
      await db.query("select count(*) from t where s % '123'");
      await db.close();
      parentPort.postMessage('done');
    })();`;
  const one = () =>
    new Promise((resolve, reject) => {
      const worker = new Worker(body, { eval: true });
      worker.once('message', () => worker.terminate().then(resolve));
      worker.once('error', reject);
    });
  const count = Number(instances);
  for (let i = 0; i < count; i += 2) await Promise.all([one(), ...(i + 1 < count ? [one()] : [])]);
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
for (const set of flagSets.split(',').map((flags) => flags.trim())) {
  const flags = set ? set.split(/\s+/) : [];
  let crashed = 0;
  const started = performance.now();
  for (let i = 0; i < Number(processes); i++) {
    const { code, output } = await new Promise((resolve) => {
      const child = spawn(process.execPath, [...flags, self, processes, instances], { env: { ...process.env, PGLITE_CHURN_CHILD: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.once('close', (exitCode, signal) => resolve({ code: exitCode ?? signal, output }));
    });
    if (code !== 0 || /Check failed: jit_page/.test(output)) {
      crashed++;
      console.log(`  [${set || 'default'}] process ${i + 1}: ${code} ${output.split('\n').find((line) => line.includes('Check failed')) ?? ''}`);
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${set || 'default flags'}: ${crashed}/${processes} processes crashed (${instances} instances each), ${seconds} s`);
}
