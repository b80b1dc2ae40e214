import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/open-database.js';

/**
 * Opens the database the environment configures (always DATABASE_URL, the primary: imports, keys and
 * usage write or read what was just written, never a replica), makes its schema fit as MIGRATE says
 * (auto: migrate; off: refuse a schema older than this code), runs `work` and closes the database
 * whatever happens. The modules are loaded here, not at the top, so that a command's `--help` and
 * usage errors never load the database drivers.
 */
export async function withMigratedDatabase<T>(work: (database: DatabaseHandle, config: Config) => Promise<T>): Promise<T> {
  const { readConfig } = await import('../config.js');
  const { openDatabase } = await import('../db/open-database.js');
  const { prepareSchema } = await import('../db/prepare-schema.js');
  const config = readConfig();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.CALENDAR_DATA_DIR,
    schema: config.DATABASE_SCHEMA,
    createSchema: config.MIGRATE === 'auto',
  });
  try {
    await prepareSchema(database, { migrate: config.MIGRATE, servingRole: config.DATABASE_SERVING_ROLE });
    return await work(database, config);
  } finally {
    await database.close();
  }
}
