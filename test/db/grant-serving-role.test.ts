import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCalendar } from '../cli/calendar-process.js';
import { migratedDataDir } from '../support/migrated-data-dir.js';
import { dropRoles } from '../support/postgres-roles.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) console.warn('DATABASE_SERVING_ROLE grant tests on PostgreSQL skipped: they need a PostgreSQL server (DATABASE_URL)');

const EMBEDDED = { CALENDAR_DATA_DIR: 'memory://', LOG_LEVEL: 'silent' };

describe('DATABASE_SERVING_ROLE: bad values stop the command', { timeout: 60_000 }, () => {
  const cases: [string, string][] = [
    ['Calendar-Serve', 'must be a PostgreSQL role name: a lower-case SQL identifier (a-z, 0-9 and _, at most 63 characters), e.g. calendar_serve'],
    ['1serve', 'must be a PostgreSQL role name: a lower-case SQL identifier (a-z, 0-9 and _, at most 63 characters), e.g. calendar_serve'],
    [`r${'x'.repeat(63)}`, 'must be a PostgreSQL role name: a lower-case SQL identifier (a-z, 0-9 and _, at most 63 characters), e.g. calendar_serve'],
    ['pg_read_all_data', 'must not start with pg_ (PostgreSQL reserves those names for its own roles)'],
    ['public', 'must name a role, not one of the reserved words public, none, current_role, current_user, session_user'],
  ];
  for (const [value, message] of cases) {
    it(`refuses DATABASE_SERVING_ROLE=${value.length > 20 ? `${value.slice(0, 12)}… (64 characters)` : value} with a line naming it, status 1`, async () => {
      const run = await runCalendar(['migrate'], { ...EMBEDDED, DATABASE_SERVING_ROLE: value });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`calendar: Invalid configuration:\n  DATABASE_SERVING_ROLE: ${message}\n`);
    });
  }

  it('is skipped on the embedded database (it has no roles), and says so', async () => {
    // A migrated one (its first start, initdb and every migration, is not the subject here).
    const dataDir = await migratedDataDir();
    try {
      const run = await runCalendar(['migrate'], { ...EMBEDDED, CALENDAR_DATA_DIR: dataDir.path, DATABASE_SERVING_ROLE: 'calendar_serve' });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('The schema is up to date.\nDATABASE_SERVING_ROLE is not used on the embedded database (it has no roles).\n');
    } finally {
      await dataDir.remove();
    }
  });
});

/** What `role` holds in `schema` (on the schema itself, its relations and its functions), as `object: PRIVILEGE` lines, sorted. */
async function privilegesOf(client: pg.Client, schema: string, role: string): Promise<string[]> {
  const { rows } = await client.query<{ line: string }>(
    `select 'schema: ' || a.privilege_type as line from pg_namespace n, aclexplode(n.nspacl) a
       where n.nspname = $1 and a.grantee = $2::regrole
     union all
     select c.relname || ': ' || a.privilege_type from pg_class c, aclexplode(c.relacl) a
       where c.relnamespace = $1::regnamespace and a.grantee = $2::regrole
     union all
     select p.proname || '(): ' || a.privilege_type from pg_proc p, aclexplode(p.proacl) a
       where p.pronamespace = $1::regnamespace and a.grantee = $2::regrole
     order by 1`,
    [schema, role],
  );
  return rows.map((row) => row.line);
}

/** The relations of `schema` a SELECT grant covers: tables, views, materialized views. */
async function relationsOf(client: pg.Client, schema: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select relname as name from pg_class where relnamespace = $1::regnamespace and relkind in ('r', 'p', 'v', 'm', 'f') order by 1`,
    [schema],
  );
  return rows.map((row) => row.name);
}

describe.skipIf(!databaseUrl)('calendar migrate with DATABASE_SERVING_ROLE (PostgreSQL)', { timeout: 120_000 }, () => {
  const suffix = randomBytes(6).toString('hex');
  const schema = `test_${suffix}`;
  const role = `test_serve_${suffix}`;
  const env = { DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' };
  let admin: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  });

  afterAll(async () => {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await dropRoles(admin, [role]);
    await admin.end();
  });

  it('stops with one line naming a role that does not exist, before migrating anything', async () => {
    const missing = `no_such_role_${suffix}`;
    const run = await runCalendar(['migrate'], { ...env, DATABASE_SERVING_ROLE: missing });
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `calendar: DATABASE_SERVING_ROLE names the role ${missing}, which does not exist on this PostgreSQL server: create it first ` +
        '(deploy/postgres/roles.sql; docs/operating.md, "Database roles (least privilege)").\n',
    );
    expect(run.code).toBe(1);
    const { rows } = await admin.query<{ migrated: boolean }>(`select to_regclass($1) is not null as migrated`, [`${schema}.kysely_migration`]);
    expect(rows[0]!.migrated).toBe(false);
  });

  it('grants exactly what serving needs, again on every run, and revokes nothing a DBA granted besides', async () => {
    await admin.query(`create role ${role} nologin`);
    const first = await runCalendar(['migrate'], { ...env, DATABASE_SERVING_ROLE: role });
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(new RegExp(`^Applied: .*\\nGranted ${role} what serving needs in schema ${schema}\\.\\n$`));
    expect(first.code).toBe(0);

    const writes = [
      'caller_costs: DELETE',
      'caller_costs: INSERT',
      'caller_costs: UPDATE',
      'data_version_purges: UPDATE',
      'deprecated_uses: INSERT',
      'deprecated_uses: UPDATE',
      'usage_counts: INSERT',
      'usage_counts: UPDATE',
    ];
    const relations = await relationsOf(admin, schema);
    // The calendar, the keys, the counters, the materialized view of search words, the migration bookkeeping.
    expect(relations).toEqual(expect.arrayContaining(['events', 'occurrences', 'api_keys', 'usage_counts', 'search_words', 'kysely_migration']));
    const expected = [...relations.map((name) => `${name}: SELECT`), ...writes, 'calendar_fold(): EXECUTE', 'schema: USAGE'].sort();
    expect(await privilegesOf(admin, schema, role)).toEqual(expected);

    // A grant of the DBA's own stays; the next run grants the same again (and a dropped one back).
    await admin.query(`grant truncate on ${schema}.usage_counts to ${role}`);
    await admin.query(`revoke update on ${schema}.usage_counts from ${role}`);
    const second = await runCalendar(['migrate'], { ...env, DATABASE_SERVING_ROLE: role });
    expect(second.stdout).toBe(`The schema is up to date.\nGranted ${role} what serving needs in schema ${schema}.\n`);
    expect(second.code).toBe(0);
    expect(await privilegesOf(admin, schema, role)).toEqual([...expected, 'usage_counts: TRUNCATE'].sort());
  });
});
