import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

export interface DatabaseOptions {
  /** `postgres://...` for a real server; undefined for the embedded PGlite. */
  url?: string | undefined;
  /** PGlite data directory, or `memory://` for an in-memory database. */
  dataDir: string;
  /** Schema holding our tables (tests use a fresh one each). @default 'public' */
  schema?: string | undefined;
  /** Pool size for PostgreSQL. @default 10 */
  poolSize?: number | undefined;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  driver: 'postgres' | 'pglite';
  schema: string;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Opens the database on one of two drivers behind the same Kysely SQL path:
 * PostgreSQL through a `pg` pool when a URL is given, otherwise the embedded PGlite.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const schema = options.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid database schema name: ${schema}`);
  const searchPath = schema === 'public' ? 'public' : `${schema},public`;

  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Sorts of a whole result stay in memory; JIT compilation costs more than it saves on queries of
      // a few hundred milliseconds at most, and its cost estimate triggers it on every large page.
      options: `-c search_path=${searchPath} -c work_mem=32MB -c jit=off`,
    });
    if (schema !== 'public') await pool.query(`create schema if not exists ${schema}`);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, driver: 'postgres', schema, close: () => db.destroy() };
  }

  const pglite = await PGlite.create({
    ...(options.dataDir === 'memory://' ? {} : { dataDir: options.dataDir }),
    extensions: { pg_trgm, unaccent, fuzzystrmatch },
  });
  if (schema !== 'public') await pglite.exec(`create schema if not exists ${schema}`);
  await pglite.exec(`set search_path to ${searchPath}`);
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return { db, driver: 'pglite', schema, close: () => db.destroy() };
}

/**
 * SQLSTATEs of a schema or table that vanished. Kysely's migrator first reads the tables of every
 * schema, resolving each by name, so a schema dropped meanwhile (parallel test files, deployments
 * sharing a server) fails that read; nothing has been migrated yet, and reading again succeeds.
 */
const VANISHED_DURING_CATALOGUE_READ = new Set(['3F000', '42P01']);
const CATALOGUE_READS = 3;

/** Runs `migrate` again (up to three runs in all) while it fails that way before migrating anything. */
export async function retryVanishedCatalogueReads(migrate: () => Promise<MigrationResultSet>): Promise<MigrationResultSet> {
  for (let run = 1; ; run++) {
    const result = await migrate();
    // `results` is undefined when the failure came before any migration ran.
    const code = (result.error as { code?: unknown } | undefined)?.code;
    const vanished = result.results === undefined && typeof code === 'string' && VANISHED_DURING_CATALOGUE_READ.has(code);
    if (!vanished || run >= CATALOGUE_READS) return result;
  }
}

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationResultSet> {
  // Pin the bookkeeping tables to our schema: without it Kysely finds another schema's copies on the
  // search path (parallel test schemas, a second deployment) and skips creating its own.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: rows[0]?.schema ?? 'public',
  });
  const result = await retryVanishedCatalogueReads(() => migrator.migrateToLatest());
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause}`);
  }
  return result;
}

/** Drops a (test) schema with everything in it. */
export async function dropSchema(db: Kysely<Database>, schema: string): Promise<void> {
  if (schema === 'public' || !SCHEMA_NAME.test(schema)) throw new Error(`Refusing to drop schema ${schema}`);
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
}
