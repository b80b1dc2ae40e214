import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeChangeCursor } from '../../src/domain/change-cursor.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { databaseLabel } from '../support/test-database.js';
import { postGraphQL, startTestServer, type GraphQLBody, type TestServer } from '../support/test-server.js';
import { at, baseEvents, calendarWith, event, NOW, venue } from './fixtures/sync-calendar.js';

const HOUR = 60 * 60 * 1000;
const FIELDS = 'id title_nb startDate endDate eventCancelled venue { name slug } repetitions { startDate endDate }';

interface ShownEvent {
  id: string;
  [field: string]: unknown;
}
interface ChangesPage {
  changed: ShownEvent[];
  removedIds: string[];
  cursor: string;
  hasMore: boolean;
}

let server: TestServer;
let now = NOW;
let asked = 0;

beforeAll(async () => {
  server = await startTestServer({ calendar: calendarWith(baseEvents()), clock: () => now });
});
afterAll(async () => server?.close());

async function post(query: string, variables: Record<string, unknown> = {}): Promise<GraphQLBody> {
  return (await postGraphQL(server.url, { query, variables })).body;
}

/** What `events` shows now, every page, by id. Each question is worded anew: no cached answer. */
async function shown(): Promise<Map<string, ShownEvent>> {
  const all = new Map<string, ShownEvent>();
  for (let page = 0; ; page++) {
    const body = await post(`query Shown${asked++}($page: Int) { events(page: $page, pageSize: 20) { hasMore data { ${FIELDS} } } }`, { page });
    expect(body.errors).toBeUndefined();
    const connection = body.data!['events'] as { hasMore: boolean; data: ShownEvent[] };
    for (const e of connection.data) all.set(e.id, e);
    if (!connection.hasMore) return all;
  }
}

async function changesPage(since: string | null, pageSize: number): Promise<ChangesPage> {
  const body = await post(`query Changes${asked++}($since: String, $pageSize: Int) { changes(since: $since, pageSize: $pageSize) { changed { ${FIELDS} } removedIds cursor hasMore } }`, {
    since,
    pageSize,
  });
  expect(body.errors).toBeUndefined();
  return body.data!['changes'] as ChangesPage;
}

/** A client: applies every page to its mirror until `hasMore` is false; returns the cursor to keep. */
async function sync(mirror: Map<string, ShownEvent>, since: string | null, pageSize = 7): Promise<{ cursor: string; pages: ChangesPage[] }> {
  const pages: ChangesPage[] = [];
  let cursor = since;
  for (;;) {
    const page = await changesPage(cursor, pageSize);
    pages.push(page);
    expect(page.changed.length + page.removedIds.length).toBeLessThanOrEqual(pageSize);
    for (const e of page.changed) mirror.set(e.id, e);
    for (const id of page.removedIds) mirror.delete(id);
    cursor = page.cursor;
    if (!page.hasMore) return { cursor, pages };
    expect(pages.length).toBeLessThan(100);
  }
}

const sorted = (m: Map<string, ShownEvent>) => [...m.values()].sort((a, b) => (a.id < b.id ? -1 : 1));

describe(`changes: a mirror kept by change sync (${databaseLabel})`, () => {
  const mirror = new Map<string, ShownEvent>();
  let cursor = '';

  it('a full sync, page by page, gives exactly what events shows', async () => {
    now = NOW;
    const result = await sync(mirror, null);
    cursor = result.cursor;
    expect(result.pages.length).toBeGreaterThan(3);
    // Past and not yet published events are not listed, as removed or otherwise.
    expect(result.pages.flatMap((p) => p.removedIds)).toEqual([]);
    expect(mirror.has('E-PAST')).toBe(false);
    expect(mirror.has('E-LATER')).toBe(false);
    expect(sorted(mirror)).toEqual(sorted(await shown()));
    // Changed events come as eventByID gives them: the next date promoted, later ones as repetitions.
    expect(mirror.get('E-TWO-DATES')).toMatchObject({ startDate: '2026-11-02 13:00:00+01:00', repetitions: [{ startDate: '2026-11-04 12:00:00+01:00' }] });
  });

  it('an import that writes nothing new lists nothing', async () => {
    await importCalendar(server.database, calendarWith(baseEvents()));
    const result = await sync(mirror, cursor);
    expect(result.pages).toEqual([{ changed: [], removedIds: [], cursor: result.cursor, hasMore: false }]);
    cursor = result.cursor;
  });

  it('follows edits, additions, --replace removals and unpublishing', async () => {
    const events = baseEvents()
      .filter((e) => e.id !== 'E-05')
      .map((e) => (e.id === 'E-03' ? { ...e, title_nb: 'Ny tittel' } : e.id === 'E-07' ? { ...e, publishingDate: at(24 * 30) } : e));
    events.push(event('E-NEW', [{ start: at(10), end: at(11) }]));
    await importCalendar(server.database, calendarWith(events), { replace: true });
    const result = await sync(mirror, cursor);
    cursor = result.cursor;
    const changed = result.pages.flatMap((p) => p.changed.map((e) => e.id)).sort();
    const removed = result.pages.flatMap((p) => p.removedIds).sort();
    expect(changed).toEqual(['E-03', 'E-NEW']);
    expect(removed).toEqual(['E-05', 'E-07']);
    expect(sorted(mirror)).toEqual(sorted(await shown()));
  });

  it('follows a venue renamed by a file that does not list its events', async () => {
    await importCalendar(server.database, { venues: [venue('V-TWO', 'Lille Scene (ny sal)')] });
    const result = await sync(mirror, cursor);
    cursor = result.cursor;
    expect(result.pages.flatMap((p) => p.changed.map((e) => e.id))).toEqual(['E-AT-TWO']);
    expect(mirror.get('E-AT-TWO')).toMatchObject({ venue: { name: 'Lille Scene (ny sal)' } });
    expect(sorted(mirror)).toEqual(sorted(await shown()));
  });

  it('follows time: a date that ends promotes the next one, an event whose last date ended is removed', async () => {
    now = new Date(NOW.getTime() + 6 * HOUR);
    const result = await sync(mirror, cursor);
    cursor = result.cursor;
    expect(result.pages.flatMap((p) => p.removedIds)).toEqual(['E-ENDING']);
    expect(mirror.get('E-TWO-DATES')).toMatchObject({ startDate: '2026-11-04 12:00:00+01:00', repetitions: [] });
    expect(sorted(mirror)).toEqual(sorted(await shown()));
  });

  it('follows time: an event whose publishing date passed appears', async () => {
    now = new Date(NOW.getTime() + 25 * HOUR);
    const result = await sync(mirror, cursor);
    cursor = result.cursor;
    expect(result.pages.flatMap((p) => p.changed.map((e) => e.id))).toContain('E-LATER');
    expect(sorted(mirror)).toEqual(sorted(await shown()));
  });

  it('stays exact when imports land between the pages of one sync', async () => {
    now = new Date(NOW.getTime() + 30 * HOUR);
    // Many changes, so that the sync takes several pages; imports land after its first page.
    const renamed = (suffix: string) =>
      baseEvents()
        .filter((e) => e.id !== 'E-05')
        .map((e) => ({ ...e, title_nb: `${e.title_nb} ${suffix}` }));
    await importCalendar(server.database, calendarWith(renamed('A')), { replace: true });
    const first = await changesPage(cursor, 5);
    expect(first.hasMore).toBe(true);
    for (const e of first.changed) mirror.set(e.id, e);
    for (const id of first.removedIds) mirror.delete(id);
    await importCalendar(server.database, calendarWith([...renamed('B').filter((e) => e.id !== 'E-10'), event('E-MID', [{ start: at(100), end: at(101) }])]), {
      replace: true,
    });
    now = new Date(NOW.getTime() + 52 * HOUR);
    let result = await sync(mirror, first.cursor, 5);
    // The second import's changes come with this sync or the next one: after both, the mirror is exact.
    result = await sync(mirror, result.cursor, 5);
    cursor = result.cursor;
    expect(mirror.has('E-10')).toBe(false);
    expect(mirror.has('E-MID')).toBe(true);
    expect(sorted(mirror)).toEqual(sorted(await shown()));
  });

  it('walks ids beyond U+FFFF in the byte order of the database, each once, a page of one at a time', async () => {
    const odd = ['E-\uE000', 'E-\uFFFD', 'E-𝄞', 'E-😀', 'E-😀x'];
    await importCalendar(server.database, calendarWith(odd.map((id, i) => event(id, [{ start: at(200 + i), end: at(201 + i) }], { slug: `e-odd-${i}` }))));
    const result = await sync(mirror, cursor, 1);
    cursor = result.cursor;
    // UTF-8 byte order (collate "C"); JavaScript's `<` would put the two emoji before U+E000.
    expect(result.pages.flatMap((p) => p.changed.map((e) => e.id))).toEqual(odd);
    expect(sorted(mirror)).toEqual(sorted(await shown()));
  });

  it('lists nothing when nothing changed', async () => {
    const result = await sync(mirror, cursor);
    expect(result.pages).toEqual([{ changed: [], removedIds: [], cursor: result.cursor, hasMore: false }]);
  });
});

describe(`changes: arguments and cursors (${databaseLabel})`, () => {
  const errorOf = async (since: string | null, pageSize?: number) => {
    const body = await post('query($since: String, $pageSize: Int) { changes(since: $since, pageSize: $pageSize) { cursor } }', { since, pageSize });
    expect(body.data ?? null).toBeNull();
    return body.errors?.[0]?.extensions;
  };

  it.each([0, -1, 1001])('refuses pageSize %i with BAD_USER_INPUT naming pageSize', async (pageSize) => {
    expect(await errorOf(null, pageSize)).toMatchObject({ code: 'BAD_USER_INPUT', invalidArgs: ['pageSize'] });
  });

  it.each(['', 'not-a-cursor', 'WzEsIjEiXQ', encodeChangeCursor({ from: { version: '1', at: 5 }, to: null, full: false, phase: 'data', after: null }).slice(0, -2)])(
    'asks for a resync on an unknown cursor %j',
    async (since) => {
      expect(await errorOf(since)).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'RESYNC_REQUIRED', invalidArgs: ['since'] });
    },
  );

  it('asks for a resync on a cursor from a calendar further on than this one', async () => {
    const since = encodeChangeCursor({ from: { version: '999999', at: now.getTime() }, to: null, full: false, phase: 'data', after: null });
    expect(await errorOf(since)).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'RESYNC_REQUIRED' });
  });

  it('asks for a resync on a cursor older than 90 days, and takes one of 89 days', async () => {
    const saved = now;
    try {
      const { cursor } = await changesPage(null, 1000);
      now = new Date(saved.getTime() + 89 * 24 * HOUR);
      await changesPage(cursor, 1000);
      now = new Date(saved.getTime() + 91 * 24 * HOUR);
      expect(await errorOf(cursor)).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'RESYNC_REQUIRED' });
    } finally {
      now = saved;
    }
  });

  it('takes a cursor of a data version the database has and this process has not loaded yet', async () => {
    // As when the previous page came from a process further on: no import in this one announced it.
    const { version } = await sql<{ version: string }>`update calendar_state set version = version + 1 returning version::text`
      .execute(server.database.db)
      .then((r) => r.rows[0]!);
    const since = encodeChangeCursor({ from: { version, at: now.getTime() }, to: null, full: false, phase: 'data', after: null });
    expect(await changesPage(since, 100)).toMatchObject({ changed: [], removedIds: [], hasMore: false });
  });

  it('defaults to pages of 100 and takes 1000', async () => {
    const body = await post('{ a: changes { changed { id } hasMore } b: changes(pageSize: 1000) { changed { id } hasMore } }');
    expect(body.errors).toBeUndefined();
    expect(body.data).toMatchObject({ a: { hasMore: false }, b: { hasMore: false } });
  });
});
