import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open-database.js';
import { prepareSchema } from '../../src/db/prepare-schema.js';
import { asRole, dropRoles } from '../support/postgres-roles.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) console.warn('schema creation tests skipped: they need a PostgreSQL server (DATABASE_URL)');

describe.skipIf(!databaseUrl)('opening a schema on PostgreSQL: created only when missing, and only when asked', () => {
  const suffix = randomBytes(6).toString('hex');
  const role = `test_owner_${suffix}`;
  const owned = `test_${suffix}`;
  const missing = `test_missing_${suffix}`;
  let admin: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    // A role that owns its schema but may not create schemas (no CREATE on the database): the owner of
    // deploy/postgres/roles.sql.
    await admin.query(`create role ${role} login`);
    await admin.query(`create schema ${owned} authorization ${role}`);
  });

  afterAll(async () => {
    await admin.query(`drop schema if exists ${owned} cascade`);
    await admin.query(`drop schema if exists ${missing} cascade`);
    await dropRoles(admin, [role]);
    await admin.end();
  });

  it('opens an existing schema for a role without CREATE on the database (no CREATE SCHEMA is sent)', async () => {
    const database = await openDatabase({ url: asRole(databaseUrl!, role), dataDir: 'memory://', schema: owned, poolSize: 1 });
    try {
      const { rows } = await admin.query<{ create: boolean }>(`select has_database_privilege($1, current_database(), 'CREATE') as create`, [role]);
      expect(rows[0]!.create).toBe(false);
      expect(database.schema).toBe(owned);
    } finally {
      await database.close();
    }
  });

  it('with createSchema false (MIGRATE=off), leaves a missing schema missing, and the start is refused as unmigrated', async () => {
    const database = await openDatabase({ url: databaseUrl, dataDir: 'memory://', schema: missing, poolSize: 1, createSchema: false });
    try {
      await expect(prepareSchema(database, { migrate: 'off' })).rejects.toThrow(`found no migrations in schema ${missing}`);
      const { rows } = await admin.query<{ present: boolean }>('select to_regnamespace($1) is not null as present', [missing]);
      expect(rows[0]!.present).toBe(false);
    } finally {
      await database.close();
    }
  });
});
