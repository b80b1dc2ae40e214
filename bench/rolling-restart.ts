/**
 * Issue 41's rehearsal as a command: two `calendar serve` nodes (built dist/, MIGRATE=off) over one
 * PostgreSQL schema (`bench_rolling`, migrated and loaded with 40 events first), a varnishd running
 * deploy/varnish/default.vcl in front of both, BENCH_CONCURRENCY loops of requests through it (cached
 * GETs, GETs with unique variables, POSTs), and each node in turn stopped with SIGTERM, started again
 * and waited for until the edge holds it healthy. Prints what was answered and every failed request.
 * test/deploy/rolling-restart.test.ts runs the same with the shipped settings and asserts 0 failures.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/rolling-restart.ts
 *   BENCH_SHUTDOWN_DELAY_MS=0 ...   # the nodes stop accepting at SIGTERM (the default before SHUTDOWN_DELAY_MS)
 *   BENCH_RETRY=off ...             # the shipped VCL without its retry on another node (vcl_backend_error)
 *   BENCH_ROUNDS=5 BENCH_CONCURRENCY=6 REDIS_URL=redis://127.0.0.1:6379 ...
 */
import { dropSchema, migrateToLatest, openDatabase } from '../src/db/open-database.js';
import { importCalendar } from '../src/import/import-calendar.js';
import { rehearsalCalendar, rehearseRollingRestart } from '../test/support/varnish-rolling-restart.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL the bench may create the schema bench_rolling in');
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 1);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 6);
const shutdownDelayMs = process.env['BENCH_SHUTDOWN_DELAY_MS'] ?? '3000';
const retrying = process.env['BENCH_RETRY'] !== 'off';
const schema = 'bench_rolling';

const RETRY = /\n {2}if \(bereq\.retries < 2\) \{\n {4}return \(retry\);\n {2}\}/;
const withoutRetry = (shipped: string) => {
  if (!RETRY.test(shipped)) throw new Error('deploy/varnish/default.vcl: no retry in vcl_backend_error to take out');
  return shipped.replace(RETRY, '');
};

const database = await openDatabase({ url: databaseUrl, schema, dataDir: '', poolSize: 2 });
await dropSchema(database.db, schema);
await database.close();
const fresh = await openDatabase({ url: databaseUrl, schema, dataDir: '', poolSize: 2 });
await migrateToLatest(fresh.db);
await importCalendar(fresh, rehearsalCalendar());
await fresh.close();

const env = {
  DATABASE_URL: databaseUrl,
  DATABASE_SCHEMA: schema,
  DATABASE_POOL_SIZE: '3',
  MIGRATE: 'off',
  SHUTDOWN_DELAY_MS: shutdownDelayMs,
  ...(process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}),
};
console.log(`SHUTDOWN_DELAY_MS=${shutdownDelayMs}, retry ${retrying ? 'on' : 'off'}, ${concurrency} loops, ${rounds} round(s)`);
let failed = 0;
let answered = 0;
for (let round = 1; round <= rounds; round += 1) {
  const rehearsal = await rehearseRollingRestart({
    env,
    concurrency,
    settleMs: 2_000,
    vcl: retrying ? undefined : withoutRetry,
    log: (line) => console.log(`  ${line}`),
  });
  await rehearsal.close();
  const { load } = rehearsal;
  const total = Object.values(load.answered).reduce((sum, n) => sum + n, 0);
  answered += total;
  failed += load.failures.length;
  const served = rehearsal.nodes.map((node, i) => `node_${i + 1} ${node.graphqlAnswered().join(' then ')}`).join(', ');
  console.log(
    `round ${round}: ${total} right answers (${Object.entries(load.answered).map(([kind, n]) => `${n} ${kind}`).join(', ')}), ` +
      `${load.failures.length} failed; exits ${rehearsal.exits.join(', ')}; GraphQL requests served: ${served}`,
  );
  for (const failure of load.failures.slice(0, 10)) console.log(`  failed: ${failure}`);
}
console.log(`total: ${answered} right answers, ${failed} failed`);
const cleanup = await openDatabase({ url: databaseUrl, schema, dataDir: '', poolSize: 1 });
await dropSchema(cleanup.db, schema);
await cleanup.close();
