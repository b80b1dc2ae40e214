import { sql, type KyselyPlugin } from 'kysely';
import { inject } from 'vitest';
import { CommittedImports } from '../../src/db/committed-imports.js';
import { DatabaseHealth } from '../../src/db/database-health.js';
import { dropSchema, migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/open-database.js';
import { timedPhase } from './phase-timings.js';
import { testSchemaName } from './test-run-schemas.js';

/**
 * A fresh, migrated database for one test (or test file), which nothing else uses while the test has
 * it: a schema on the PostgreSQL named by DATABASE_URL (see `leasePostgresSchema`), or by default an
 * embedded database, a PGlite of this test process (see `leaseEmbedded`). Both are emptied by `close`
 * and given to the next test of the process. `openedNow`: a database opened by this call, never one
 * opened before (what is set up as a database opens, such as statement tracing, then applies to it);
 * closed for good (the schema dropped) by `close`.
 */
export async function createTestDatabase(options: { openedNow?: boolean } = {}): Promise<DatabaseHandle> {
  const url = process.env['DATABASE_URL'] || undefined;
  if (!url) return options.openedNow ? openEmbedded() : leaseEmbedded();
  if (options.openedNow) {
    const opened = await openPostgresSchema(url);
    return { ...opened.handle, close: () => dropPostgresSchema(opened) };
  }
  return leasePostgresSchema(url);
}

/** A migrated schema on the PostgreSQL of DATABASE_URL, and what it held right after migrating. */
interface PostgresSchema {
  handle: DatabaseHandle;
  /** Its tables, columns, indexes, functions, triggers and privileges (`structureOf`). */
  structure: string;
  /** The rows the migrations wrote (calendar_state's), by table, as JSON. */
  migratedRows: Map<string, string>;
  /** Its tables but the migrator's own. */
  tables: string[];
}

/**
 * Schemas of this test process that nobody holds, emptied: every table truncated (identities
 * restarted) and the migrations' rows written back, checked to hold the structure a fresh migration
 * gives. Creating, migrating and dropping a schema costs about 0.3 s of the client and as much of the
 * server's CPU (a hundred test databases in a run); emptying one, a few tens of ms. A service using
 * Redis on a lent schema must not use the default cache namespace (`calendar:<schema>:…`, whose data
 * versions start over for the next test): test-server.ts gives every server one of its own; `calendar`
 * processes with REDIS_URL take a schema opened for them (`openedNow`), never lent again.
 */
const idlePostgres: PostgresSchema[] = [];

async function openPostgresSchema(url: string): Promise<PostgresSchema> {
  const schema = testSchemaName(inject('testRun'));
  const handle = await timedPhase('database open', () => openDatabase({ url, dataDir: 'memory://', schema, poolSize: 4 }));
  await timedPhase('database migrate', () => migrateToLatest(handle.db));
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = ${schema} and tablename not in ('kysely_migration', 'kysely_migration_lock') order by tablename`.execute(handle.db);
  const tables = rows.map((row) => row.name);
  const migratedRows = new Map<string, string>();
  for (const table of tables) {
    const { rows: held } = await sql<{ rows: string | null }>`select json_agg(t)::text as rows from ${sql.table(table)} t`.execute(handle.db);
    if (held[0]?.rows) migratedRows.set(table, held[0].rows);
  }
  return { handle, structure: await structureOf(handle), migratedRows, tables };
}

async function dropPostgresSchema({ handle }: PostgresSchema): Promise<void> {
  try {
    await dropSchema(handle.db, handle.schema);
  } finally {
    await handle.close();
  }
}

/** A migrated, empty schema for the caller alone until it calls `close`, which empties it for the next caller. */
async function leasePostgresSchema(url: string): Promise<DatabaseHandle> {
  const kept = idlePostgres.pop() ?? (await openPostgresSchema(url));
  return leased(kept.handle, async () => {
    try {
      await timedPhase('database emptied', () => emptyPostgresSchema(kept));
      idlePostgres.push(kept);
    } catch {
      // Changed in structure by its test, or unusable: dropped, as every schema was before.
      await dropPostgresSchema(kept).catch(() => undefined);
    }
  });
}

/** Every row a test wrote gone, the migrations' rows back, in one transaction; throws unless the structure is a fresh one's. */
async function emptyPostgresSchema(kept: PostgresSchema): Promise<void> {
  await kept.handle.db.transaction().execute(async (trx) => {
    // A connection of a test's service still holding a lock fails this instead of hanging it.
    await sql`set local lock_timeout = '5s'`.execute(trx);
    await sql`truncate ${sql.join(kept.tables.map((table) => sql.table(table)))} restart identity cascade`.execute(trx);
    for (const [table, rows] of kept.migratedRows) {
      await sql`insert into ${sql.table(table)} select * from json_populate_recordset(null::${sql.table(table)}, ${rows}::json)`.execute(trx);
    }
  });
  if ((await structureOf(kept.handle)) !== kept.structure) throw new Error(`schema ${kept.handle.schema} was changed by its test`);
}

/** A digest of what a schema is made of besides its rows: what a test could change and truncation not undo. */
async function structureOf(handle: DatabaseHandle): Promise<string> {
  const schema = handle.schema;
  const { rows } = await sql<{ digest: string }>`
    select md5(coalesce(string_agg(part, E'\n' order by part), '')) as digest from (
      select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as part
        from information_schema.columns where table_schema = ${schema}
      union all select 'index ' || indexdef from pg_indexes where schemaname = ${schema}
      union all select 'function ' || p.proname || ' ' || md5(p.prosrc) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = ${schema}
      union all select 'trigger ' || t.tgname || ' ' || c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and not t.tgisinternal
      union all select 'relation ' || c.relname || ' ' || c.relkind::text || ' ' || coalesce(c.relacl::text, '') from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema}
      union all select 'schema ' || coalesce(nspacl::text, '') from pg_namespace where nspname = ${schema}
    ) parts`.execute(handle.db);
  return rows[0]?.digest ?? '';
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
 */
async function leaseEmbedded(): Promise<DatabaseHandle> {
  const handle = idleEmbedded.pop() ?? (await openEmbedded());
  const release = async () => {
    try {
      await timedPhase('database emptied', () => emptyEmbedded(handle));
      idleEmbedded.push(handle);
    } catch {
      // Closed or broken by its test: not kept.
      await handle.close().catch(() => undefined);
    }
  };
  // The PGlite's health is its own, not its pool's (it has none): a new one, as a newly opened database has.
  return leased(handle, release, { health: new DatabaseHealth() });
}

/**
 * `handle` lent to one caller: its `close` runs `release` once. A statement sent after that (a timer of
 * a service stopped meanwhile) is refused, as a closed database refuses it, rather than reaching the
 * next caller's. The lease has an import registry of its own, as a newly opened database has.
 */
function leased(handle: DatabaseHandle, release: () => Promise<void>, own: Partial<DatabaseHandle> = {}): DatabaseHandle {
  let closed = false;
  const gate: KyselyPlugin = {
    transformQuery: (args) => {
      if (closed) throw new Error('The test database is closed.');
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  const db = handle.db.withPlugin(gate);
  return {
    ...handle,
    db,
    readDb: db,
    committedImports: new CommittedImports(),
    ...own,
    close: async () => {
      if (closed) return;
      closed = true;
      await release();
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
