import { afterEach, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { generateDemoCalendar } from '../../src/demo/demo-calendar.js';
import { exportCalendar, exportTimestamp, type ExportOptions } from '../../src/export/export-calendar.js';
import { importCalendar, type ImportTarget } from '../../src/import/import-calendar.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';

/**
 * A calendar written for the export's rules: a date's own values beside inherited ones, labels
 * left out and given as null, ids whose byte order differs from a locale's, a chain of retired
 * categories, timestamps with milliseconds and in UTC, and an API key (never exported).
 */
const calendar = {
  categories: [
    { id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' },
    { id: 'JAZZ', name_nb: 'Jazz', name_en: 'Jazz', slug_nb: 'jazz', slug_en: 'jazz', parent: 'CONCERT' },
    { id: 'HIDDEN', name_nb: 'Skjult', name_en: 'Hidden', slug_nb: 'skjult', slug_en: 'hidden', visible: false },
    { id: 'OLD_TALKS', name_nb: 'Foredrag', name_en: 'Talks', slug_nb: 'foredrag', slug_en: 'talks' },
    { id: 'TALKS', name_nb: 'Samtaler', name_en: 'Conversations', slug_nb: 'samtaler', slug_en: 'conversations' },
    { id: 'DEBATE', name_nb: 'Debatt', name_en: 'Debate', slug_nb: 'debatt', slug_en: 'debate' },
  ],
  venues: [
    { id: 'V-BLAA', slug: 'blaa', name: 'Blå', address: 'Brenneriveien 9C', postalCode: '0182', municipality: 'Oslo', location: { latitude: 59.9201, longitude: 10.7526 } },
    { id: 'V-CAFE', slug: 'cafeen', name: 'Caféen' },
  ],
  organizers: [
    { id: 'O-JAZZ', slug: 'jazzforum', name: 'Oslo Jazzforum', website: 'https://jazz.example.no' },
    { id: 'O-AMATOR', slug: 'amator', name: 'Amatørene' },
  ],
  events: [
    {
      id: 'ev-b',
      slug: 'jazzkveld',
      title_nb: 'Jazzkveld på Blå',
      title_en: 'Jazz night',
      desc_nb: '<p>Trio &amp; gjester</p>',
      categories: ['JAZZ', 'CONCERT'],
      tags: ['jazz', 'live'],
      mode: 'online',
      venue: 'V-BLAA',
      organizers: ['O-JAZZ', 'O-AMATOR'],
      isSuperEvent: true,
      featured: true,
      ticketsInformation: 'ticketsInfo',
      ticketsURL: 'https://billett.example.no/jazz',
      prices: [
        { type: 'REGULAR', price: '250,-' },
        { type: 'EARLY', price: 99.5, name_nb: 'Tidlig', name_en: null },
      ],
      images: [
        { urlSmall: 'https://img.example.no/s.jpg', urlLarge: 'https://img.example.no/l.jpg', alt: 'Trioen', focusX: 0.5, focusY: 0.25, width: 1600, height: 900 },
        { urlSmall: 'https://img.example.no/s2.jpg', urlLarge: 'https://img.example.no/l2.jpg' },
      ],
      created_at: '2026-10-01T09:00:00+02:00',
      updated_at: '2026-10-02T09:00:00.125+02:00',
      dates: [
        { start: '2026-12-01T20:00:00+01:00', end: '2026-12-01T22:30:00+01:00', startTime: '19:30', duration: 150 },
        {
          start: '2026-12-08T20:00:00+01:00',
          venue: 'V-CAFE',
          ticketsURL: 'https://billett.example.no/jazz-2',
          cancelled: true,
          soldOut: true,
          prices: [{ type: 'REGULAR', price: '300,-' }],
        },
        { start: '2026-12-15T20:00:00.250+01:00', end: '2026-12-15T20:00:00.250+01:00', venue: 'V-BLAA', cancelled: false, startTime: '20:00' },
        { start: '2026-07-01T17:00:00Z' },
      ],
    },
    {
      id: 'ev-B',
      slug: 'festivalkonsert',
      title_nb: 'Konsert i festivalen',
      superEvent: 'ev-b',
      categories: ['OLD_TALKS', 'HIDDEN'],
      created_at: '2026-10-03T09:00:00+02:00',
      updated_at: '2026-10-03T09:00:00+02:00',
      dates: [{ start: '2026-12-02T18:00:00+01:00' }],
    },
    {
      id: 'ev-a',
      slug: 'avlyst',
      title_en: 'Cancelled talk',
      categories: ['TALKS'],
      eventCancelled: true,
      eventSoldOut: true,
      minimumAge: 18,
      maximumAge: 99,
      cancellationPeriod: 2,
      views: 0,
      ageRestriction: '18 år',
      publishingDate: '2026-09-01T00:00:00+02:00',
      ticketsFromDate: '2026-09-15T12:00:00+02:00',
      registrationEnabled: true,
      availableTickets: 10,
      activeTickets: 3,
      maxBookingDate: '2026-12-01',
      maxBookingTime: '12:00',
      paymentMethod: 'vipps',
      created_at: '2026-09-01T00:00:00+02:00',
      updated_at: '2026-09-02T00:00:00+02:00',
      dates: [{ start: '2026-12-03T18:00:00+01:00', cancelled: false }, { start: '2026-12-04T18:00:00+01:00' }],
    },
    {
      id: 'ev-Ø',
      slug: 'oyeblikk',
      title_nb: 'Øyeblikk',
      created_at: '2026-09-01T00:00:00+02:00',
      updated_at: '2026-09-01T00:00:00+02:00',
      dates: [{ start: '2026-12-05T18:00:00+01:00' }],
    },
  ],
  apiKeys: [{ key: 'hsk_export_test_key_0001', application: 'Widget' }],
};

/**
 * Everything the export is made from, in a fixed order. Left out: occurrence ids (surrogates), and
 * category positions, which the file carries as its order: a loader numbers them 0, 1, 2, … so the
 * gaps retired categories leave are closed, while the order the API lists stays as it was.
 */
async function contents(db: Kysely<Database>): Promise<Record<string, unknown[]>> {
  const read = async (statement: ReturnType<typeof sql<Record<string, unknown>>>) => (await statement.execute(db)).rows;
  return {
    categories: await read(sql`select id, name_nb, name_en, slug_nb, slug_en, visible, parent_id from categories order by position, id`),
    retired: await read(sql`select id, replaced_by from retired_categories order by id collate "C"`),
    venues: await read(sql`select * from venues order by id collate "C"`),
    organizers: await read(sql`select * from organizers order by id collate "C"`),
    events: await read(sql`select * from events order by id collate "C"`),
    eventCategories: await read(sql`select * from event_categories order by event_id collate "C", position`),
    eventOrganizers: await read(sql`select * from event_organizers order by event_id collate "C", position`),
    occurrences: await read(sql`
      select event_id, position, start_at, end_at, ends_at, start_time, local_minute, local_day, duration, venue_id,
             tickets_url, cancelled, sold_out, prices, publishing_date
      from occurrences order by event_id collate "C", position`),
    apiKeys: await read(sql`select * from api_keys order by key_hash`),
  };
}

/** A Writable that keeps what it is given. */
function collector(options: { slow?: boolean; highWaterMark?: number } = {}) {
  const chunks: Buffer[] = [];
  let maxBuffered = 0;
  const out = new Writable({
    highWaterMark: options.highWaterMark ?? 16_384,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      maxBuffered = Math.max(maxBuffered, out.writableLength);
      // A slow reader: each chunk is taken a turn later, so the export must wait for 'drain'.
      if (options.slow) setTimeout(callback, 1);
      else callback();
    },
  });
  return { out, text: () => Buffer.concat(chunks).toString('utf8'), chunks: () => chunks.length, maxBuffered: () => maxBuffered };
}

async function exportText(db: Kysely<Database>, options?: ExportOptions): Promise<string> {
  const sink = collector();
  await exportCalendar(db, sink.out, options);
  return sink.text();
}

const open: DatabaseHandle[] = [];
async function database(): Promise<DatabaseHandle> {
  const handle = await createTestDatabase();
  open.push(handle);
  return handle;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((handle) => handle.close()));
});

/** The first calendar, then OLD_TALKS retired into TALKS, then TALKS into DEBATE: a chain. */
async function loadFixture(target: ImportTarget): Promise<void> {
  await importCalendar(target, calendar);
  await importCalendar(target, { retiredCategories: [{ id: 'OLD_TALKS', replacedBy: ['TALKS'] }] });
  await importCalendar(target, { retiredCategories: [{ id: 'TALKS', replacedBy: ['DEBATE', 'CONCERT'] }] });
}

describe(`calendar export (${databaseLabel})`, { timeout: 120_000 }, () => {
  it('round-trips: export, import into an empty database, export again gives the same bytes', async () => {
    const source = await database();
    await loadFixture(source);
    const first = await exportText(source.db);

    const target = await database();
    await importCalendar(target, JSON.parse(first));
    const second = await exportText(target.db);
    expect(second).toBe(first);
    // Both databases hold the same calendar. Keys are not exported; a chain of retirements
    // (OLD_TALKS → TALKS → DEBATE, CONCERT) arrives resolved (OLD_TALKS → DEBATE, CONCERT).
    const { apiKeys: sourceKeys, retired: _sourceRetired, ...sourceContents } = await contents(source.db);
    const { apiKeys: targetKeys, retired: targetRetired, ...targetContents } = await contents(target.db);
    expect(targetRetired).toEqual([
      { id: 'OLD_TALKS', replaced_by: ['DEBATE', 'CONCERT'] },
      { id: 'TALKS', replaced_by: ['DEBATE', 'CONCERT'] },
    ]);
    expect(targetContents).toEqual(sourceContents);
    expect(sourceKeys).toHaveLength(1);
    expect(targetKeys).toEqual([]);
  });

  it('importing the export into the same database changes nothing', async () => {
    const handle = await database();
    const { db } = handle;
    await loadFixture(handle);
    const before = await contents(db);
    const logged = async () => (await sql`select event_id, version, content_hash from event_changes order by event_id collate "C"`.execute(db)).rows;
    const logBefore = await logged();
    const datesBefore = (await sql`select id, event_id from occurrences order by id`.execute(db)).rows;
    const file = await exportText(db);
    // Every event unchanged, though the file spells them otherwise (instants with offsets, dates' values
    // only where they differ) and some were filed under categories retired since: nothing written.
    const summary = await importCalendar(handle, JSON.parse(file));
    expect(summary).toMatchObject({ addedEvents: 0, changedEvents: 0, unchangedEvents: summary.events });
    expect(summary.events).toBeGreaterThan(0);
    expect(await contents(db)).toEqual(before);
    expect(await logged()).toEqual(logBefore);
    expect((await sql`select id, event_id from occurrences order by id`.execute(db)).rows).toEqual(datesBefore);
    expect(await exportText(db)).toBe(file);
    // One title edited: that event alone is written and logged.
    const edited = JSON.parse(file) as { events: { id: string; title_nb: string }[] };
    const target = edited.events[0]!;
    target.title_nb = `${target.title_nb} (endret)`;
    const again = await importCalendar(handle, edited);
    expect(again).toMatchObject({ changedEvents: 1, unchangedEvents: summary.events - 1 });
    const version = Number((await sql<{ version: string }>`select version from calendar_state`.execute(db)).rows[0]!.version);
    expect((await sql<{ event_id: string }>`select event_id from event_changes where version = ${version}`.execute(db)).rows.map((r) => r.event_id)).toEqual([target.id]);
  });

  it('writes a canonical file: sections in order, one record per line, defaults left out, ids in byte order', async () => {
    const handle = await database();
    const { db } = handle;
    await loadFixture(handle);
    const sink = collector();
    const summary = await exportCalendar(db, sink.out);
    const text = sink.text();
    expect(summary).toEqual({ categories: 4, retiredCategories: 2, venues: 2, organizers: 2, events: 4, dates: 8, apiKeysLeftOut: 1 });

    const lines = text.split('\n');
    expect(lines[0]).toBe('{');
    expect(lines.filter((line) => /^ {2}"/.test(line))).toEqual([
      '  "categories": [',
      '  "retiredCategories": [',
      '  "venues": [',
      '  "organizers": [',
      '  "events": [',
    ]);
    expect(text.endsWith('\n  ]\n}\n')).toBe(true);
    expect(text).not.toContain('apiKeys');

    const file = JSON.parse(text) as Required<typeof calendar> & { retiredCategories: unknown[] };
    // Categories in the order the API lists them; retired ones gone from the list.
    expect(file.categories).toEqual([
      { id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' },
      { id: 'JAZZ', name_nb: 'Jazz', name_en: 'Jazz', slug_nb: 'jazz', slug_en: 'jazz', parent: 'CONCERT' },
      { id: 'HIDDEN', name_nb: 'Skjult', name_en: 'Hidden', slug_nb: 'skjult', slug_en: 'hidden', visible: false },
      { id: 'DEBATE', name_nb: 'Debatt', name_en: 'Debate', slug_nb: 'debatt', slug_en: 'debate' },
    ]);
    // The chain is followed to categories that exist: an import accepts no retired replacement.
    expect(file.retiredCategories).toEqual([
      { id: 'OLD_TALKS', replacedBy: ['DEBATE', 'CONCERT'] },
      { id: 'TALKS', replacedBy: ['DEBATE', 'CONCERT'] },
    ]);
    expect(file.venues).toEqual([
      calendar.venues[0],
      { id: 'V-CAFE', slug: 'cafeen', name: 'Caféen' },
    ]);
    // Byte order: upper case before lower case, Ø (U+00D8) after ASCII, whatever the server's collation.
    expect(file.events.map((event) => event.id)).toEqual(['ev-B', 'ev-a', 'ev-b', 'ev-Ø']);

    const jazz = file.events.find((event) => event.id === 'ev-b')!;
    expect(jazz.dates).toEqual([
      // A startTime other than the clock time of the start is kept.
      { start: '2026-12-01T20:00:00+01:00', end: '2026-12-01T22:30:00+01:00', startTime: '19:30', duration: 150 },
      // Only what differs from the event is the date's own.
      {
        start: '2026-12-08T20:00:00+01:00',
        venue: 'V-CAFE',
        ticketsURL: 'https://billett.example.no/jazz-2',
        cancelled: true,
        soldOut: true,
        prices: [{ type: 'REGULAR', price: '300,-' }],
      },
      // An end equal to the start is no end; the event's venue and flags, and the derived startTime, are left out.
      { start: '2026-12-15T20:00:00.250+01:00' },
      // Oslo time with the summer offset.
      { start: '2026-07-01T19:00:00+02:00' },
    ]);
    // Labels left out stay out; a label given as null stays null.
    expect(jazz.prices).toEqual([
      { type: 'REGULAR', price: '250,-' },
      { type: 'EARLY', price: 99.5, name_nb: 'Tidlig', name_en: null },
    ]);
    expect(jazz.images![1]).toEqual({ urlSmall: 'https://img.example.no/s2.jpg', urlLarge: 'https://img.example.no/l2.jpg' });
    expect(jazz.categories).toEqual(['JAZZ', 'CONCERT']);
    expect(jazz.organizers).toEqual(['O-JAZZ', 'O-AMATOR']);
    expect(jazz.updated_at).toBe('2026-10-02T09:00:00.125+02:00');

    // An event whose retired category was replaced carries the replacements, in its place.
    expect(file.events.find((event) => event.id === 'ev-B')!.categories).toEqual(['DEBATE', 'CONCERT', 'HIDDEN']);
    const cancelled = file.events.find((event) => event.id === 'ev-a')!;
    // The event is cancelled and sold out: the first date says it is not cancelled, and inherits "sold out".
    expect(cancelled.dates).toEqual([{ start: '2026-12-03T18:00:00+01:00', cancelled: false }, { start: '2026-12-04T18:00:00+01:00' }]);
    // Only the fields that are not the format's defaults.
    expect(Object.keys(file.events.find((event) => event.id === 'ev-Ø')!)).toEqual(['id', 'slug', 'title_nb', 'dates', 'created_at', 'updated_at']);
  });

  it('writes an empty database as a file with empty sections, which imports', async () => {
    const { db } = await database();
    const text = await exportText(db);
    expect(text).toBe('{\n  "categories": [],\n  "retiredCategories": [],\n  "venues": [],\n  "organizers": [],\n  "events": []\n}\n');
    const target = await database();
    await importCalendar(target, JSON.parse(text));
    expect(await exportText(target.db)).toBe(text);
  });

  it('streams: waits for a slow reader, holding a bounded amount of the file at a time', async () => {
    const handle = await database();
    const { db } = handle;
    await importCalendar(handle, generateDemoCalendar({ events: 2000, seed: 7, today: new Date('2026-11-01T12:00:00+01:00') }));
    const sink = collector({ slow: true, highWaterMark: 16_384 });
    const progress: [number, number][] = [];
    const summary = await exportCalendar(db, sink.out, { pageSize: 200, onProgress: (done, total) => progress.push([done, total]) });
    const size = Buffer.byteLength(sink.text());
    expect(summary.events).toBe(2000);
    expect(size).toBeGreaterThan(1_000_000);
    // Chunks of about 64 KB, each handed over only when the reader has taken the previous ones.
    expect(sink.chunks()).toBeGreaterThan(size / 100_000);
    expect(sink.maxBuffered()).toBeLessThan(200_000);
    expect(progress).toEqual(Array.from({ length: 10 }, (_, i) => [(i + 1) * 200, 2000]));
  });
});

describe('export timestamps', () => {
  it('are Oslo time with the offset of the day, milliseconds only when there are any', () => {
    expect(exportTimestamp(new Date('2026-01-15T18:00:00Z'))).toBe('2026-01-15T19:00:00+01:00');
    expect(exportTimestamp(new Date('2026-07-01T17:00:00.007Z'))).toBe('2026-07-01T19:00:00.007+02:00');
    // Local mean time (+00:43:00 in 1880) is no whole-minute offset: written in UTC, read back exactly.
    expect(exportTimestamp(new Date('1880-06-01T12:00:00Z'))).toBe('1880-06-01T12:00:00.000Z');
  });
});
