import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { readDataVersion } from '../../src/db/repositories/calendar-state.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { fullLayers } from '../../src/read-model/layers/layered-snapshot.js';
import { loadFullBuildSince, loadLayeredSnapshot, loadSnapshot } from '../../src/read-model/snapshot/load-snapshot.js';
import { ReadModel } from '../../src/read-model/read-model.js';
import { metricsRegistry } from '../../src/telemetry/metrics.js';
import { ONE_VENUE_CATALOGUE as CATALOGUE, oneVenueEvent as event } from '../support/one-venue-calendar.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { collectedLog } from '../support/collected-log.js';

const NOW = new Date('2026-06-01T12:00:00+02:00');

/*
 * Issue 42: each build says what it was (kind, reason) and, for a newer version, how many events the
 * versions since the snapshot it replaces changed and removed, by the change log read in the build's
 * own view. (Incremental versions will be sized and decided by these numbers.)
 */
describe(`read model (${databaseLabel}): what each build replaced`, () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
    await importCalendar(database, { ...CATALOGUE, events: [event('E-1', 'En'), event('E-2', 'To'), event('E-3', 'Tre'), event('E-4', 'Fire')] });
  });
  afterAll(async () => database?.close());

  it('logs the reason and the events changed and removed since the replaced snapshot, and counts builds by reason', async () => {
    const { logger, lines } = collectedLog();
    const model = new ReadModel({ db: database.db, clock: () => NOW, logger, pollIntervalMs: 60_000 });
    const builds = async (reason: string) => (await metricsRegistry.getSingleMetric('calendar_read_model_builds_total')!.get()).values.find((v) => v.labels['reason'] === reason)?.value ?? 0;
    const versionsBuilt = await builds('version');
    try {
      await model.start();
      await model.snapshot();
      const first = lines.filter((l) => l['msg'] === 'read model built');
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ kind: 'full', reason: 'start', events: 4 });
      expect(first[0]).not.toHaveProperty('changedEvents');
      const since = model.version!;

      // One import adds an event, edits one, writes one again unchanged (no change) and removes two.
      await importCalendar(database, { events: [event('E-1', 'En (endret)'), event('E-2', 'To'), event('E-5', 'Fem')] }, { replace: true });
      const version = (await readDataVersion(database.db))!;
      model.require(version);
      expect((await model.snapshot()).version).toBe(version);
      const built = lines.filter((l) => l['msg'] === 'read model built').at(-1)!;
      expect(built).toMatchObject({ kind: 'full', reason: 'version', version, since, changedEvents: 2, removedEvents: 2, events: 3 });
      expect(await builds('version')).toBe(versionsBuilt + 1);

      // Across several versions each event counts once, by its last change; the change log extended
      // from the replaced snapshot's is the log read whole.
      const replaced = await model.snapshot();
      await importCalendar(database, { events: [event('E-2', 'To (endret)'), event('E-1', 'En (endret igjen)')] });
      const later = await loadFullBuildSince(database.db, NOW, replaced, null);
      expect(later.changes).toEqual({ since: version, changedEvents: 2, removedEvents: 0 });
      expect(later.full.segments[0]!.eventIds).toEqual(['E-1', 'E-2', 'E-5']);
      const whole = await loadSnapshot(database.db, NOW);
      expect(later.full.changeLog).toEqual(whole.changeLog);
      expect(later.full.changeLog.ids).toEqual(['E-3', 'E-4', 'E-5', 'E-1', 'E-2']);
      expect((await loadFullBuildSince(database.db, NOW, later.full, null)).changes).toEqual({ since: later.full.version, changedEvents: 0, removedEvents: 0 });

      // A layered version over `later` before any purge shares its log (nothing read whole).
      await importCalendar(database, { events: [event('E-5', 'Fem (endret)')] });
      const shared = await loadLayeredSnapshot(database.db, fullLayers(later.full));
      expect('layered' in shared && shared.layered.changeLog.layered).toBeTruthy();
      // An import purges a tombstone past the window: the rows the replaced log kept changed, so the log is
      // read whole, by an extended log and by a layered version's alike.
      await sql`update event_changes set changed_at = now() - interval '100 days' where event_id = 'E-3'`.execute(database.db);
      await importCalendar(database, { events: [event('E-6', 'Seks')] });
      const purged = await loadFullBuildSince(database.db, NOW, later.full, null);
      expect(purged.full.changeLog.ids).toEqual(['E-4', 'E-1', 'E-2', 'E-5', 'E-6']);
      const wholeAfterPurge = (await loadSnapshot(database.db, NOW)).changeLog;
      expect(purged.full.changeLog).toEqual(wholeAfterPurge);
      expect(purged.changes).toEqual({ since: later.full.version, changedEvents: 2, removedEvents: 0 });
      const layeredPurged = await loadLayeredSnapshot(database.db, fullLayers(later.full));
      if (!('layered' in layeredPurged)) throw new Error('expected a layered version');
      expect(layeredPurged.layered.changeLog).toEqual(wholeAfterPurge);
    } finally {
      await model.close();
    }
  });
});
