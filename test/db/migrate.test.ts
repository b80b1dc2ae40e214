import { describe, expect, it } from 'vitest';
import type { MigrationResultSet } from 'kysely/migration';
import { retryVanishedCatalogueReads } from '../../src/db/open-database.js';

/**
 * Kysely's migrator first reads the tables of every schema by name; a schema dropped meanwhile (a
 * parallel test file, another deployment on the server) fails that read before anything is migrated.
 * Seen in CI as `Migration (unknown) failed: schema "test_…" does not exist`, and as `column "key_hash" of
 * relation "caller_costs" does not exist` (the column read by name as its table was dropped).
 */
function migrations(outcomes: MigrationResultSet[]) {
  let runs = 0;
  return {
    migrate: () => Promise.resolve(outcomes[Math.min(runs++, outcomes.length - 1)]!),
    runs: () => runs,
  };
}
const vanished = (code: string): MigrationResultSet => ({ error: Object.assign(new Error('schema "test_gone" does not exist'), { code }) });
const migrated: MigrationResultSet = { results: [{ migrationName: 'm', direction: 'Up', status: 'Success' }] };

describe('retryVanishedCatalogueReads', () => {
  it('reads the catalogue again when a schema or table vanished during the read', async () => {
    const run = migrations([vanished('3F000'), vanished('42P01'), migrated]);
    expect(await retryVanishedCatalogueReads(run.migrate)).toBe(migrated);
    expect(run.runs()).toBe(3);
  });

  it('reads it again when a column vanished during the read (its table dropped with its schema)', async () => {
    const run = migrations([vanished('42703'), migrated]);
    expect(await retryVanishedCatalogueReads(run.migrate)).toBe(migrated);
    expect(run.runs()).toBe(2);
  });

  it('gives up after three runs with the last failure', async () => {
    const run = migrations([vanished('3F000')]);
    expect((await retryVanishedCatalogueReads(run.migrate)).error).toBeInstanceOf(Error);
    expect(run.runs()).toBe(3);
  });

  it('does not run again after other failures, or once a migration has run', async () => {
    const denied = migrations([vanished('42501'), migrated]);
    expect((await retryVanishedCatalogueReads(denied.migrate)).error).toBeDefined();
    expect(denied.runs()).toBe(1);
    const midway: MigrationResultSet = { ...vanished('42P01'), results: [{ migrationName: 'm', direction: 'Up', status: 'Error' }] };
    const failedMigration = migrations([midway, migrated]);
    expect(await retryVanishedCatalogueReads(failedMigration.migrate)).toBe(midway);
    expect(failedMigration.runs()).toBe(1);
  });
});
