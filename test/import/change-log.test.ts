import { sql } from 'kysely';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar, ImportValidationError } from '../../src/import/import-calendar.js';
import { earlierEventDigest, eventDigest, legacyEventDigest } from '../../src/import/event-digest.js';
import { EventSchema } from '../../src/import/import-format.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { at, baseEvents, calendarWith, event, venue } from '../api/fixtures/sync-calendar.js';

let database: DatabaseHandle;

beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => database?.close());

async function changeLog() {
  const rows = await database.db.selectFrom('event_changes').select(['event_id', 'version', 'removed', 'content_hash']).orderBy('event_id').execute();
  return rows.map((r) => ({ ...r, version: Number(r.version) }));
}

describe(`import: the change log of change sync (${databaseLabel})`, () => {
  it('records each event at the version of the import that last changed it', async () => {
    await importCalendar(database, calendarWith(baseEvents()));
    const events = baseEvents().map((e) => (e.id === 'E-01' ? { ...e, dates: [{ start: at(99), end: at(100) }] } : e));
    await importCalendar(database, calendarWith(events));
    const log = await changeLog();
    expect(log).toHaveLength(baseEvents().length);
    expect(log.filter((r) => r.version === 2).map((r) => r.event_id)).toEqual(['E-01']);
  });

  it('writes nothing for a listed event the database holds as it is: its rows, its dates\' ids and its version stay', async () => {
    await importCalendar(database, calendarWith(baseEvents()));
    // xmin: the transaction that wrote the row version; a row written again (even with equal values) gets a new one.
    const rows = async () => {
      const events = await sql<{ id: string; xmin: string }>`select id, xmin::text as xmin from events order by id`.execute(database.db);
      const dates = await sql<{ id: string; event_id: string; xmin: string }>`select id::text as id, event_id, xmin::text as xmin from occurrences order by id`.execute(database.db);
      return { events: events.rows, dates: dates.rows };
    };
    const before = await rows();
    // The whole feed again, one event edited and one added.
    const events = [...baseEvents().map((e) => (e.id === 'E-01' ? { ...e, title_nb: 'Endret tittel' } : e)), event('E-NEW', [{ start: at(40) }])];
    const summary = await importCalendar(database, calendarWith(events), { replace: true });
    expect(summary).toMatchObject({ events: baseEvents().length + 1, addedEvents: 1, changedEvents: 1, unchangedEvents: baseEvents().length - 1, removedEvents: 0 });
    const after = await rows();
    const kept = (list: { event_id?: string; id: string }[]) => list.filter((r) => (r.event_id ?? r.id) !== 'E-01' && (r.event_id ?? r.id) !== 'E-NEW');
    expect(kept(after.events)).toEqual(kept(before.events));
    expect(kept(after.dates)).toEqual(kept(before.dates));
    // The edited event was written: a new row version, its dates new ids.
    expect(after.events.find((r) => r.id === 'E-01')!.xmin).not.toBe(before.events.find((r) => r.id === 'E-01')!.xmin);
    expect(after.dates.filter((r) => r.event_id === 'E-01').map((r) => r.id)).not.toEqual(before.dates.filter((r) => r.event_id === 'E-01').map((r) => r.id));
    const log = await changeLog();
    expect(log.filter((r) => r.version === 2).map((r) => r.event_id)).toEqual(['E-01', 'E-NEW']);
    // Imported once more as it is: nothing written, nothing announced, the version still moves.
    const again = await importCalendar(database, calendarWith(events), { replace: true });
    expect(again).toMatchObject({ addedEvents: 0, changedEvents: 0, unchangedEvents: events.length, removedEvents: 0 });
    expect(await rows()).toEqual(after);
    expect(await changeLog()).toEqual(log);
  });

  it('leaves a tombstone for each event --replace removes, and revives it when the event comes back', async () => {
    await importCalendar(database, calendarWith(baseEvents()));
    await importCalendar(database, calendarWith(baseEvents().filter((e) => e.id !== 'E-02' && e.id !== 'E-03')), { replace: true });
    expect((await changeLog()).filter((r) => r.removed)).toEqual([
      { event_id: 'E-02', version: 2, removed: true, content_hash: null },
      { event_id: 'E-03', version: 2, removed: true, content_hash: null },
    ]);
    await importCalendar(database, calendarWith(baseEvents()));
    const back = (await changeLog()).find((r) => r.event_id === 'E-02');
    expect(back).toMatchObject({ version: 3, removed: false });
  });

  it('marks the events of a venue whose values changed, not those of a venue written unchanged', async () => {
    await importCalendar(database, calendarWith(baseEvents()));
    await importCalendar(database, { venues: [venue('V-ONE', 'Sentrum Scene'), venue('V-TWO', 'Lille Scene 2')] });
    expect((await changeLog()).filter((r) => r.version === 2).map((r) => r.event_id)).toEqual(['E-AT-TWO']);
  });

  it('marks the events of a category whose labels changed, not those of a category that only moved or was written unchanged', async () => {
    const jazz = { id: 'JAZZ', name_nb: 'Jazz', name_en: 'Jazz', slug_nb: 'jazz', slug_en: 'jazz' };
    const concert = { id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' };
    const events = baseEvents().map((e) => (e.id === 'E-00' || e.id === 'E-01' ? { ...e, categories: ['JAZZ'] } : e));
    await importCalendar(database, { ...calendarWith(events), categories: [concert, jazz] });
    // The same categories in another order (positions change), then the same again: no event changes.
    await importCalendar(database, { categories: [jazz, concert] });
    await importCalendar(database, { categories: [jazz, concert] });
    expect((await changeLog()).filter((r) => r.version > 1)).toEqual([]);
    // JAZZ relabelled: its two events change (they show its labels), whether or not the file lists them.
    await importCalendar(database, { categories: [{ ...jazz, name_nb: 'Jazz og blues' }, concert] });
    expect((await changeLog()).filter((r) => r.version === 4).map((r) => r.event_id)).toEqual(['E-00', 'E-01']);
  });

  it('leaves the change log as it was when an import fails', async () => {
    await importCalendar(database, calendarWith(baseEvents()));
    const before = await changeLog();
    const broken = [...baseEvents().slice(0, 10).map((e) => ({ ...e, title_nb: 'endret' })), event('E-BAD', [{ start: at(5) }], { venue: 'V-NOWHERE' })];
    await expect(importCalendar(database, calendarWith(broken), { replace: true })).rejects.toBeInstanceOf(ImportValidationError);
    expect(await changeLog()).toEqual(before);
  });

  it('purges tombstones older than 91 days at the next import, and keeps younger ones', async () => {
    await importCalendar(database, calendarWith(baseEvents()));
    await importCalendar(database, calendarWith(baseEvents().filter((e) => e.id !== 'E-02' && e.id !== 'E-03')), { replace: true });
    await sql`update event_changes set changed_at = now() - interval '92 days' where event_id = 'E-02'`.execute(database.db);
    await sql`update event_changes set changed_at = now() - interval '89 days' where event_id = 'E-03'`.execute(database.db);
    await importCalendar(database, { venues: [] });
    const log = await changeLog();
    expect(log.find((r) => r.event_id === 'E-02')).toBeUndefined();
    expect(log.find((r) => r.event_id === 'E-03')).toMatchObject({ removed: true });
  });

  it('marks no event changed when the import format gains an optional field: the digest leaves defaults out', async () => {
    await importCalendar(database, calendarWith(baseEvents()));
    const stored = new Map((await changeLog()).map((r) => [r.event_id, r.content_hash]));
    // The next release's format, with a field none of these events sets (filled in with its default on parsing).
    expect(EventSchema.shape).not.toHaveProperty('doorsOpen');
    const grown = EventSchema.extend({ doorsOpen: z.string().nullable().default(null) });
    for (const raw of baseEvents()) {
      const parsed = grown.parse(raw);
      expect(parsed.doorsOpen).toBeNull();
      expect(eventDigest(parsed, grown)).toBe(stored.get(raw.id));
      // What the digest was before the canonical form: it moved with every new field.
      expect(legacyEventDigest(parsed)).not.toBe(legacyEventDigest(EventSchema.parse(raw)));
    }
    // And a value other than the default is a change.
    const noted = grown.parse({ ...baseEvents()[0], doorsOpen: '19:00' });
    expect(eventDigest(noted, grown)).not.toBe(stored.get(noted.id));
  });

  for (const form of ['the record as parsed (no prefix)', 'the record in canonical form (c1.)'] as const) {
    it(`keeps the version of events whose digest an earlier release stored (${form}), and rewrites it in the current form`, async () => {
      await importCalendar(database, calendarWith(baseEvents()));
      // As a release before the current digest left the change log.
      for (const raw of baseEvents()) {
        const parsed = EventSchema.parse(raw);
        const earlier = form === 'the record as parsed (no prefix)' ? legacyEventDigest(parsed) : earlierEventDigest(parsed, 'c1.')!;
        expect(earlier.startsWith('c2.')).toBe(false);
        await sql`update event_changes set content_hash = ${earlier} where event_id = ${raw.id}`.execute(database.db);
      }
      const events = baseEvents().map((e) => (e.id === 'E-01' ? { ...e, title_nb: 'Endret tittel' } : e));
      const summary = await importCalendar(database, calendarWith(events));
      expect(summary).toMatchObject({ changedEvents: 1, unchangedEvents: events.length - 1 });
      const log = await changeLog();
      expect(log.filter((r) => r.version === 2).map((r) => r.event_id)).toEqual(['E-01']);
      expect(log.every((r) => r.content_hash?.startsWith('c2.'))).toBe(true);
    });
  }
});
