import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar, ImportValidationError } from '../../src/import/import-calendar.js';
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
});
