import { defineCommand } from './command.js';
import { exactOperands } from './command-line.js';

/** `calendar migrate`: brings the schema up to date and says what it applied. */
export const migrateCommand = defineCommand({
  name: 'migrate',
  summary: 'bring the database schema up to date',
  description: `
Applies the migrations the database of DATABASE_URL (or the embedded one in CALENDAR_DATA_DIR)
has not had yet, and prints their names. \`calendar serve\` does the same at every start.`,
  options: {},
  parse: (line) => {
    exactOperands(line, []);
  },
  async run() {
    const { readConfig } = await import('../config.js');
    const { migrateToLatest, openDatabase } = await import('../db/open-database.js');
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
  },
});
