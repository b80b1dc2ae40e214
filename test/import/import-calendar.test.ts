import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { hashApiKey } from '../../src/domain/api-key-hash.js';
import { importCalendar, ImportValidationError } from '../../src/import/import-calendar.js';
import { dumpCalendarTables } from '../support/calendar-tables.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';

type Json = Record<string, unknown>;

const category = (id: string, nb: string, en: string, extra: Json = {}): Json => ({
  id,
  name_nb: nb,
  name_en: en,
  slug_nb: nb.toLowerCase(),
  slug_en: en.toLowerCase(),
  ...extra,
});

/** A small calendar written for the loading rules; every test starts from a fresh copy. */
function calendar(): { categories: Json[]; venues: Json[]; organizers: Json[]; events: Json[]; apiKeys?: Json[]; retiredCategories?: Json[] } {
  return {
    categories: [
      category('CONCERT', 'Konsert', 'Concert'),
      category('THEATER', 'Teater', 'Theater'),
      category('TALKS', 'Foredrag', 'Talks'),
      category('BOOK_TALKS', 'Bokprat', 'Book talks', { parent: 'TALKS', visible: false }),
    ],
    venues: [
      { id: 'V-BLAA', slug: 'blaa', name: 'Blå', address: 'Brenneriveien 9C', postalCode: '0182', municipality: 'Oslo', location: { latitude: 59.9201, longitude: 10.7526 } },
      { id: 'V-DRIV', slug: 'driv', name: 'Driv', address: null, postalCode: '9008', municipality: 'Tromsø', location: null },
    ],
    organizers: [{ id: 'O-JAZZ', slug: 'oslo-jazzforum', name: 'Oslo Jazzforum', website: 'https://jazz.example.no' }],
    events: [
      {
        id: 'E-CONCERT',
        slug: 'konsert-pa-blaa',
        title_nb: 'Konsert på Blå',
        title_en: 'Concert at Blå',
        desc_nb: '<p>Jazz &amp; blues<br>i kjelleren</p>',
        desc_en: null,
        tags: ['Jazz', 'Øl'],
        categories: ['CONCERT'],
        organizers: ['O-JAZZ'],
        venue: 'V-BLAA',
        ticketsURL: 'https://billett.example.no/konsert',
        prices: [{ type: 'REGULAR', price: '250,-' }, { type: 'STUDENT', price: 99.5 }],
        created_at: '2026-01-05T10:00:00+01:00',
        updated_at: '2026-01-06 11:30:00+01:00',
        dates: [
          // Summer, no end time: ongoing until three hours after the start.
          { start: '2026-07-01T17:00:00Z' },
          // Winter, end equal to start (no end time), every per-date override given.
          {
            start: '2026-12-01T19:30:00+01:00',
            end: '2026-12-01T19:30:00+01:00',
            venue: 'V-DRIV',
            ticketsURL: 'https://billett.example.no/tromso',
            cancelled: true,
            soldOut: true,
            prices: [{ type: 'REGULAR', price: 'kr 300' }],
          },
          // The organizer's own startTime is kept as entered.
          { start: '2026-12-02T18:00:00Z', end: '2026-12-02T21:00:00Z', startTime: '19:15', duration: 180 },
        ],
      },
      {
        id: 'E-TALK',
        slug: 'foredrag',
        title_nb: 'Foredrag om nordlys',
        categories: ['TALKS', 'THEATER'],
        venue: 'V-DRIV',
        eventCancelled: true,
        eventSoldOut: true,
        created_at: '2026-01-05T10:00:00+01:00',
        updated_at: '2026-01-05T10:00:00+01:00',
        dates: [{ start: '2026-01-10T18:00:00+01:00', end: '2026-01-10T20:00:00+01:00', cancelled: false }],
      },
    ],
  };
}

const dump = dumpCalendarTables;

async function empty(handle: DatabaseHandle): Promise<void> {
  for (const table of ['occurrences', 'event_categories', 'event_organizers', 'events', 'venues', 'organizers', 'retired_categories', 'api_keys'] as const) {
    await sql`delete from ${sql.table(table)}`.execute(handle.db);
  }
  // Children first: categories reference their parent.
  await sql`delete from categories where parent_id is not null`.execute(handle.db);
  await sql`delete from categories`.execute(handle.db);
}

async function problemsOf(handle: DatabaseHandle, input: unknown, options: { replace?: boolean } = {}): Promise<string[]> {
  const error = await importCalendar(handle, input, options).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ImportValidationError)) throw new Error(`expected an ImportValidationError, got ${String(error)}`);
  return error.problems;
}

describe(`importCalendar (${databaseLabel})`, () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await empty(handle);
  });

  describe('a valid file', () => {
    it('loads every record and reports what it wrote', async () => {
      const file = calendar();
      file.apiKeys = [{ key: 'hsk_widget_bolgen_0001', application: 'Bølgen widget' }];
      const summary = await importCalendar(handle, file);
      expect(summary).toEqual({
        categories: 4,
        venues: 2,
        organizers: 1,
        events: 2,
        occurrences: 4,
        apiKeys: 1,
        addedEvents: 2,
        changedEvents: 0,
        unchangedEvents: 0,
        removedEvents: 0,
        retiredCategories: 0,
      });
      const categories = await handle.db.selectFrom('categories').select(['id', 'parent_id', 'visible', 'position']).orderBy('position').execute();
      expect(categories).toEqual([
        { id: 'CONCERT', parent_id: null, visible: true, position: 0 },
        { id: 'THEATER', parent_id: null, visible: true, position: 1 },
        { id: 'TALKS', parent_id: null, visible: true, position: 2 },
        { id: 'BOOK_TALKS', parent_id: 'TALKS', visible: false, position: 3 },
      ]);
      const venue = await handle.db.selectFrom('venues').selectAll().where('id', '=', 'V-BLAA').executeTakeFirstOrThrow();
      expect(venue).toEqual({ id: 'V-BLAA', slug: 'blaa', name: 'Blå', address: 'Brenneriveien 9C', postal_code: '0182', municipality: 'Oslo', latitude: 59.9201, longitude: 10.7526 });
    });

    it('stores keys hashed, with their first eight characters as prefix', async () => {
      await importCalendar(handle, { apiKeys: [{ key: 'hsk_widget_bolgen_0001', application: 'Bølgen widget', revoked: true }] });
      const keys = await handle.db.selectFrom('api_keys').select(['key_hash', 'key_prefix', 'application', 'revoked']).execute();
      expect(keys).toEqual([{ key_hash: hashApiKey('hsk_widget_bolgen_0001'), key_prefix: 'hsk_widg', application: 'Bølgen widget', revoked: true }]);
      expect(hashApiKey('hsk_widget_bolgen_0001')).toMatch(/^[0-9a-f]{64}$/);
    });

    it('stores event fields, raw prices, categories and organizers in order', async () => {
      await importCalendar(handle, calendar());
      const event = await handle.db.selectFrom('events').selectAll().where('id', '=', 'E-CONCERT').executeTakeFirstOrThrow();
      expect(event.prices).toEqual([{ type: 'REGULAR', price: '250,-' }, { type: 'STUDENT', price: 99.5 }]);
      expect(event.images).toEqual([]);
      expect(event.mode).toBe('offline');
      expect(event.tickets_information).toBe('noTicketsInfo');
      expect(new Date(event.created_at).toISOString()).toBe('2026-01-05T09:00:00.000Z');
      expect(new Date(event.updated_at).toISOString()).toBe('2026-01-06T10:30:00.000Z');
      const categories = await handle.db.selectFrom('event_categories').select(['category_id', 'position']).where('event_id', '=', 'E-TALK').orderBy('position').execute();
      expect(categories).toEqual([{ category_id: 'TALKS', position: 0 }, { category_id: 'THEATER', position: 1 }]);
    });

    it('folds titles, descriptions without markup and tags into search_text', async () => {
      await importCalendar(handle, calendar());
      const event = await handle.db.selectFrom('events').select('search_text').where('id', '=', 'E-CONCERT').executeTakeFirstOrThrow();
      expect(event.search_text).toBe('konsert pa bla concert at bla jazz & blues i kjelleren jazz ol');
    });
  });

  describe('occurrence derivation', () => {
    it('derives end, ends_at, start time, local minute and day, and the effective venue, URL, flags and prices', async () => {
      await importCalendar(handle, calendar());
      const rows = await handle.db.selectFrom('occurrences').selectAll().where('event_id', '=', 'E-CONCERT').orderBy('position').execute();
      const plain = rows.map(({ id: _id, start_at, end_at, ends_at, ...rest }) => ({
        ...rest,
        start_at: new Date(start_at).toISOString(),
        end_at: end_at === null ? null : new Date(end_at).toISOString(),
        ends_at: new Date(ends_at).toISOString(),
      }));
      expect(plain).toEqual([
        {
          event_id: 'E-CONCERT',
          position: 0,
          start_at: '2026-07-01T17:00:00.000Z',
          end_at: null,
          // "ongoing until three hours after its start"
          ends_at: '2026-07-01T20:00:00.000Z',
          // Summer time: 17:00 UTC is 19:00 in Oslo.
          start_time: '19:00',
          local_minute: 19 * 60,
          local_day: '2026-07-01',
          duration: null,
          venue_id: 'V-BLAA',
          tickets_url: 'https://billett.example.no/konsert',
          cancelled: false,
          sold_out: false,
          prices: null,
          publishing_date: null,
        },
        {
          event_id: 'E-CONCERT',
          position: 1,
          start_at: '2026-12-01T18:30:00.000Z',
          end_at: null,
          ends_at: '2026-12-01T21:30:00.000Z',
          start_time: '19:30',
          local_minute: 19 * 60 + 30,
          local_day: '2026-12-01',
          duration: null,
          venue_id: 'V-DRIV',
          tickets_url: 'https://billett.example.no/tromso',
          cancelled: true,
          sold_out: true,
          prices: [{ type: 'REGULAR', price: 'kr 300' }],
          publishing_date: null,
        },
        {
          event_id: 'E-CONCERT',
          position: 2,
          start_at: '2026-12-02T18:00:00.000Z',
          end_at: '2026-12-02T21:00:00.000Z',
          ends_at: '2026-12-02T21:00:00.000Z',
          start_time: '19:15',
          // Winter time: 18:00 UTC is 19:00 in Oslo, whatever the organizer typed.
          local_minute: 19 * 60,
          local_day: '2026-12-02',
          duration: 180,
          venue_id: 'V-BLAA',
          tickets_url: 'https://billett.example.no/konsert',
          cancelled: false,
          sold_out: false,
          prices: null,
          publishing_date: null,
        },
      ]);
      const event = await handle.db.selectFrom('events').select('last_ends_at').where('id', '=', 'E-CONCERT').executeTakeFirstOrThrow();
      expect(new Date(event.last_ends_at).toISOString()).toBe('2026-12-02T21:00:00.000Z');
    });

    it("copies the event's publishing date onto each of its dates", async () => {
      await importCalendar(handle, {
        events: [{ id: 'E-LATER', slug: 'senere', publishingDate: '2026-06-01T08:00:00Z', dates: [{ start: '2026-07-01T18:00:00Z' }, { start: '2026-07-08T18:00:00Z' }] }],
      });
      const rows = await handle.db.selectFrom('occurrences').select('publishing_date').where('event_id', '=', 'E-LATER').execute();
      expect(rows.map((r) => new Date(r.publishing_date!).toISOString())).toEqual(['2026-06-01T08:00:00.000Z', '2026-06-01T08:00:00.000Z']);
    });

    it('raises the data version with every import, and not when an import fails', async () => {
      const version = async () => Number((await handle.db.selectFrom('calendar_state').select('version').executeTakeFirstOrThrow()).version);
      const before = await version();
      await importCalendar(handle, calendar());
      expect(await version()).toBe(before + 1);
      await expect(importCalendar(handle, { events: [{ id: 'E-BAD', slug: 'bad', venue: 'V-NOWHERE', dates: [{ start: '2026-07-01T18:00:00Z' }] }] })).rejects.toThrow();
      expect(await version()).toBe(before + 1);
    });

    it('derives the start time from the Oslo wall clock in winter', async () => {
      await importCalendar(handle, { events: [{ id: 'E-WINTER', slug: 'vinter', dates: [{ start: '2026-01-15T18:00:00Z' }] }] });
      const row = await handle.db.selectFrom('occurrences').select(['start_time', 'local_minute', 'local_day']).executeTakeFirstOrThrow();
      expect(row).toEqual({ start_time: '19:00', local_minute: 19 * 60, local_day: '2026-01-15' });
    });

    it('lets a date override the event flags, and falls back to them otherwise', async () => {
      await importCalendar(handle, calendar());
      const row = await handle.db.selectFrom('occurrences').select(['cancelled', 'sold_out']).where('event_id', '=', 'E-TALK').executeTakeFirstOrThrow();
      expect(row).toEqual({ cancelled: false, sold_out: true });
    });

    it('counts a date after midnight Oslo time on its Oslo day', async () => {
      await importCalendar(handle, { events: [{ id: 'E-LATE', slug: 'sent', dates: [{ start: '2026-03-27T23:30:00Z' }] }] });
      const row = await handle.db.selectFrom('occurrences').select(['start_time', 'local_minute', 'local_day']).executeTakeFirstOrThrow();
      expect(row).toEqual({ start_time: '00:30', local_minute: 30, local_day: '2026-03-28' });
    });
  });

  describe('rejected files', () => {
    const cases: { name: string; change: (file: ReturnType<typeof calendar>) => unknown; problems: string[] }[] = [
      {
        name: 'an unknown top-level key',
        change: (file) => ({ ...file, venue: [] }),
        problems: ['venue: unknown key'],
      },
      {
        name: 'an unknown event field',
        change: (file) => {
          file.events[1] = { ...file.events[1], colour: 'red' };
          return file;
        },
        problems: ['events[1].colour: unknown key'],
      },
      {
        name: 'a timestamp without offset',
        change: (file) => {
          const dates = (file.events[0] as { dates: Json[] }).dates;
          dates[2] = { ...dates[2], start: '2026-12-02T19:00:00' };
          return file;
        },
        problems: ['events[0].dates[2].start: timestamp needs an explicit offset'],
      },
      {
        name: 'an unknown venue, on the event and on a date',
        change: (file) => {
          file.events[1] = { ...file.events[1], venue: 'V-NOWHERE', dates: [{ start: '2026-01-10T18:00:00+01:00', venue: 'V-GONE' }] };
          return file;
        },
        problems: ['events[1].venue: unknown venue "V-NOWHERE"', 'events[1].dates[0].venue: unknown venue "V-GONE"'],
      },
      {
        name: 'unknown organizers, categories and super events',
        change: (file) => {
          file.events[1] = { ...file.events[1], organizers: ['O-NONE'], categories: ['TALKS', 'NOPE'], superEvent: 'E-NONE' };
          return file;
        },
        problems: ['events[1].categories[1]: unknown category "NOPE"', 'events[1].organizers[0]: unknown organizer "O-NONE"', 'events[1].superEvent: unknown event "E-NONE"'],
      },
      {
        name: 'a slug used twice',
        change: (file) => {
          file.events[1] = { ...file.events[1], slug: 'konsert-pa-blaa' };
          return file;
        },
        problems: ['events[1].slug: slug "konsert-pa-blaa" is already used by events[0]'],
      },
      {
        name: 'an event without dates, an end before its start and a malformed start time',
        change: (file) => {
          file.events[0] = {
            ...file.events[0],
            dates: [
              { start: '2026-05-01T20:00:00+02:00', end: '2026-05-01T19:00:00+02:00' },
              { start: '2026-05-02T20:00:00+02:00', startTime: '7pm' },
            ],
          };
          file.events[1] = { ...file.events[1], dates: [] };
          return file;
        },
        problems: [
          'events[0].dates[0].end: end is before start',
          'events[0].dates[1].startTime: expected a wall-clock time HH:mm',
          'events[1].dates: an event needs at least one date',
        ],
      },
      {
        name: 'wrong types and missing fields, each reported once',
        change: (file) => ({ ...file, venues: [...file.venues, { id: 'V-X', name: 'X', location: { latitude: '59' } }], organizers: 'O-JAZZ' }),
        problems: [
          'venues[2].slug: is required',
          'venues[2].location.latitude: expected a number, got the string "59"',
          'venues[2].location.longitude: is required',
          'organizers: expected a list, got the string "O-JAZZ"',
        ],
      },
      {
        name: 'something that is not a calendar at all',
        change: () => [1, 2, 3],
        problems: ['(root): expected a JSON object with the keys categories, retiredCategories, venues, organizers, events, apiKeys; got a list'],
      },
      {
        name: 'a key without the hsk_ prefix',
        change: (file) => ({ ...file, apiKeys: [{ key: 'abc123', application: 'X' }] }),
        problems: ['apiKeys[0].key: an API key starts with "hsk_" and has no spaces'],
      },
    ];

    for (const { name, change, problems } of cases) {
      it(`rejects ${name} with one line per problem and writes nothing`, async () => {
        await importCalendar(handle, { venues: [{ id: 'V-KEEP', slug: 'keep', name: 'Stays' }] });
        const before = await dump(handle);
        expect(await problemsOf(handle, change(calendar()))).toEqual(problems);
        expect(await dump(handle)).toEqual(before);
      });
    }

    it('reports the problems of the whole file in one pass, in file order', async () => {
      const file = calendar();
      file.events[0] = { ...file.events[0], venue: 'V-NOWHERE', colour: 'red' };
      const input = { ...file, colour: 'red' };
      expect(await problemsOf(handle, input)).toEqual(['colour: unknown key', 'events[0].colour: unknown key', 'events[0].venue: unknown venue "V-NOWHERE"']);
    });

    it('rejects a slug that another stored event holds', async () => {
      await importCalendar(handle, calendar());
      const before = await dump(handle);
      const problems = await problemsOf(handle, { events: [{ id: 'E-NEW', slug: 'foredrag', dates: [{ start: '2026-02-01T12:00:00Z' }] }] });
      expect(problems).toEqual(['events[0].slug: slug "foredrag" is already used by event "E-TALK"']);
      expect(await dump(handle)).toEqual(before);
    });

    it('resolves references against the database', async () => {
      await importCalendar(handle, calendar());
      const summary = await importCalendar(handle, {
        events: [{ id: 'E-NEW', slug: 'ny', venue: 'V-BLAA', organizers: ['O-JAZZ'], categories: ['CONCERT'], superEvent: 'E-TALK', dates: [{ start: '2026-02-01T12:00:00Z' }] }],
      });
      expect(summary.events).toBe(1);
    });
  });

  describe('importing twice', () => {
    it('changes nothing the second time', async () => {
      await importCalendar(handle, calendar());
      const first = await dump(handle);
      await importCalendar(handle, calendar());
      expect(await dump(handle)).toEqual(first);
    });

    it('keeps the stored created_at and updated_at when the file leaves them out', async () => {
      const file = { events: [{ id: 'E-UNDATED', slug: 'udatert', dates: [{ start: '2026-02-01T12:00:00Z' }] }] };
      await importCalendar(handle, file);
      const read = () => handle.db.selectFrom('events').select(['created_at', 'updated_at']).where('id', '=', 'E-UNDATED').executeTakeFirstOrThrow();
      const first = await read();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await importCalendar(handle, file);
      expect(await read()).toEqual(first);
    });

    it('replaces an event’s dates, categories and organizers as a whole', async () => {
      await importCalendar(handle, calendar());
      const file = calendar();
      file.events[0] = { ...file.events[0], categories: ['THEATER'], organizers: [], dates: [{ start: '2026-08-01T18:00:00+02:00' }] };
      await importCalendar(handle, file);
      const dates = await handle.db.selectFrom('occurrences').select('start_time').where('event_id', '=', 'E-CONCERT').execute();
      const categories = await handle.db.selectFrom('event_categories').select('category_id').where('event_id', '=', 'E-CONCERT').execute();
      const organizers = await handle.db.selectFrom('event_organizers').select('organizer_id').where('event_id', '=', 'E-CONCERT').execute();
      expect({ dates, categories, organizers }).toEqual({ dates: [{ start_time: '18:00' }], categories: [{ category_id: 'THEATER' }], organizers: [] });
    });

    it('adds new events next to stored ones from the same file', async () => {
      await importCalendar(handle, calendar());
      const first = await dump(handle);
      const fresh = { id: 'E-FRESH', slug: 'fersk', dates: [{ start: '2026-02-01T12:00:00Z' }] };
      const summary = await importCalendar(handle, { ...calendar(), events: [calendar().events[0], fresh, calendar().events[1]] });
      expect(summary.events).toBe(3);
      const after = await dump(handle);
      expect(after['occurrences']).toHaveLength((first['occurrences'] ?? []).length + 1);
      expect((after['events'] ?? []).filter((row) => !String(row).includes('"E-FRESH"'))).toEqual(first['events']);
    });

    it('lets two stored records swap their slugs', async () => {
      await importCalendar(handle, calendar());
      const file = calendar();
      file.venues = [{ ...file.venues[0], slug: 'driv' }, { ...file.venues[1], slug: 'blaa' }];
      await importCalendar(handle, file);
      const venues = await handle.db.selectFrom('venues').select(['id', 'slug']).orderBy('id').execute();
      expect(venues).toEqual([{ id: 'V-BLAA', slug: 'driv' }, { id: 'V-DRIV', slug: 'blaa' }]);
    });
  });

  describe('--replace', () => {
    const extra = { id: 'E-EXTRA', slug: 'ekstra', categories: ['CONCERT'], dates: [{ start: '2026-02-01T12:00:00Z' }] };

    it('removes the events the file does not list, with their dates', async () => {
      await importCalendar(handle, { ...calendar(), events: [...calendar().events, extra] });
      const summary = await importCalendar(handle, calendar(), { replace: true });
      expect(summary.removedEvents).toBe(1);
      const events = await handle.db.selectFrom('events').select('id').orderBy('id').execute();
      expect(events).toEqual([{ id: 'E-CONCERT' }, { id: 'E-TALK' }]);
      const orphans = await handle.db.selectFrom('occurrences').select('event_id').where('event_id', '=', 'E-EXTRA').execute();
      expect(orphans).toEqual([]);
    });

    it('keeps the events the file does not list without it', async () => {
      await importCalendar(handle, { ...calendar(), events: [...calendar().events, extra] });
      const summary = await importCalendar(handle, calendar());
      expect(summary.removedEvents).toBe(0);
      expect((await handle.db.selectFrom('events').select('id').execute()).length).toBe(3);
    });

    it('rejects a super event that only the removed events provide', async () => {
      await importCalendar(handle, { ...calendar(), events: [...calendar().events, extra] });
      const file = calendar();
      file.events[1] = { ...file.events[1], superEvent: 'E-EXTRA' };
      expect(await problemsOf(handle, file, { replace: true })).toEqual(['events[1].superEvent: event "E-EXTRA" is not in the file, so --replace removes it']);
    });
  });

  describe('retired categories', () => {
    const retirement = {
      categories: [category('DEBATE', 'Debatt', 'Debate')],
      retiredCategories: [{ id: 'TALKS', replacedBy: ['DEBATE', 'THEATER'] }],
    };

    it('moves events to the replacements in place, without duplicates, and removes the category', async () => {
      await importCalendar(handle, calendar());
      const summary = await importCalendar(handle, retirement);
      expect(summary.retiredCategories).toBe(1);
      const categories = await handle.db.selectFrom('event_categories').select(['category_id', 'position']).where('event_id', '=', 'E-TALK').orderBy('position').execute();
      expect(categories).toEqual([{ category_id: 'DEBATE', position: 0 }, { category_id: 'THEATER', position: 1 }]);
      const remaining = await handle.db.selectFrom('categories').select(['id', 'parent_id']).orderBy('id').execute();
      expect(remaining).toEqual([
        { id: 'BOOK_TALKS', parent_id: null },
        { id: 'CONCERT', parent_id: null },
        { id: 'DEBATE', parent_id: null },
        { id: 'THEATER', parent_id: null },
      ]);
      const retired = await handle.db.selectFrom('retired_categories').select(['id', 'replaced_by']).execute();
      expect(retired).toEqual([{ id: 'TALKS', replaced_by: ['DEBATE', 'THEATER'] }]);
    });

    it('retires idempotently', async () => {
      await importCalendar(handle, calendar());
      await importCalendar(handle, retirement);
      const first = await dump(handle);
      await importCalendar(handle, retirement);
      expect(await dump(handle)).toEqual(first);
    });

    it('rejects a retired id as a category or on an event, and writes nothing', async () => {
      await importCalendar(handle, calendar());
      await importCalendar(handle, retirement);
      const before = await dump(handle);
      const retiredMessage = 'category "TALKS" is retired (replaced by DEBATE, THEATER) and cannot be used again';
      expect(await problemsOf(handle, calendar())).toEqual([
        `categories[2].id: ${retiredMessage}`,
        `categories[3].parent: ${retiredMessage}`,
        `events[1].categories[0]: ${retiredMessage}`,
      ]);
      expect(await dump(handle)).toEqual(before);
    });

    it('rejects replacements that do not exist', async () => {
      await importCalendar(handle, calendar());
      expect(await problemsOf(handle, { retiredCategories: [{ id: 'TALKS', replacedBy: ['NOPE', 'TALKS'] }] })).toEqual([
        'retiredCategories[0].replacedBy[0]: unknown category "NOPE"',
        'retiredCategories[0].replacedBy[1]: a category cannot replace itself',
      ]);
    });
  });

  it('loads a large first import with every index and foreign key back in place', async () => {
    const schemaObjects = async () => {
      const indexes = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() order by 1`.execute(handle.db);
      const constraints = await sql<{ name: string }>`
        select c.conname as name from pg_constraint c join pg_namespace n on n.oid = c.connamespace
        where n.nspname = current_schema() order by 1`.execute(handle.db);
      return { indexes: indexes.rows.map((r) => r.name), constraints: constraints.rows.map((r) => r.name) };
    };
    const before = await schemaObjects();
    const file = calendar();
    const events = Array.from({ length: 5000 }, (_, i) => ({
      id: `E${i}`,
      slug: `e${i}`,
      title_nb: `Konsert nummer ${i} på Blå`,
      categories: ['CONCERT'],
      organizers: ['O-JAZZ'],
      venue: 'V-BLAA',
      dates: [{ start: '2026-02-01T12:00:00Z' }, { start: '2026-02-08T12:00:00Z', venue: 'V-DRIV' }],
    }));
    const summary = await importCalendar(handle, { ...file, events });
    expect(summary.occurrences).toBe(10_000);
    expect(await schemaObjects()).toEqual(before);
    const found = await handle.db.selectFrom('events').select('id').where(sql<boolean>`search_text like '%nummer 4999 pa bla%'`).execute();
    expect(found).toEqual([{ id: 'E4999' }]);
  });

  it('reports progress per batch of events', async () => {
    const calls: [number, number][] = [];
    const events = Array.from({ length: 2500 }, (_, i) => ({ id: `E${i}`, slug: `e${i}`, dates: [{ start: '2026-02-01T12:00:00Z' }] }));
    await importCalendar(handle, { events }, { onProgress: (done, total) => calls.push([done, total]) });
    expect(calls).toEqual([
      [2000, 2500],
      [2500, 2500],
    ]);
  });
});
