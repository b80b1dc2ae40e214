import { sql } from 'kysely';
import { StartupError } from '../startup-error.js';
import type { Database } from './database.js';
import type { DatabaseHandle } from './open-database.js';

type Write = 'insert' | 'update' | 'delete';

/**
 * Everything `calendar serve` writes, table by table: the rest of the schema it only reads. This is
 * the one list of it (docs/operating.md, "Database roles (least privilege)"); a serving write to a
 * table not listed here is refused on PostgreSQL when the service runs as DATABASE_SERVING_ROLE.
 * Imports (the calendar's tables, `event_changes`, `calendar_state`, the `search_words` refresh),
 * key management (`api_keys`) and migrations are the owning role's.
 */
export const SERVING_WRITES = {
  // Requests per caller and Oslo day, added to the stored counts by the usage flush (an upsert that sums).
  usage_counts: ['insert', 'update'],
  // Requests that used a deprecated schema coordinate, in the same flush and the same way.
  deprecated_uses: ['insert', 'update'],
  // What each caller cost per day, in the same flush; once a day the flush deletes the rows past 30 days
  // (they hold client addresses).
  caller_costs: ['insert', 'update', 'delete'],
  // CDN purges: a node claims the versions imports recorded (purge_claimed_at), marks them purged, or
  // gives its claims back when it stops. Imports insert the rows and delete old ones.
  data_version_purges: ['update'],
} as const satisfies Partial<Record<keyof Database, readonly Write[]>>;

/**
 * Functions of the schema the serving process calls: the read model folds catalogue names with
 * `calendar_fold` (PUBLIC may run functions by default; granted all the same, for a DBA who revoked that).
 */
export const SERVING_CALLS = ['calendar_fold(text)'] as const;

/**
 * Stops `calendar migrate` (and MIGRATE=auto) before it changes anything when DATABASE_SERVING_ROLE
 * names a role the server does not have. Nothing to check on the embedded database (it has no roles).
 */
export async function checkServingRole(database: DatabaseHandle, role: string): Promise<void> {
  if (database.driver !== 'postgres') return;
  const { rows } = await sql<{ present: boolean }>`select exists (select from pg_roles where rolname = ${role}) as present`.execute(database.db);
  if (rows[0]?.present !== true) {
    throw new StartupError(
      `DATABASE_SERVING_ROLE names the role ${role}, which does not exist on this PostgreSQL server: create it first ` +
        '(deploy/postgres/roles.sql; docs/operating.md, "Database roles (least privilege)").',
    );
  }
}

/**
 * Grants `role` what serving needs in the schema, and nothing more: USAGE on the schema, SELECT on
 * every table and view of it (the service reads the calendar, the keys and the migration bookkeeping,
 * and its upserts read the counts they add to), the writes of SERVING_WRITES, USAGE on the sequences
 * of those tables, EXECUTE on SERVING_CALLS. Run at the end of every migration run, so the tables of
 * later migrations are never missed. GRANT is idempotent, and nothing is revoked: what a DBA granted
 * besides stays. The embedded database has no roles: nothing is done there.
 */
export async function grantServingRole(database: DatabaseHandle, role: string): Promise<void> {
  if (database.driver !== 'postgres') return;
  const schema = database.schema;
  const grantee = sql.id(role);
  await database.db.transaction().execute(async (trx) => {
    await sql`grant usage on schema ${sql.id(schema)} to ${grantee}`.execute(trx);
    await sql`grant select on all tables in schema ${sql.id(schema)} to ${grantee}`.execute(trx);
    for (const [table, writes] of Object.entries(SERVING_WRITES)) {
      await sql`grant ${sql.raw(writes.join(', '))} on table ${sql.id(schema, table)} to ${grantee}`.execute(trx);
    }
    const inserted = Object.entries(SERVING_WRITES)
      .filter(([, writes]) => (writes as readonly Write[]).includes('insert'))
      .map(([table]) => table);
    // Sequences owned by a column of those tables (serial, identity): an insert takes their next value.
    const { rows: sequences } = await sql<{ name: string }>`
      select s.relname as name
      from pg_depend d
      join pg_class s on s.oid = d.objid and s.relkind = 'S'
      join pg_class t on t.oid = d.refobjid
      where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
        and t.relnamespace = to_regnamespace(${schema}) and t.relname = any(${inserted}::text[])
    `.execute(trx);
    for (const { name } of sequences) await sql`grant usage on sequence ${sql.id(schema, name)} to ${grantee}`.execute(trx);
    for (const signature of SERVING_CALLS) await sql`grant execute on function ${sql.id(schema)}.${sql.raw(signature)} to ${grantee}`.execute(trx);
  });
}
