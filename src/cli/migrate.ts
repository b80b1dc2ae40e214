import { readConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/open-database.js';

export async function runMigrate(_args: string[]): Promise<number> {
  const config = readConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.CALENDAR_DATA_DIR, schema: config.DATABASE_SCHEMA });
  try {
    const result = await migrateToLatest(database.db);
    const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
    process.stdout.write(applied.length > 0 ? `Applied: ${applied.join(', ')}\n` : 'The schema is up to date.\n');
    return 0;
  } finally {
    await database.close();
  }
}
