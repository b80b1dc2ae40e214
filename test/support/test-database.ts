import { randomBytes } from 'node:crypto';
import { sql, type KyselyPlugin } from 'kysely';
import { inject } from 'vitest';
import { CommittedImports } from '../../src/db/committed-imports.js';
import { DatabaseHealth } from '../../src/db/database-health.js';
import { dropSchema, migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/open-database.js';
import { timedPhase } from './phase-timings.js';

/**
 * A fresh, migrated database for one test (or test file): a new schema on the PostgreSQL named by
 * DATABASE_URL (dropped again by `close`), or by default an embedded database: a PGlite of this test
 * process that holds nothing else while the test has it (see `leaseEmbedded`). `openedNow`: an
 * embedded database opened by this call, never one opened before (what is set up as a database opens,
 * such as statement tracing, then applies to it); closed for good by `close`.
 */
export async function createTestDatabase(options: { openedNow?: boolean } = {}): Promise<DatabaseHandle> {
  const url = process.env['DATABASE_URL'] || undefined;
  if (!url) return options.openedNow ? openEmbedded() : leaseEmbedded();
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const handle = await timedPhase('database open', () => openDatabase({ url, dataDir: 'memory://', schema, poolSize: 4 }));
  await timedPhase('database migrate', () => migrateToLatest(handle.db));
  return {
    ...handle,
    close: async () => {
      await dropSchema(handle.db, schema);
      await handle.close();
    },
  };
}

/**
 * Embedded databases of this test process that nobody holds: each emptied and migrated again, as
 * fresh as a new one. Opening a PGlite costs seconds of CPU (its WebAssembly compiled, the run's
 * template loaded, PostgreSQL started); emptying one costs a drop of its schema and the migrations
 * (a few hundred ms). A test process (a Vitest worker) so opens as many as it ever holds at once,
 * not one per test and file; fewer instances created and freed is also what keeps V8's WebAssembly
 * crash away (docs/runtime.md, "A known V8 crash").
 */
const idleEmbedded: DatabaseHandle[] = [];

/**
 * An embedded database for the caller alone until it calls `close`: an idle one of this process,
 * or a new one from the run's migrated template (embedded-template.ts). `close` empties it (its
 * schema dropped and migrated again) and keeps it for the next caller, unless it was left unusable.
 * Each lease has a health and an import registry of its own, as a newly opened database has.
 */
async function leaseEmbedded(): Promise<DatabaseHandle> {
  const handle = idleEmbedded.pop() ?? (await openEmbedded());
  let closed = false;
  // What a closed database does to a statement sent late (a timer of a service stopped meanwhile):
  // refuses it, rather than letting it reach the next lease of the same PGlite.
  const gate: KyselyPlugin = {
    transformQuery: (args) => {
      if (closed) throw new Error('The embedded database is closed.');
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  const db = handle.db.withPlugin(gate);
  return {
    ...handle,
    db,
    readDb: db,
    health: new DatabaseHealth(),
    committedImports: new CommittedImports(),
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await timedPhase('database emptied', () => emptyEmbedded(handle));
        idleEmbedded.push(handle);
      } catch {
        // Closed or broken by its test: not kept.
        await handle.close().catch(() => undefined);
      }
    },
  };
}

/** A new embedded database from the run's migrated template. */
function openEmbedded(): Promise<DatabaseHandle> {
  return timedPhase('database open', async () => {
    const opened = await openDatabase({ dataDir: 'memory://', template: embeddedTemplate(undefined), poolSize: 4 });
    // The template is migrated: this only checks it.
    await migrateToLatest(opened.db);
    return opened;
  });
}

/** Everything a test wrote gone: the schema dropped (tables, functions, extensions) and migrated anew. */
async function emptyEmbedded(handle: DatabaseHandle): Promise<void> {
  await sql`drop schema public cascade`.execute(handle.db);
  await sql`create schema public`.execute(handle.db);
  await migrateToLatest(handle.db);
}

/** The run's migrated embedded database, for databases that are not on PostgreSQL. */
export function embeddedTemplate(url: string | undefined): string | undefined {
  return url ? undefined : inject('embeddedTemplate') || undefined;
}

/** Which database the suite runs on, for test names. */
export const databaseLabel = process.env['DATABASE_URL'] ? 'PostgreSQL' : 'PGlite';
