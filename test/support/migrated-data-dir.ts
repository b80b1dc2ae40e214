import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { timedPhase } from './phase-timings.js';

const run = promisify(execFile);

/** An embedded data directory of the test's own, for `calendar` processes (CALENDAR_DATA_DIR). */
export interface MigratedDataDir {
  path: string;
  remove(): Promise<void>;
}

/**
 * A migrated, empty embedded database in a new folder: the run's template (embedded-template.ts)
 * unpacked, so the `calendar` process that opens it starts at once instead of running initdb and
 * every migration first (seconds per process). For tests of something else than a database's first
 * start: those keep CALENDAR_DATA_DIR=memory:// or an empty folder.
 */
export async function migratedDataDir(): Promise<MigratedDataDir> {
  const parent = await mkdtemp(join(tmpdir(), 'calendar-data-'));
  const path = await unpackTemplate(join(parent, 'data'));
  return { path, remove: () => rm(parent, { recursive: true, force: true }) };
}

/** The same in a folder the test names (created; it must not hold a database yet). Returns `path`. */
export async function unpackTemplate(path: string): Promise<string> {
  await mkdir(path, { recursive: true });
  // The tarball holds the cluster's files (PGDATA) by absolute names: unpacked under `path`.
  await timedPhase('template unpack', () => run('tar', ['-xf', inject('embeddedTemplate'), '-C', path]));
  return path;
}
