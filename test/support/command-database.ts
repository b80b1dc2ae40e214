import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest, openDatabase } from '../../src/db/open-database.js';

/**
 * A migrated database that the `calendar` command can open from another process: `fill` writes to it
 * here, then `check` gets the environment that points the command at it (a PGlite data directory of its
 * own, or a fresh schema of DATABASE_URL's PostgreSQL). Removed afterwards.
 */
export async function withCommandDatabase(
  now: Date,
  fill: (db: Kysely<Database>) => Promise<void>,
  check: (env: NodeJS.ProcessEnv) => Promise<void>,
): Promise<void> {
  const url = process.env['DATABASE_URL'] || undefined;
  const dataDir = url ? 'memory://' : await mkdtemp(join(tmpdir(), 'calendar-command-'));
  const schema = url ? `test_${randomBytes(6).toString('hex')}` : 'public';
  const database = await openDatabase({ url, dataDir, schema });
  try {
    await migrateToLatest(database.db);
    await fill(database.db);
    // PGlite: one process at a time holds the directory.
    if (!url) await database.close();
    await check({
      ...process.env,
      ...(url ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : { CALENDAR_DATA_DIR: dataDir }),
      CALENDAR_NOW: now.toISOString(),
      LOG_LEVEL: 'silent',
    });
  } finally {
    if (url) {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
      await database.close();
    } else {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}
