import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { dropSchema, openDatabase } from '../../src/db/open-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's part of the test schemas' names. */
    testRun: string;
  }
}

/**
 * Test schemas on the PostgreSQL of DATABASE_URL are named `test_<run>_<random>`. The run's part
 * (made by the global setup, provided to the test processes) lets the global teardown drop the
 * schemas the test processes still kept, emptied for their next test, when the run ended.
 */
const RUN_ENV = 'CALENDAR_TEST_RUN';

/** The run's part of the names, made once per run in the global setup's process. */
export function testRun(): string {
  return (process.env[RUN_ENV] ??= randomBytes(4).toString('hex'));
}

/** A new schema name of the run `run`. */
export function testSchemaName(run: string): string {
  return `test_${run}_${randomBytes(6).toString('hex')}`;
}

/** Drops every schema of this run on the PostgreSQL of `url`; how many. */
export async function dropRunSchemas(url: string): Promise<number> {
  const handle = await openDatabase({ url, dataDir: 'memory://', poolSize: 1 });
  try {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname like ${`test\\_${testRun()}\\_%`}`.execute(handle.db);
    for (const { name } of rows) await dropSchema(handle.db, name);
    return rows.length;
  } finally {
    await handle.close();
  }
}
