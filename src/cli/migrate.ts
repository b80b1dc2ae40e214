import { defineCommand } from './command.js';
import { exactOperands } from './command-line.js';

/** `calendar migrate`: brings the schema up to date and says what it applied. */
export const migrateCommand = defineCommand({
  name: 'migrate',
  summary: 'bring the database schema up to date',
  description: `
Applies the migrations the database of DATABASE_URL (or the embedded one in CALENDAR_DATA_DIR)
has not had yet, and prints their names, whatever MIGRATE says: it is the deploy step of services
started with MIGRATE=off (the default, MIGRATE=auto, has \`calendar serve\` do the same at start).
Run it against the primary: a read-only database (a replica) is refused. With DATABASE_SERVING_ROLE
set, it then grants that role what \`calendar serve\` needs in DATABASE_SCHEMA (reading the calendar,
writing its counters: docs/operating.md, "Database roles"); on the embedded database, which has no
roles, that is skipped.`,
  options: {},
  parse: (line) => {
    exactOperands(line, []);
  },
  async run() {
    const { readConfig } = await import('../config.js');
    const { openDatabase } = await import('../db/open-database.js');
    const { migrateSchema } = await import('../db/prepare-schema.js');
    const { StartupError } = await import('../startup-error.js');
    const config = readConfig();
    const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.CALENDAR_DATA_DIR, schema: config.DATABASE_SCHEMA });
    try {
      if (database.readOnly) {
        throw new StartupError('The database of DATABASE_URL is read-only (a replica?): run `calendar migrate` against the primary; replicas follow it.');
      }
      const role = config.DATABASE_SERVING_ROLE;
      const result = await migrateSchema(database, role);
      const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
      process.stdout.write(applied.length > 0 ? `Applied: ${applied.join(', ')}\n` : 'The schema is up to date.\n');
      if (role) {
        process.stdout.write(
          database.driver === 'postgres'
            ? `Granted ${role} what serving needs in schema ${database.schema}.\n`
            : 'DATABASE_SERVING_ROLE is not used on the embedded database (it has no roles).\n',
        );
      }
      return 0;
    } finally {
      await database.close();
    }
  },
});
