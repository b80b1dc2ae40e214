// The embedded database's thread (see pglite-thread.ts): PGlite runs its WebAssembly PostgreSQL
// synchronously, so on the main thread one heavy statement would stop every other request, /health
// included. Plain JavaScript: a worker is started by Node itself, outside any TypeScript loader.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';

// Thread-wide: this worker thread serves one database (its PGlite below), so its module state is that database's.
/** Open transactions by id: each holds PGlite's transaction until the main thread commits or rolls back. */
const transactions = new Map();
let nextTransaction = 1;

/** Errors cross threads as plain data: the driver's fields (code, detail, ...) with the message. */
function plainError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = {};
  for (const [name, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function' || (typeof value === 'object' && value !== null)) continue;
    fields[name] = value;
  }
  return { ...fields, message: error.message, name: error.name };
}

let pglite;
try {
  const { dataDir, template, setup } = workerData;
  // A template (a tarball of dumpDataDir) starts the database from its files: no initdb, no migrations.
  const loadDataDir = template ? new Blob([await readFile(template)]) : undefined;
  pglite = await PGlite.create({
    ...(dataDir === 'memory://' ? {} : { dataDir }),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { pg_trgm, unaccent, fuzzystrmatch },
  });
  for (const statement of setup) await pglite.exec(statement);
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ ready: false, error: plainError(error) });
}

async function handle(message) {
  switch (message.op) {
    case 'query': {
      const target = message.transaction ? transactions.get(message.transaction)?.tx : pglite;
      if (!target) throw new Error('The transaction has ended.');
      const { rows, affectedRows, fields } = await target.query(message.sql, message.params, { rowMode: 'object' });
      return { rows, affectedRows, fields };
    }
    case 'begin': {
      const id = nextTransaction++;
      let begun;
      const started = new Promise((resolve) => (begun = resolve));
      const entry = {};
      entry.done = pglite.transaction(
        (tx) =>
          new Promise((commit, rollback) => {
            Object.assign(entry, { tx, commit, rollback });
            begun();
          }),
      );
      // Settled by commit or rollback below; never an unhandled rejection meanwhile.
      entry.done.catch(() => undefined);
      transactions.set(id, entry);
      await started;
      return { transaction: id };
    }
    case 'commit':
    case 'rollback': {
      const entry = transactions.get(message.transaction);
      if (!entry) return {};
      transactions.delete(message.transaction);
      if (message.op === 'commit') {
        entry.commit();
        await entry.done;
      } else {
        entry.rollback(new Error('rolled back'));
        await entry.done.catch(() => undefined);
      }
      return {};
    }
    case 'dump': {
      // Uncompressed: a tarball loaded again at once is read faster than it is gunzipped.
      const tarball = await pglite.dumpDataDir('none');
      return { tarball: new Uint8Array(await tarball.arrayBuffer()) };
    }
    case 'close':
      await pglite.close();
      return {};
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

parentPort.on('message', (message) => {
  handle(message).then(
    (result) => parentPort.postMessage({ id: message.id, result }),
    (error) => parentPort.postMessage({ id: message.id, error: plainError(error) }),
  );
});
