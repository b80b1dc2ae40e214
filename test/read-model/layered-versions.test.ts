import { pino } from 'pino';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { readDataVersion } from '../../src/db/repositories/calendar-state.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { buildSuggestInput } from '../../src/domain/suggest-input.js';
import { CalendarReader } from '../../src/read-model/calendar-reader.js';
import { ReadModel } from '../../src/read-model/read-model.js';
import { metricsRegistry } from '../../src/telemetry/metrics.js';
import { ONE_VENUE, ONE_VENUE_CATALOGUE as CATALOGUE, oneVenueEvent as event } from '../support/one-venue-calendar.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';

const NOW = new Date('2026-06-01T12:00:00+02:00');

/*
 * Issue 42, READ_MODEL_LAYERED=on: a newer version is built as a delta over the last full build (the
 * `read model built` line and the builds counter say kind=delta), and a full build runs instead, saying
 * why, for a catalogue change, a delta past its bound, and the re-read; typeahead of a layered version builds nothing.
 * (That a layered version answers as a full build does: equivalence.test.ts.)
 */
describe(`read model (${databaseLabel}): layered versions`, () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
    await importCalendar(database, { ...CATALOGUE, events: [event('E-1', 'En'), event('E-2', 'To'), event('E-3', 'Tre'), event('E-4', 'Fire')] });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('builds deltas, and full builds when the catalogue changes, or the delta grows past its bound, and none for typeahead', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info', base: undefined }, new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) }));
    const model = new ReadModel({ db: database.db, clock: () => NOW, logger, pollIntervalMs: 60_000, layered: true, deltaMostEvents: 3 });
    const builds = async (kind: string, reason: string) =>
      (await metricsRegistry.getSingleMetric('calendar_read_model_builds_total')!.get()).values.find((v) => v.labels['kind'] === kind && v.labels['reason'] === reason)?.value ?? 0;
    const built = () => lines.filter((l) => l['msg'] === 'read model built').at(-1)!;
    const next = async () => {
      const version = (await readDataVersion(database.db))!;
      model.require(version);
      const layers = await model.snapshot();
      expect(layers.version).toBe(version);
      return layers;
    };
    const deltasBefore = await builds('delta', 'version');
    try {
      await model.start();
      const first = await model.snapshot();
      expect(built()).toMatchObject({ kind: 'full', reason: 'start', events: 4 });
      expect(first.base).toBe(first.full);

      // An edit and an addition: a delta of two events over the untouched full build, one of its events masked.
      await importCalendar(database, { events: [event('E-1', 'En (endret)'), event('E-5', 'Fem')] });
      const layered = await next();
      expect(layered.full).toBe(first.full);
      expect(layered.delta?.eventIds).toEqual(['E-1', 'E-5']);
      expect(layered.masked).toBe(1);
      expect(built()).toMatchObject({ kind: 'delta', reason: 'version', base: first.version, events: 5, deltaEvents: 2, masked: 1, changedEvents: 2, removedEvents: 0 });
      expect(await builds('delta', 'version')).toBe(deltasBefore + 1);

      // A venue renamed: the catalogue the layers share changed, a full build.
      await importCalendar(database, { venues: [{ ...ONE_VENUE, name: 'Scenen' }] });
      const renamed = await next();
      expect(renamed.base).toBe(renamed.full);
      expect(built()).toMatchObject({ kind: 'full', reason: 'catalogue', events: 5 });

      // Four events changed since the full build: past the bound of three, a full build.
      await importCalendar(database, { events: [event('E-2', 'To (endret)')] });
      expect((await next()).delta?.eventIds).toEqual(['E-2']);
      await importCalendar(database, { events: [event('E-3', 'Tre (endret)'), event('E-4', 'Fire (endret)'), event('E-6', 'Seks')] });
      const compacted = await next();
      expect(compacted.base).toBe(compacted.full);
      expect(built()).toMatchObject({ kind: 'full', reason: 'delta-size', events: 6 });

      // Typeahead of a layered version: answered from the layers, nothing built (no compaction on the request path).
      await importCalendar(database, { events: [event('E-7', 'Sju'), event('E-1', 'En (sjuende)')] });
      const before = await next();
      expect(before.delta?.eventIds).toEqual(['E-1', 'E-7']);
      const builtLines = lines.length;
      const input = buildSuggestInput('s', null, 5, NOW);
      if (!input.ok) throw new Error('invalid suggest');
      const suggested = await new CalendarReader(model, database.db, NOW).suggest(input.input);
      // The venue (its events in both layers), then the events by label across layers ("Seks" in the base,
      // "Sju" in the delta), then an inner word's match (the delta's E-1).
      expect(suggested.map((s) => `${s.kind} ${s.value} ${s.hits}`)).toEqual(['VENUE v-1 7', 'EVENT e-6 1', 'EVENT e-7 1', 'EVENT e-1 1']);
      expect(lines.slice(builtLines).filter((l) => l['msg'] === 'read model built')).toEqual([]);
      expect(await model.snapshot()).toBe(before);
    } finally {
      await model.close();
    }
  });
});
