import { pino } from 'pino';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

  it('builds once for the requests that come before the first snapshot (layered or not), all answered from it', async () => {
    for (const layered of [false, true]) {
      const lines: Record<string, unknown>[] = [];
      const logger = pino({ level: 'info', base: undefined }, new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) }));
      const model = new ReadModel({ db: database.db, clock: () => NOW, logger, pollIntervalMs: 60_000, layered });
      try {
        const [first, ...others] = await Promise.all([model.snapshot(), model.snapshot(), model.snapshot()]);
        for (const other of others) expect(other).toBe(first);
        expect(lines.filter((l) => l['msg'] === 'read model built')).toHaveLength(1);
      } finally {
        await model.close();
      }
    }
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

      // Four events changed since the full build: past the bound of three, the version is served as a
      // delta at once, and a compaction (a full build) runs in the background; once built it is swapped in.
      await importCalendar(database, { events: [event('E-2', 'To (endret)')] });
      expect((await next()).delta?.eventIds).toEqual(['E-2']);
      const compactionsBefore = await builds('full', 'delta-size');
      await importCalendar(database, { events: [event('E-3', 'Tre (endret)'), event('E-4', 'Fire (endret)'), event('E-6', 'Seks')] });
      const overBound = await next();
      expect(overBound.full).toBe(renamed.full);
      expect(overBound.delta?.eventIds).toEqual(['E-2', 'E-3', 'E-4', 'E-6']);
      expect((await metricsRegistry.getSingleMetric('calendar_read_model_delta_events')!.get()).values[0]?.value).toBe(4);
      expect(lines.filter((l) => l['msg'] === 'read model built' && l['kind'] === 'delta').at(-1)).toMatchObject({ version: overBound.version, deltaEvents: 4 });
      await vi.waitFor(async () => expect((await model.snapshot()).full).not.toBe(renamed.full), { timeout: 10_000, interval: 20 });
      const compacted = await model.snapshot();
      expect(compacted.version).toBe(overBound.version);
      expect(compacted.base).toBe(compacted.full);
      expect(compacted.full.eventIds).toEqual(['E-1', 'E-2', 'E-3', 'E-4', 'E-5', 'E-6']);
      expect((await metricsRegistry.getSingleMetric('calendar_read_model_delta_events')!.get()).values[0]?.value).toBe(0);
      expect(lines.filter((l) => l['msg'] === 'read model built' && l['kind'] === 'full').at(-1)).toMatchObject({ reason: 'delta-size', version: overBound.version, events: 6, compaction: 'swapping in' });
      expect(await builds('full', 'delta-size')).toBe(compactionsBefore + 1);
      // The next version is layered on the compaction's build: its delta holds only what changed since.
      await importCalendar(database, { events: [event('E-2', 'To (igjen)')] });
      const after = await next();
      expect(after.full).toBe(compacted.full);
      expect(after.delta?.eventIds).toEqual(['E-2']);
      // Past the bound by more than a quarter of the calendar (3 + 6 / 4, rounded down: 4): a full build on the spot.
      await importCalendar(database, { events: ['E-1', 'E-2', 'E-3', 'E-4', 'E-5'].map((id) => event(id, `${id} (massevis)`)) });
      const mass = await next();
      expect(mass.base).toBe(mass.full);
      expect(built()).toMatchObject({ kind: 'full', reason: 'delta-size', version: mass.version, events: 6 });
      expect(built()).not.toHaveProperty('compaction');

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

  it('re-reads the same version daily in the background, answering from the layers meanwhile', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info', base: undefined }, new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) }));
    const model = new ReadModel({ db: database.db, clock: () => NOW, logger, pollIntervalMs: 25, rereadAfterMs: 0, layered: true });
    try {
      await model.start();
      const first = await model.snapshot();
      await vi.waitFor(() => expect(lines.some((l) => l['msg'] === 'read model built' && l['reason'] === 'reread')).toBe(true), { timeout: 10_000, interval: 20 });
      expect(lines.find((l) => l['reason'] === 'reread')).toMatchObject({ kind: 'full', version: first.version, compaction: 'swapping in' });
      await vi.waitFor(async () => expect((await model.snapshot()).full).not.toBe(first.full), { timeout: 10_000, interval: 20 });
      expect((await model.snapshot()).version).toBe(first.version);
    } finally {
      await model.close();
    }
  });
});
