import { randomBytes } from 'node:crypto';
import { dropSchema, migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/open-database.js';

/**
 * A fresh, migrated database for one test file: an in-memory PGlite by default, or a new schema
 * on the PostgreSQL named by DATABASE_URL (removed again by `close`).
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const url = process.env['DATABASE_URL'] || undefined;
  const schema = url ? `test_${randomBytes(6).toString('hex')}` : 'public';
  const handle = await openDatabase({ url, dataDir: 'memory://', schema, poolSize: 4 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    close: async () => {
      if (url) await dropSchema(handle.db, schema);
      await handle.close();
    },
  };
}

/** Which database the suite runs on, for test names. */
export const databaseLabel = process.env['DATABASE_URL'] ? 'PostgreSQL' : 'PGlite';
