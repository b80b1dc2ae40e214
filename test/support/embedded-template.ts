import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '../../src/db/open-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database's data directory (tarball), made once per run. */
    embeddedTemplate: string;
  }
}

/**
 * Part of Vitest's global setup (integration-setup.ts): one embedded database created and migrated for the whole run, dumped to a
 * tarball that every test file's embedded database starts from (test-database.ts), and that the
 * `calendar` processes of the tests open unpacked (migrated-data-dir.ts; on PostgreSQL runs too, since
 * those processes run on the embedded database), instead of running initdb and every migration again.
 * Made anew each run: the tarball is tied to the PGlite version.
 */
export async function embeddedTemplate(project: TestProject): Promise<() => Promise<void>> {
  // Once per run, however many projects name this setup (they share the Vitest process).
  const made = process.env['CALENDAR_TEST_TEMPLATE'];
  if (made) {
    project.provide('embeddedTemplate', made);
    return () => Promise.resolve();
  }
  const dir = await mkdtemp(join(tmpdir(), 'calendar-template-'));
  const path = join(dir, 'migrated.tar');
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateToLatest(database.db);
    // A test's database holds a few MB: 16 MB of shared buffers instead of initdb's 128 MB, which every
    // start of a copy would otherwise allocate and clear (a `calendar` process on a copy: 1.6 → 1.2 s).
    await sql`alter system set shared_buffers = '16MB'`.execute(database.db);
    await writeFile(path, await database.dump!());
  } finally {
    await database.close();
  }
  process.env['CALENDAR_TEST_TEMPLATE'] = path;
  project.provide('embeddedTemplate', path);
  return () => rm(dir, { recursive: true, force: true });
}
