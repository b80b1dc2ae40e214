import { pino } from 'pino';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { readDataVersion } from '../../src/db/repositories/calendar-state.js';
import { exportCalendar } from '../../src/export/export-calendar.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { buildSuggestInput } from '../../src/domain/suggest-input.js';
import { CalendarReader } from '../../src/read-model/calendar-reader.js';
import { ReadModel } from '../../src/read-model/read-model.js';
import { isFullBuild } from '../../src/read-model/layers/layered-snapshot.js';
import { metricsRegistry } from '../../src/telemetry/metrics.js';
import { ONE_VENUE, ONE_VENUE_CATALOGUE as CATALOGUE, oneVenueEvent as event } from '../support/one-venue-calendar.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { collectedLog } from '../support/collected-log.js';

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
      const { logger, lines } = collectedLog();
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
    const { logger, lines } = collectedLog();
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
      expect(isFullBuild(first)).toBe(true);

      // An edit and an addition: a delta of two events over the untouched full build, one of its events masked.
      await importCalendar(database, { events: [event('E-1', 'En (endret)'), event('E-5', 'Fem')] });
      const layered = await next();
      expect(layered.full).toBe(first.full);
      expect(layered.delta?.eventIds).toEqual(['E-1', 'E-5']);
      expect(layered.masked).toBe(1);
      // The delta keeps its events' labels (typeahead ranks and shows them without a read); a full build does not.
      expect(layered.delta?.suggestions.eventLabels).toEqual([
        { slug: 'e-1', title_nb: 'En (endret)', title_en: null },
        { slug: 'e-5', title_nb: 'Fem', title_en: null },
      ]);
      expect(first.full.segments[0]!.suggestions.eventLabels).toBeNull();
      expect(built()).toMatchObject({ kind: 'delta', reason: 'version', base: first.version, events: 5, deltaEvents: 2, masked: 1, changedEvents: 2, removedEvents: 0 });
      expect(await builds('delta', 'version')).toBe(deltasBefore + 1);

      // A new venue and a new organizer with an event: a delta on the newest catalogue (its own numbering), the
      // full build untouched; the catalogue, typeahead and facets of the version know them.
      await importCalendar(database, {
        venues: [{ ...ONE_VENUE, id: 'V-0', slug: 'v-0', name: 'Amfi' }],
        organizers: [{ id: 'O-1', slug: 'o-1', name: 'Arrangøren' }],
        events: [{ ...event('E-8', 'Åtte'), venue: 'V-0', organizers: ['O-1'] }],
      });
      const grown = await next();
      expect(grown.full).toBe(first.full);
      expect(grown.delta?.eventIds).toEqual(['E-1', 'E-5', 'E-8']);
      expect(built()).toMatchObject({ kind: 'delta', reason: 'version', deltaEvents: 3, changedEvents: 1 });
      expect(grown.catalogue.venuesByName.map((v) => v.id)).toEqual(['V-0', 'V-1']);
      expect(grown.bases[0]!.catalogue.venuesByName.map((v) => v.id)).toEqual(['V-1']);
      const reader = new CalendarReader(model, database.db, NOW);
      const typed = buildSuggestInput('a', null, 5, NOW);
      if (!typed.ok) throw new Error('invalid suggest');
      expect((await reader.suggest(typed.input)).map((s) => `${s.kind} ${s.value} ${s.hits}`)).toEqual(['VENUE v-0 1', 'ORGANIZER o-1 1', 'EVENT e-8 1']);

      // A category hidden: whether its children are suggested depends on it, and their events are not marked: a full build.
      await importCalendar(database, { categories: [{ ...CATALOGUE.categories[0]!, visible: false }] });
      const renamed = await next();
      expect(isFullBuild(renamed)).toBe(true);
      expect(built()).toMatchObject({ kind: 'full', reason: 'catalogue', events: 6 });

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
      expect(isFullBuild(compacted)).toBe(true);
      expect(compacted.full.segments[0]!.eventIds).toEqual(['E-1', 'E-2', 'E-3', 'E-4', 'E-5', 'E-6', 'E-8']);
      expect((await metricsRegistry.getSingleMetric('calendar_read_model_delta_events')!.get()).values[0]?.value).toBe(0);
      expect(lines.filter((l) => l['msg'] === 'read model built' && l['kind'] === 'full').at(-1)).toMatchObject({ reason: 'delta-size', version: overBound.version, events: 7, compaction: 'swapping in' });
      expect(await builds('full', 'delta-size')).toBe(compactionsBefore + 1);
      // The next version is layered on the compaction's build: its delta holds only what changed since.
      await importCalendar(database, { events: [event('E-2', 'To (igjen)')] });
      const after = await next();
      expect(after.full).toBe(compacted.full);
      expect(after.delta?.eventIds).toEqual(['E-2']);
      // Past the bound by more than a quarter of the calendar (3 + 7 / 4, rounded down: 4): a full build on the spot.
      await importCalendar(database, { events: ['E-1', 'E-2', 'E-3', 'E-4', 'E-5'].map((id) => event(id, `${id} (massevis)`)) });
      const mass = await next();
      expect(isFullBuild(mass)).toBe(true);
      expect(built()).toMatchObject({ kind: 'full', reason: 'delta-size', version: mass.version, events: 7 });
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

  it('takes a category relabelled as a delta of its events, its new label suggested, its old one not', async () => {
    const own = await createTestDatabase();
    try {
      const jazz = { id: 'JAZZ', name_nb: 'Jazz', name_en: 'Jazz', slug_nb: 'jazz', slug_en: 'jazz' };
      await importCalendar(own, {
        ...CATALOGUE,
        categories: [...CATALOGUE.categories, jazz],
        events: [event('E-1', 'En'), event('E-2', 'To'), event('E-3', 'Tre'), { ...event('E-4', 'Fire'), categories: ['JAZZ'] }, { ...event('E-5', 'Fem'), categories: ['JAZZ'] }],
      });
      const model = new ReadModel({ db: own.db, clock: () => NOW, logger: pino({ level: 'silent' }), pollIntervalMs: 60_000, layered: true });
      try {
        await model.start();
        const first = await model.snapshot();
        await importCalendar(own, { categories: [...CATALOGUE.categories, { ...jazz, name_nb: 'Blues', name_en: 'Blues' }] });
        model.require((await readDataVersion(own.db))!);
        const relabelled = await model.snapshot();
        expect(relabelled.full).toBe(first.full);
        expect(relabelled.delta?.eventIds).toEqual(['E-4', 'E-5']);
        expect(relabelled.staleInBases[0]?.categories).toEqual(Uint8Array.from([0, 1]));
        const reader = new CalendarReader(model, own.db, NOW);
        const suggest = async (prefix: string) => {
          const typed = buildSuggestInput(prefix, null, 5, NOW);
          if (!typed.ok) throw new Error('invalid suggest');
          return (await reader.suggest(typed.input)).map((s) => `${s.kind} ${s.value} ${s.hits} ${s.label_nb}`);
        };
        expect(await suggest('blu')).toEqual(['CATEGORY JAZZ 2 Blues']);
        expect(await suggest('jaz')).toEqual([]);
      } finally {
        await model.close();
      }
    } finally {
      await own.close();
    }
  });

  it('takes the whole calendar exported and imported again, one event edited, as a delta of that event alone', async () => {
    const { logger, lines } = collectedLog();
    const model = new ReadModel({ db: database.db, clock: () => NOW, logger, pollIntervalMs: 60_000, layered: true, deltaMostEvents: 1 });
    try {
      await model.start();
      const first = await model.snapshot();
      const chunks: Buffer[] = [];
      await exportCalendar(database.db, new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk), done()) }));
      const feed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { events: { id: string; title_nb: string }[] };
      expect(feed.events.length).toBeGreaterThan(3);
      const edited = feed.events[1]!;
      edited.title_nb = `${edited.title_nb} (hele strømmen)`;
      expect(await importCalendar(database, feed, { replace: true })).toMatchObject({ changedEvents: 1, unchangedEvents: feed.events.length - 1, removedEvents: 0 });
      model.require((await readDataVersion(database.db))!);
      const layers = await model.snapshot();
      // Within a delta bound of one event: every other event kept its rows and its dates' ids.
      expect(layers.full).toBe(first.full);
      expect(layers.delta?.eventIds).toEqual([edited.id]);
      expect(layers.masked).toBe(1);
      expect(lines.filter((l) => l['msg'] === 'read model built').at(-1)).toMatchObject({ kind: 'delta', reason: 'version', deltaEvents: 1, changedEvents: 1, removedEvents: 0 });
    } finally {
      await model.close();
    }
  });

  it('re-reads the same version daily in the background, answering from the layers meanwhile', async () => {
    const { logger, lines } = collectedLog();
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

  /*
   * Issue 54, item 3: after a compaction is swapped in, V8 is made to collect the full build it replaced
   * (release-replaced-build.ts); the node's RSS comes back (bench/freshness.ts). A WeakRef says whether it went.
   */
  describe('the full build a compaction replaced', () => {
    /** A model past its delta bound of one event: the next import's version starts a compaction. */
    const compactingModel = (releaseAfterMs: readonly number[]) => {
      const { logger, lines } = collectedLog();
      const model = new ReadModel({ db: database.db, clock: () => NOW, logger, pollIntervalMs: 60_000, layered: true, deltaMostEvents: 1, releaseReplacedBuilds: true, releaseAfterMs });
      return { model, lines };
    };
    /** Two events edited: served as a delta, compacted behind it; resolves once the compaction is swapped in. */
    const compactOnce = async (model: ReadModel, replaced: WeakRef<object>, title: string) => {
      await importCalendar(database, { events: [event('E-2', `To (${title})`), event('E-3', `Tre (${title})`)] });
      model.require((await readDataVersion(database.db))!);
      await model.snapshot();
      await vi.waitFor(async () => expect((await model.snapshot()).full).not.toBe(replaced.deref()), { timeout: 10_000, interval: 20 });
    };

    it('is collected once no request holds it, and the release is logged', async () => {
      const { model, lines } = compactingModel([50, 200, 1_000]);
      try {
        await model.start();
        const replaced = new WeakRef((await model.snapshot()).full);
        // The start's own release: nothing replaced, the build's garbage collected.
        expect(await model.lastRelease).toMatchObject({ released: true, collections: 1 });
        await compactOnce(model, replaced, 'komprimert');
        const release = await model.lastRelease;
        expect(release).toMatchObject({ released: true });
        expect(replaced.deref()).toBeUndefined();
        expect(lines.filter((l) => l['msg'] === 'read model memory released').at(-1)).toMatchObject({ collections: release!.collections, rssAfterMB: expect.any(Number) });
      } finally {
        await model.close();
      }
    });

    it('in segments, is compacted one segment at a time, each swapped in as it is read, and released once after the last', async () => {
      const { logger, lines } = collectedLog();
      // A segment per event or so (segments of at most one: the least power of two); past a delta of one event, a compaction.
      const model = new ReadModel({ db: database.db, clock: () => NOW, logger, pollIntervalMs: 60_000, layered: true, deltaMostEvents: 1, segmentEvents: 1, releaseReplacedBuilds: true, releaseAfterMs: [50, 200, 1_000] });
      const segmentLines = () => lines.filter((l) => l['msg'] === 'read model built' && l['kind'] === 'segment');
      try {
        await model.start();
        // The first build only weakly held here (this test holds no request's layers).
        const { count, replaced } = await model.snapshot().then((first) => ({ count: first.full.segments.length, replaced: new WeakRef(first.full) }));
        expect(count).toBeGreaterThanOrEqual(2);
        expect(lines.find((l) => l['msg'] === 'read model built')).toMatchObject({ kind: 'full', reason: 'start', segments: count });
        await model.lastRelease;
        await compactOnce(model, replaced, 'segmentert');
        const version = (await readDataVersion(database.db))!;
        // Every segment read again in turn at the import's version, each line its own segment's.
        await vi.waitFor(() => expect(segmentLines()).toHaveLength(count), { timeout: 10_000, interval: 20 });
        expect(segmentLines().map((l) => l['segment'])).toEqual([...Array(count).keys()]);
        for (const line of segmentLines()) expect(line).toMatchObject({ reason: 'delta-size', version, compaction: 'swapping in', segments: count });
        await vi.waitFor(async () => expect((await model.snapshot()).full.segments.every((segment) => segment.version === version)).toBe(true), { timeout: 10_000, interval: 20 });
        // Each step layered the version over the build so far: served as the version throughout, the delta shedding each segment's events.
        const served = await model.snapshot();
        expect(served.version).toBe(version);
        expect(served.masked).toBe(0);
        // One change log for the build: a segment kept with the log of its own step would hold it (~17 MB at 1M) while it serves.
        expect(served.full.segments.every((segment) => segment.changeLog === served.full.changeLog)).toBe(true);
        // One release, after the last segment: the build it replaced is gone.
        const release = await model.lastRelease;
        expect(release).toMatchObject({ released: true });
        expect(replaced.deref()).toBeUndefined();
        expect(lines.filter((l) => l['msg'] === 'read model memory released')).toHaveLength(2);
      } finally {
        await model.close();
      }
    });

    it('is kept while a request holds it, the release saying so after its last attempt', async () => {
      const { model, lines } = compactingModel([30, 60]);
      try {
        await model.start();
        await model.lastRelease;
        // A request that started on the version before the compaction, still running.
        const held = await model.snapshot();
        await compactOnce(model, new WeakRef(held.full), 'holdt');
        expect(await model.lastRelease).toMatchObject({ released: false, collections: 2 });
        expect(lines.filter((l) => l['msg'] === 'read model memory: the replaced build is still held by a request')).toHaveLength(1);
        expect(held.full.segments[0]!.eventIds.length).toBeGreaterThan(0);
      } finally {
        await model.close();
      }
    });
  });
});
