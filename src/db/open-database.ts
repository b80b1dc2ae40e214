import { Kysely, PGliteDialect, PostgresDialect, sql, type KyselyConfig } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import { createRequire } from 'node:module';
import pg from 'pg';
import type { Logger } from '../logger.js';
import { StartupError } from '../startup-error.js';
import { describeDatabaseError } from './connection-errors.js';
import { afterReadSideHas, listenForDataVersions, type ListenForDataVersions } from './data-version-listener.js';
import type { Database } from './database.js';
import { readDataVersion } from './repositories/calendar-state.js';
import { DatabaseHealth } from './database-health.js';
import { CommittedImports } from './committed-imports.js';
import { lockDataDir } from './data-dir-lock.js';
import { activeTracing } from '../telemetry/tracing.js';
import type { Tracing } from '../telemetry/tracing-contract.js';
import type { PoolStats } from '../telemetry/metrics.js';
import { migrations } from './migrations/index.js';
import { PGliteThread } from './pglite-thread.js';
import { ReadReplicas } from './read-replicas.js';
import { RetryingPool } from './retrying-pool.js';
import { createServerProbe, latestAppliedMigration, PROBE_TIMEOUT_MS, STARTUP_PROBE_TIMEOUT_MS, type DatabaseProbe } from './server-probe.js';

export interface DatabaseOptions {
  /** `postgres://...` for a real server; undefined for the embedded PGlite. */
  url?: string | undefined;
  /** PGlite data directory, or `memory://` for an in-memory database. */
  dataDir: string;
  /**
   * Embedded database only: a data directory tarball (`DatabaseHandle.dump`) it starts from instead of
   * an empty cluster, skipping initdb (the tests start their databases from one migrated database this
   * way). `dataDir` must not hold a database yet. @default none
   */
  template?: string | undefined;
  /** Schema holding our tables (tests use a fresh one each). @default 'public' */
  schema?: string | undefined;
  /**
   * Create `schema` when it does not exist yet (PostgreSQL: only then, since CREATE SCHEMA needs the
   * CREATE privilege on the database even when the schema exists, and the roles of docs/operating.md
   * have none). False where nothing may write the schema (MIGRATE=off): a missing schema is then
   * reported by the schema check at start. @default true
   */
  createSchema?: boolean | undefined;
  /** Pool size for PostgreSQL. @default 10 */
  poolSize?: number | undefined;
  /** Longest wait for a pooled connection (or a new one) before a statement fails as unavailable. @default 2000 */
  acquireTimeoutMs?: number | undefined;
  /** PostgreSQL `statement_timeout` of the pool's sessions; 0 for none (imports lift it for their transaction). @default 0 */
  statementTimeoutMs?: number | undefined;
  /** How long to wait, with backoff, for a server that does not answer at open (0: try once). @default 0 */
  waitMs?: number | undefined;
  /** Receives one line per connection attempt while waiting, and the start and end of each outage. */
  logger?: Logger | undefined;
  /** Read replicas (PostgreSQL only): `readDb` reads from them, `db` stays on `url`. @default none */
  readUrls?: readonly string[] | undefined;
  /**
   * A direct connection for LISTEN (PgBouncer in transaction mode cannot carry one).
   * @default `url`, unless that database is read-only (a replica delivers no notices: the poll alone)
   */
  listenUrl?: string | undefined;
}

export interface DatabaseHandle {
  /** The primary (`url`): migrations, imports, keys, usage counts. */
  db: Kysely<Database>;
  /** Where API reads go: the read replicas when there are any, otherwise `db` itself. */
  readDb: Kysely<Database>;
  /** The database of `db` accepts no writes (a hot standby, or `default_transaction_read_only`). */
  readOnly: boolean;
  /** The read replicas' URLs without passwords; empty without replicas. */
  readReplicas: string[];
  driver: 'postgres' | 'pglite';
  schema: string;
  /** Outage episodes seen by this handle's connections (and reported by its users). */
  health: DatabaseHealth;
  /** Imports committed through this handle, announced to the read models of this process that read it. */
  committedImports: CommittedImports;
  /**
   * Asks the database, within about a second and outside the request pool (so it never queues
   * behind requests waiting for a connection), whether it answers and which migration it is at.
   * Concurrent calls share one probe.
   */
  probe(): Promise<DatabaseProbe>;
  /** PostgreSQL: LISTEN for data-version notices on a connection of its own (the embedded database has none). */
  listenForDataVersions?: ListenForDataVersions | undefined;
  /** PostgreSQL: the request pool's connections now, for /metrics (the embedded database has no pool). */
  poolStats?: (() => PoolStats[]) | undefined;
  /** Embedded database: its data directory as a tarball, to open copies of it with `template`. */
  dump?: (() => Promise<Uint8Array>) | undefined;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Shown in pg_stat_activity, so an operator (or a fault test) can tell our sessions apart. */
export const APPLICATION_NAME = 'event-calendar-api';

/**
 * Opens the database on one of two drivers behind the same Kysely SQL path:
 * PostgreSQL through a `pg` pool when a URL is given, otherwise the embedded PGlite.
 *
 * PostgreSQL can fail at any time (restart, failover, a terminated backend): the pool's errors are
 * handled (the broken connection is dropped and the episode logged once), every wait for a
 * connection is bounded, and opening waits for a server that is not up yet (`waitMs`) but stops at
 * once, with one clear line, on a wrong password, user, database or host.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const schema = options.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid database schema name: ${schema}`);
  const searchPath = schema === 'public' ? 'public' : `${schema},public`;
  const health = new DatabaseHealth(options.logger);

  if (options.url) {
    const sessionSettings = [
      `-c search_path=${searchPath}`,
      // Sorts of a whole result stay in memory; JIT compilation costs more than it saves on queries of
      // a few hundred milliseconds at most, and its cost estimate triggers it on every large page.
      '-c work_mem=32MB',
      '-c jit=off',
      ...(options.statementTimeoutMs ? [`-c statement_timeout=${options.statementTimeoutMs}`] : []),
    ];
    const connection: pg.PoolConfig = {
      connectionString: options.url,
      application_name: APPLICATION_NAME,
      options: sessionSettings.join(' '),
      // A peer that vanished without a reset (a failed-over host) is noticed by TCP keepalive.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    };
    const pool = new pg.Pool({ ...connection, max: options.poolSize ?? 10, connectionTimeoutMillis: options.acquireTimeoutMs ?? 2000 });
    // Reads retried on a fresh connection when theirs is lost (retrying-pool.ts): a terminated
    // backend is not an outage. Only a connection that cannot be made, or a read that fails on a
    // fresh one, reports a failure to `health` (through the request that gets the 503).
    const requests = new RetryingPool(pool);
    // Without a listener an idle connection's error (the server restarting, a terminated backend)
    // is an unhandled 'error' event that ends the process. pg-pool has already dropped the client.
    pool.on('error', (error) => {
      requests.idleLost(error);
      options.logger?.debug({ reason: describeDatabaseError(error) }, 'idle database connection lost');
    });
    pool.on('connect', (client) => {
      health.reportSuccess();
      // pg-pool listens for errors only while a client is idle: one checked out (between the
      // statements of a request or a transaction) would otherwise emit an unhandled 'error'. Its
      // statements fail on their own, and the pool drops it when it is released.
      client.on('error', () => requests.checkedOutLost());
    });
    // The probe's own connection, so readiness never waits behind requests for a pool slot.
    const primaryProbe = createServerProbe(connection, () => health.reportSuccess());
    let replicas: ReadReplicas | undefined;
    try {
      // The first look waits longer than readiness does (server-probe.ts), on a connection it closes after.
      const startupProbe = createServerProbe(connection, () => health.reportSuccess(), STARTUP_PROBE_TIMEOUT_MS);
      try {
        await waitForServer(startupProbe.probeOnce, options);
      } finally {
        await startupProbe.end();
      }
      const readOnly = await isReadOnly(pool);
      // A read-only database cannot create it; without it, the schema check at start says what is missing.
      if (schema !== 'public' && !readOnly && (options.createSchema ?? true)) await createSchemaIfMissing(pool, schema);
      await checkSearchPath(pool, schema);
      const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: requests }), ...statementSpans({ driver: 'postgres', schema, url: options.url }) });
      const readUrls = options.readUrls ?? [];
      if (readUrls.length > 0) {
        replicas = new ReadReplicas(readUrls, {
          connection: (url) => ({ ...connection, connectionString: url }),
          poolSize: options.poolSize ?? 10,
          acquireTimeoutMs: options.acquireTimeoutMs ?? 2000,
          logger: options.logger,
          describe: describeDatabaseUrl,
        });
        await replicas.checkAtStart();
        options.logger?.info({ replicas: replicas.labels, readingFrom: replicas.homeLabel }, 'API reads go to the read replicas; writes to DATABASE_URL');
      }
      const reading = replicas;
      const readDb = reading
        ? new Kysely<Database>({ dialect: new PostgresDialect({ pool: new RetryingPool(reading) }), ...statementSpans({ driver: 'postgres', schema, url: readUrls[0] }) })
        : db;
      // Readiness is about what answers requests: the replicas when reads go there.
      const probe = sharedWhileRunning(reading ? () => reading.probe() : primaryProbe.probeOnce);
      const listenUrl = options.listenUrl ?? (readOnly ? undefined : options.url);
      // Notices from elsewhere than the read side are passed on once the read side has their version.
      const readsElsewhere = reading !== undefined || listenUrl !== options.url;
      const readVersion = () => readDataVersion(readDb);
      return {
        db,
        readDb,
        readOnly,
        readReplicas: reading?.labels ?? [],
        driver: 'postgres',
        schema,
        health,
        committedImports: new CommittedImports(),
        probe,
        listenForDataVersions: listenUrl
          ? (handlers) =>
              listenForDataVersions(
                { ...connection, connectionString: listenUrl },
                schema,
                readsElsewhere ? afterReadSideHas(readVersion, handlers, options.logger) : handlers,
                options.logger,
              )
          : undefined,
        poolStats: () => [
          { pool: 'primary', total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max },
          ...(reading?.poolStats() ?? []),
        ],
        close: async () => {
          await primaryProbe.end();
          if (reading) await readDb.destroy();
          await db.destroy();
        },
      };
    } catch (error) {
      await primaryProbe.end();
      await replicas?.end();
      await pool.end();
      throw error;
    }
  }

  if (!embeddedDatabaseInstalled()) {
    throw new StartupError(
      'The embedded database needs the optional package @electric-sql/pglite, which is not installed (an installation with --omit=optional): set DATABASE_URL to a PostgreSQL, or install it',
    );
  }
  // One process per data directory, taken before PGlite touches a file (data-dir-lock.ts says why).
  const lock = options.dataDir === 'memory://' ? undefined : lockDataDir(options.dataDir);
  // On a thread of its own, so that a heavy statement does not hold this thread's event loop.
  const pglite = new PGliteThread({
    dataDir: options.dataDir,
    template: options.template,
    setup: [...(schema !== 'public' ? [`create schema if not exists ${schema}`] : []), `set search_path to ${searchPath}`],
  });
  try {
    await pglite.waitReady;
  } catch (error) {
    await pglite.close();
    lock?.release();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }), ...statementSpans({ driver: 'pglite', schema }) });
  // The embedded database lives in this process: it is reachable unless it is busy for longer than
  // a probe may wait (one statement at a time), which readiness reports as unreachable.
  const probe = sharedWhileRunning(async (): Promise<DatabaseProbe> => {
    const reading = latestAppliedMigration((text) => pglite.query<Record<string, unknown>>(text));
    reading.catch(() => undefined);
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), PROBE_TIMEOUT_MS).unref());
    try {
      const latestMigration = await Promise.race([reading, timeout]);
      if (latestMigration === 'timeout') return { reachable: false, reason: `the embedded database was busy for over ${PROBE_TIMEOUT_MS} ms` };
      return { reachable: true, latestMigration };
    } catch (error) {
      return { reachable: false, reason: describeDatabaseError(error) };
    }
  });
  const close = async () => {
    await db.destroy();
    lock?.release();
  };
  const dump = () => pglite.dump();
  return { db, readDb: db, readOnly: false, readReplicas: [], driver: 'pglite', schema, health, committedImports: new CommittedImports(), probe, dump, close };
}

/** Whether the server takes no writes: a hot standby (a streaming replica), or read-only by default. */
/** PGlite is an optional dependency: an installation for PostgreSQL alone may leave it out. */
function embeddedDatabaseInstalled(): boolean {
  try {
    // Resolved as a CommonJS package (it ships both forms): import.meta.resolve would do as well, but
    // module runners that load this file (Vitest's global setup) leave it out.
    createRequire(import.meta.url).resolve('@electric-sql/pglite');
    return true;
  } catch {
    return false;
  }
}

async function isReadOnly(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ read_only: boolean }>(
    `select pg_is_in_recovery() or current_setting('transaction_read_only') = 'on' as read_only`,
  );
  return rows[0]?.read_only === true;
}

/**
 * `create schema if not exists` alone would not do: PostgreSQL checks the CREATE privilege on the
 * database before it looks for the schema, so a role that owns the schema (made by a DBA with
 * deploy/postgres/roles.sql) but may not create schemas would be refused. Two processes creating it
 * at once still meet the `if not exists`.
 */
async function createSchemaIfMissing(pool: pg.Pool, schema: string): Promise<void> {
  const { rows } = await pool.query<{ present: boolean }>('select to_regnamespace($1) is not null as present', [schema]);
  if (rows[0]?.present !== true) await pool.query(`create schema if not exists ${schema}`);
}

/**
 * The schema is chosen by the connection's startup options (`-c search_path=...`). A pooler that
 * drops them (PgBouncer with `ignore_startup_parameters = options`) would have every statement read
 * another schema's tables: stop at start instead, saying how to set it on the server.
 */
async function checkSearchPath(pool: pg.Pool, schema: string): Promise<void> {
  if (schema === 'public') return;
  const { rows } = await pool.query<{ current: string | null; present: boolean }>(
    'select current_schema() as current, to_regnamespace($1) is not null as present',
    [schema],
  );
  const row = rows[0];
  if (!row?.present || row.current === schema) return;
  throw new StartupError(
    `The database sessions do not use DATABASE_SCHEMA ${schema} (their schema is ${row.current ?? 'none'}): the connection's ` +
      `startup options were dropped (PgBouncer's ignore_startup_parameters?). Set it on the server instead: ` +
      `ALTER ROLE <user> SET search_path = ${schema}, public`,
  );
}

/** Kysely's `log` hook making a span per statement, when tracing was started before the database was opened. */
function statementSpans(database: Parameters<Tracing['statementLog']>[0]): { log?: KyselyConfig['log'] } {
  const tracing = activeTracing();
  return tracing ? { log: tracing.statementLog(database) } : {};
}

/** Runs `work` once for all callers that ask while it runs. */
function sharedWhileRunning<T>(work: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= work().finally(() => {
      running = undefined;
    });
    return running;
  };
}

/**
 * Waits for a server that does not answer yet (starting, restarting, not yet reachable), with
 * backoff and one log line per attempt; gives up at once on failures waiting cannot mend.
 */
async function waitForServer(probe: () => Promise<DatabaseProbe & { permanent?: boolean }>, options: DatabaseOptions): Promise<void> {
  const target = describeDatabaseUrl(options.url ?? '');
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (let attempt = 1, delayMs = 250; ; attempt++, delayMs = Math.min(delayMs * 2, 5000)) {
    const result = await probe();
    if (result.reachable) return;
    if (result.permanent) throw new StartupError(`Cannot use the database at ${target}: ${result.reason}`);
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      const waited = options.waitMs ? ` after waiting ${Math.round(options.waitMs / 1000)} s` : '';
      throw new StartupError(`The database at ${target} is not reachable${waited}: ${result.reason}`);
    }
    const wait = Math.min(delayMs, remaining);
    options.logger?.warn({ attempt, retryInMs: wait, reason: result.reason }, `database at ${target} not reachable yet; waiting`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** The URL without its password, for messages. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}

/**
 * SQLSTATEs of a schema, table or column that vanished. Kysely's migrator first reads the tables of
 * every schema, resolving each by name (and each column by name, in `pg_get_serial_sequence`), so a
 * schema dropped meanwhile (parallel test files, deployments sharing a server) fails that read:
 * `schema "…" does not exist`, `relation "…" does not exist`, or `column "key_hash" of relation
 * "caller_costs" does not exist` (42703, seen in CI on 2026-11-29). Nothing has been migrated yet, and
 * reading again succeeds.
 */
const VANISHED_DURING_CATALOGUE_READ = new Set(['3F000', '42P01', '42703']);
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
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableSchema: rows[0]?.schema ?? 'public',
  });
  const result = await retryVanishedCatalogueReads(() => migrator.migrateToLatest());
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const error: unknown = result.error;
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause}`);
  }
  return result;
}

/** Drops a (test) schema with everything in it. */
export async function dropSchema(db: Kysely<Database>, schema: string): Promise<void> {
  if (schema === 'public' || !SCHEMA_NAME.test(schema)) throw new Error(`Refusing to drop schema ${schema}`);
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
}
