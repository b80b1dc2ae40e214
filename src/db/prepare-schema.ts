import { sql } from 'kysely';
import type { MigrationResultSet } from 'kysely/migration';
import type { Logger } from '../logger.js';
import { StartupError } from '../startup-error.js';
import { checkServingRole, grantServingRole } from './grant-serving-role.js';
import { LATEST_MIGRATION } from './migrations/index.js';
import { migrateToLatest, type DatabaseHandle } from './open-database.js';

/** MIGRATE: whether start-up brings the schema up to date itself or leaves that to `calendar migrate`. */
export type MigrateMode = 'auto' | 'off';

export interface SchemaSettings {
  /** MIGRATE */
  migrate: MigrateMode;
  /** DATABASE_SERVING_ROLE: granted what serving needs by every migration run. @default none */
  servingRole?: string | undefined;
}

/**
 * The schema a process is about to use, made fit for this code or refused, before anything else
 * touches it:
 * - `auto` (one process, or a deployment without a migrate step): migrates, which needs a writable
 *   database; a read-only one (a replica) is refused with what to do instead.
 * - `off` (a fleet, a replica, a role without DDL rights): never writes; a schema older than this code
 *   needs is refused (`calendar migrate` against the primary is the deploy step). A newer schema is
 *   served: migrations only add, so the previous release keeps running during a rolling deploy.
 */
export async function prepareSchema(database: DatabaseHandle, settings: SchemaSettings, logger?: Logger): Promise<void> {
  await fitPrimary(database, settings);
  if (database.readDb !== database.db) await readSideCaughtUp(database, logger);
}

/**
 * A migration run (`calendar migrate`, MIGRATE=auto): brings the schema up to date, then grants the
 * serving role what serving needs (grant-serving-role.ts), every time, so that the tables of a new
 * migration are granted with it. A serving role that does not exist stops it before anything changes.
 */
export async function migrateSchema(database: DatabaseHandle, servingRole: string | undefined): Promise<MigrationResultSet> {
  if (servingRole) await checkServingRole(database, servingRole);
  const result = await migrateToLatest(database.db);
  if (servingRole) await grantServingRole(database, servingRole);
  return result;
}

async function fitPrimary(database: DatabaseHandle, { migrate: mode, servingRole }: SchemaSettings): Promise<void> {
  if (mode === 'auto') {
    if (database.readOnly) {
      throw new StartupError(
        'The database of DATABASE_URL is read-only (a replica, or default_transaction_read_only is on), so MIGRATE=auto cannot ' +
          'bring its schema up to date. Point DATABASE_URL at the primary (replicas go in DATABASE_READ_URL), or set MIGRATE=off ' +
          'and run `calendar migrate` against the primary as the deploy step.',
      );
    }
    await migrateSchema(database, servingRole);
    return;
  }
  const latest = await latestMigrationIn(database);
  if (latest === undefined || latest < LATEST_MIGRATION) {
    const found = latest === undefined ? `no migrations in schema ${database.schema}` : `migration ${latest}`;
    throw new StartupError(
      `The database schema is older than this code needs (found ${found}, needs ${LATEST_MIGRATION}) and MIGRATE=off: ` +
        'run `calendar migrate` against the primary (DATABASE_URL), then start again.',
    );
  }
}

/** The newest migration recorded in DATABASE_SCHEMA itself (never another schema's table found on the search path). */
async function latestMigrationIn(database: DatabaseHandle): Promise<string | undefined> {
  const table = `${database.schema}.kysely_migration`;
  const { rows } = await sql<{ present: boolean }>`select to_regclass(${table}) is not null as present`.execute(database.db);
  if (rows[0]?.present !== true) return undefined;
  const latest = await sql<{ name: string | null }>`select max(name) as name from ${sql.id(database.schema, 'kysely_migration')}`.execute(database.db);
  return latest.rows[0]?.name ?? undefined;
}

/** Longest start-up wait for the read replicas to replay the schema the primary has. */
const READ_SIDE_SCHEMA_WAIT_MS = 30_000;

/**
 * A replica replays a migration a moment after the primary ran it: reads wait for it at start, or
 * the first requests would find tables missing. A replica that does not answer is not waited for
 * (reads fail over, and /ready says so); one that answers but stays behind is reported.
 */
async function readSideCaughtUp(database: DatabaseHandle, logger?: Logger): Promise<void> {
  const started = Date.now();
  for (let delayMs = 25; ; delayMs = Math.min(delayMs * 2, 500)) {
    const probe = await database.probe();
    if (!probe.reachable) return;
    if (probe.latestMigration !== undefined && probe.latestMigration >= LATEST_MIGRATION) return;
    if (Date.now() - started > READ_SIDE_SCHEMA_WAIT_MS) {
      logger?.warn({ readReplica: probe.latestMigration ?? 'no migrations', needs: LATEST_MIGRATION }, 'the read replicas have not replayed the schema this code needs; /ready says so until they have');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}
