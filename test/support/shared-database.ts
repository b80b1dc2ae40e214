import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/open-database.js';
import { TEST_NODE_FLAGS } from './node-flags.js';
import { timedPhase } from './phase-timings.js';
import { embeddedTemplate } from './test-database.js';

const execFileAsync = promisify(execFile);
const repoRoot = new URL('../../', import.meta.url);

/** A migrated database that a `calendar` process can open once this process has let go of it. */
export interface SharedDatabase {
  database: DatabaseHandle;
  /**
   * Lets go of it, so that a command can open it: closes the embedded database (one process at a
   * time); a PostgreSQL schema stays open (dropped by `remove`).
   */
  release(): Promise<void>;
  /** `node [TEST_NODE_FLAGS] bin/calendar.js ...args` on this database, "now" being `now`. */
  calendar(args: readonly string[], now: Date): Promise<{ stdout: string; stderr: string }>;
  /** Removes it: the schema on PostgreSQL, the folder of the embedded database. */
  remove(): Promise<void>;
}

/**
 * A database for a test that writes through the service and reads with the `calendar` command: an
 * embedded database in a folder of its own by default, or a new schema on the PostgreSQL of
 * DATABASE_URL.
 */
export async function createSharedDatabase(name: string): Promise<SharedDatabase> {
  const url = process.env['DATABASE_URL'] || undefined;
  const dataDir = url ? 'memory://' : await mkdtemp(join(tmpdir(), `calendar-${name}-`));
  const schema = url ? `test_${randomBytes(6).toString('hex')}` : 'public';
  const database = await timedPhase('database open', () => openDatabase({ url, dataDir, template: embeddedTemplate(url), schema }));
  await timedPhase('database migrate', () => migrateToLatest(database.db));
  let released = false;
  return {
    database,
    async release() {
      if (url || released) return;
      released = true;
      await database.close();
    },
    calendar: (args, now) =>
      timedPhase('child process', () => execFileAsync(process.execPath, [...TEST_NODE_FLAGS, 'bin/calendar.js', ...args], {
        cwd: repoRoot,
        env: {
          ...process.env,
          ...(url ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : { CALENDAR_DATA_DIR: dataDir }),
          CALENDAR_NOW: now.toISOString(),
          LOG_LEVEL: 'silent',
        },
      })),
    async remove() {
      if (url) {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
        await database.close();
      } else {
        if (!released) await database.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
