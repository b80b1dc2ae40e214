import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { sql } from 'kysely';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import type { CalendarPart } from '../../src/import/calendar-parts.js';
import { importCalendar, importCalendarParts, ImportValidationError, type StreamedImportOptions } from '../../src/import/import-calendar.js';
import { CalendarFileError, readCalendarFile } from '../../src/import/read-calendar-file.js';
import { dumpCalendarTables } from '../support/calendar-tables.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';

type Json = Record<string, unknown>;

const dump = dumpCalendarTables;

async function version(handle: DatabaseHandle): Promise<number> {
  return Number((await handle.db.selectFrom('calendar_state').select('version').executeTakeFirstOrThrow()).version);
}

async function empty(handle: DatabaseHandle): Promise<void> {
  for (const table of ['occurrences', 'event_categories', 'event_organizers', 'events', 'venues', 'organizers', 'retired_categories', 'api_keys'] as const) {
    await sql`delete from ${sql.table(table)}`.execute(handle.db);
  }
  await sql`delete from categories where parent_id is not null`.execute(handle.db);
  await sql`delete from categories`.execute(handle.db);
}

const STAMP = { created_at: '2026-01-05T10:00:00+01:00', updated_at: '2026-01-05T10:00:00+01:00' };

/** Event number `n`: fields written for these rules, timestamps given so that dumps compare. */
function event(n: number, extra: Json = {}): Json {
  return {
    id: `E${n}`,
    slug: `e${n}`,
    title_nb: `Konsert nummer ${n}`,
    categories: ['CONCERT'],
    organizers: ['O-JAZZ'],
    venue: 'V-BLAA',
    ...STAMP,
    dates: [{ start: '2026-02-01T19:00:00+01:00' }, { start: '2026-02-08T19:00:00+01:00', venue: 'V-DRIV' }],
    ...extra,
  };
}

function events(count: number, change: (n: number) => Json = () => ({})): Json[] {
  return Array.from({ length: count }, (_, n) => event(n, change(n)));
}

/** What the database holds before each test: a catalogue and a few stored events. */
const stored = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [
    { id: 'V-BLAA', slug: 'blaa', name: 'Blå' },
    { id: 'V-DRIV', slug: 'driv', name: 'Driv' },
  ],
  organizers: [{ id: 'O-JAZZ', slug: 'oslo-jazzforum', name: 'Oslo Jazzforum' }],
  events: [
    { id: 'E-STORED', slug: 'fest', title_nb: 'Lagret', ...STAMP, dates: [{ start: '2026-01-10T18:00:00+01:00' }] },
    { id: 'E-FESTIVAL', slug: 'festivalen', isSuperEvent: true, ...STAMP, dates: [{ start: '2026-01-10T12:00:00+01:00' }] },
  ],
};

describe(`a streamed import (${databaseLabel})`, () => {
  let handle: DatabaseHandle;
  let dir: string;
  let files = 0;

  beforeAll(async () => {
    handle = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'streamed-import-'));
  });
  afterAll(async () => {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await empty(handle);
    await importCalendar(handle, stored);
  });

  /** Writes `text` to a file and imports it the way `calendar import` does. */
  async function importText(text: string, options: StreamedImportOptions = {}) {
    const path = join(dir, `calendar-${files++}.json`);
    await writeFile(path, text);
    const file = await open(path);
    try {
      return await importCalendarParts(handle, readCalendarFile(file), options);
    } finally {
      await file.close();
    }
  }

  async function failure(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => null,
      (error: unknown) => error,
    );
  }

  it('rejects a file with problems near its end, after batches were written: every problem reported, nothing kept', async () => {
    const before = await dump(handle);
    const versionBefore = await version(handle);
    const file = {
      events: events(4500, (n) => {
        if (n === 4400) return { venue: 'V-NOWHERE' };
        if (n === 4490) return { dates: [{ start: '2026-02-01T19:00:00' }] };
        if (n === 4499) return { slug: 'e0', organizers: ['O-JAZZ', 'O-JAZZ'] };
        return {};
      }),
    };
    const written: number[] = [];
    const error = await failure(importText(JSON.stringify(file), { onProgress: (done) => written.push(done) }));
    expect(error).toBeInstanceOf(ImportValidationError);
    expect((error as ImportValidationError).problems).toEqual([
      'events[4400].venue: unknown venue "V-NOWHERE"',
      'events[4490].dates[0].start: timestamp needs an explicit offset',
      'events[4499].slug: slug "e0" is already used by events[0]',
      'events[4499].organizers[1]: listed twice',
    ]);
    // The first two batches went in before the problems showed; the rollback took them back out.
    expect(written).toEqual([2000, 4000]);
    expect(await dump(handle)).toEqual(before);
    expect(await version(handle)).toBe(versionBefore);
  });

  it('rejects a file cut short in the middle of the JSON with a clear error, and keeps nothing', async () => {
    const before = await dump(handle);
    const versionBefore = await version(handle);
    const text = JSON.stringify({ events: events(4500) });
    const cut = Math.floor(text.length * 0.7);
    const written: number[] = [];
    const error = await failure(importText(text.slice(0, cut), { onProgress: (done) => written.push(done) }));
    expect(error).toBeInstanceOf(CalendarFileError);
    expect((error as CalendarFileError).reason).toBe('invalidJson');
    expect((error as CalendarFileError).message).toContain(`ends after ${Buffer.byteLength(text.slice(0, cut))} bytes, in the middle of the document`);
    expect(written.length).toBeGreaterThan(0);
    expect(await dump(handle)).toEqual(before);
    expect(await version(handle)).toBe(versionBefore);
  });

  it('names where a file stops being JSON', async () => {
    const text = JSON.stringify({ events: events(3) }).replace('"e1"', '"e1" "oops"');
    const error = await failure(importText(text));
    expect(error).toBeInstanceOf(CalendarFileError);
    expect((error as CalendarFileError).message).toBe(`expected ',' between bytes 0 and ${Buffer.byteLength(text)}`);
  });

  it('reports an empty file as such', async () => {
    const error = await failure(importText(''));
    expect(error).toBeInstanceOf(CalendarFileError);
    expect((error as CalendarFileError).message).toBe('the file is empty');
  });

  it('loads a file whose events come before the venues and organizers they use, like one written with sorted keys', async () => {
    const calendar = {
      venues: [{ id: 'V-NEW', slug: 'ny-scene', name: 'Ny scene' }],
      organizers: [{ id: 'O-NEW', slug: 'ny-arrangor', name: 'Ny arrangør' }],
      events: events(2500, (n) => (n % 3 === 0 ? { venue: 'V-NEW', organizers: ['O-NEW', 'O-JAZZ'] } : n % 3 === 1 ? { dates: [{ start: '2026-03-01T19:00:00+01:00', venue: 'V-NEW' }] } : {})),
    };
    // Sorted keys: "events" < "organizers" < "venues".
    const sorted = `{"events":${JSON.stringify(calendar.events)},"organizers":${JSON.stringify(calendar.organizers)},"venues":${JSON.stringify(calendar.venues)}}`;
    const summary = await importText(sorted);
    expect(summary).toMatchObject({ venues: 1, organizers: 1, events: 2500 });
    const streamed = await dump(handle);

    await empty(handle);
    await importCalendar(handle, stored);
    await importCalendar(handle, calendar);
    expect(streamed).toEqual(await dump(handle));
  });

  it('still reports a venue that no later part of the file provides', async () => {
    const before = await dump(handle);
    const sorted = `{"events":${JSON.stringify(events(3, (n) => (n === 1 ? { venue: 'V-LATER' } : n === 2 ? { venue: 'V-NEVER' } : {})))},"venues":[{"id":"V-LATER","slug":"senere","name":"Senere"}]}`;
    const error = await failure(importText(sorted));
    expect((error as ImportValidationError).problems).toEqual(['events[2].venue: unknown venue "V-NEVER"']);
    expect(await dump(handle)).toEqual(before);
  });

  it('lets a new event take the slug of a stored event that the file renames further on', async () => {
    const file = { events: events(2600, (n) => (n === 5 ? { slug: 'fest' } : n === 2590 ? { id: 'E-STORED', slug: 'fest-2025' } : {})) };
    await importText(JSON.stringify(file));
    const rows = await handle.db.selectFrom('events').select(['id', 'slug']).where('id', 'in', ['E5', 'E-STORED']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'E-STORED', slug: 'fest-2025' },
      { id: 'E5', slug: 'fest' },
    ]);
  });

  it('rejects that slug when the stored event keeps it, found only at the end of the file', async () => {
    const before = await dump(handle);
    const error = await failure(importText(JSON.stringify({ events: events(2600, (n) => (n === 5 ? { slug: 'fest' } : {})) })));
    expect((error as ImportValidationError).problems).toEqual(['events[5].slug: slug "fest" is already used by event "E-STORED"']);
    expect(await dump(handle)).toEqual(before);
  });

  it('accepts a programme listed before its festival, and reports a festival that never comes', async () => {
    const programme = events(2100, (n) => (n === 0 ? { superEvent: 'E-LATE-FESTIVAL' } : n === 1 ? { superEvent: 'E-FESTIVAL' } : {}));
    await importText(JSON.stringify({ events: [...programme, event(9999, { id: 'E-LATE-FESTIVAL', isSuperEvent: true })] }));
    const child = await handle.db.selectFrom('events').select('super_event_id').where('id', '=', 'E0').executeTakeFirstOrThrow();
    expect(child.super_event_id).toBe('E-LATE-FESTIVAL');

    const error = await failure(importText(JSON.stringify({ events: events(3, (n) => (n === 2 ? { superEvent: 'E-NONE' } : {})) })));
    expect((error as ImportValidationError).problems).toEqual(['events[2].superEvent: unknown event "E-NONE"']);
  });

  it('rejects a section listed twice instead of keeping one silently', async () => {
    const before = await dump(handle);
    const text = `{"events":${JSON.stringify(events(2))},"events":${JSON.stringify(events(1))}}`;
    const error = await failure(importText(text));
    expect((error as ImportValidationError).problems).toEqual(['events: duplicate key (the file lists it twice)']);
    expect(await dump(handle)).toEqual(before);
  });

  it('removes the stored events a streamed file does not list with --replace', async () => {
    const summary = await importText(JSON.stringify({ events: events(2) }), { replace: true });
    expect(summary.removedEvents).toBe(2);
    const ids = await handle.db.selectFrom('events').select('id').orderBy('id').execute();
    expect(ids).toEqual([{ id: 'E0' }, { id: 'E1' }]);
  });

  it('runs imports one after another: the second one checks against what the first committed', async () => {
    let reachedPause!: () => void;
    const paused = new Promise<void>((resolve) => (reachedPause = resolve));
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    // The first import holds its transaction open halfway through its file, until told to go on.
    async function* first(): AsyncGenerator<CalendarPart> {
      yield { kind: 'list', key: 'venues' };
      yield { kind: 'element', value: { id: 'V-FIRST', slug: 'forste', name: 'Første' } };
      yield { kind: 'end' };
      yield { kind: 'list', key: 'events' };
      yield { kind: 'element', value: event(1, { venue: 'V-FIRST' }) };
      reachedPause();
      await resumed;
      yield { kind: 'element', value: event(2) };
      yield { kind: 'end' };
    }
    const finished: string[] = [];
    const firstImport = importCalendarParts(handle, first()).then((summary) => {
      finished.push('first');
      return summary;
    });
    await paused;
    // The second file uses the venue only the first one creates.
    const secondImport = importCalendar(handle, { events: [event(3, { venue: 'V-FIRST' })] }).then((summary) => {
      finished.push('second');
      return summary;
    });
    if (handle.driver === 'postgres') {
      // Wait until the second import is queued behind the first one's lock.
      for (let i = 0; i < 200; i++) {
        const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`.execute(handle.db);
        if ((waiting.rows[0]?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } else {
      // The embedded database has one connection: the second import waits for it.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(finished).toEqual([]);
    resume();
    expect(await firstImport).toMatchObject({ events: 2, venues: 1 });
    expect(await secondImport).toMatchObject({ events: 1 });
    expect(finished).toEqual(['first', 'second']);
    const row = await handle.db.selectFrom('events').select('venue_id').where('id', '=', 'E3').executeTakeFirstOrThrow();
    expect(row.venue_id).toBe('V-FIRST');
  });
});
