import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCalendar } from '../../src/import/import-calendar.js';
import { createCalendarClient, syncChanges, type ChangedEvent, type FetchLike } from '../../packages/client/src/index.js';
import { postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { at, baseEvents, calendarWith, event, NOW } from '../api/fixtures/sync-calendar.js';

let server: TestServer;
let asked = 0;

beforeAll(async () => {
  server = await startTestServer({ calendar: calendarWith(baseEvents()), clock: () => NOW });
});
afterAll(async () => server?.close());

/** The ids `events` shows now. */
async function shownIds(): Promise<string[]> {
  const body = (await postGraphQL(server.url, { query: `query Ids${asked++} { events(pageSize: 1000) { data { id } } }` })).body;
  return (body.data!['events'] as { data: { id: string }[] }).data.map((e) => e.id).sort();
}

function mirrorClient(fetch?: FetchLike) {
  const mirror = new Map<string, ChangedEvent>();
  let resets = 0;
  const options = {
    apply: (page: { changed: ChangedEvent[]; removedIds: string[] }) => {
      for (const e of page.changed) mirror.set(e.id, e);
      for (const id of page.removedIds) mirror.delete(id);
    },
    reset: () => {
      resets++;
      mirror.clear();
    },
  };
  const client = createCalendarClient({ endpoint: server.url, fetch });
  return { client, mirror, options, resets: () => resets };
}

describe('client: syncChanges', () => {
  it('mirrors the calendar with a full sync, then follows an import', async () => {
    const { client, mirror, options, resets } = mirrorClient();
    const first = await syncChanges(client, { ...options, pageSize: 4 });
    expect(first).toMatchObject({ full: true });
    expect(first.pages).toBeGreaterThan(5);
    expect(resets()).toBe(1);
    expect([...mirror.keys()].sort()).toEqual(await shownIds());
    expect(mirror.get('E-03')).toMatchObject({ title_nb: 'Tittel E-03', eventLink: expect.stringContaining('e-03') });

    const events = [...baseEvents().filter((e) => e.id !== 'E-04'), event('E-ADDED', [{ start: at(12), end: at(13) }])];
    await importCalendar(server.database, calendarWith(events), { replace: true });
    const next = await syncChanges(client, { ...options, since: first.cursor, pageSize: 4 });
    expect(next).toMatchObject({ full: false, pages: 1 });
    expect(mirror.has('E-04')).toBe(false);
    expect(mirror.has('E-ADDED')).toBe(true);
    expect([...mirror.keys()].sort()).toEqual(await shownIds());
  });

  it('rebuilds the mirror when the service asks for a resync', async () => {
    const { client, mirror, options, resets } = mirrorClient();
    mirror.set('STALE', { id: 'STALE' } as ChangedEvent);
    const result = await syncChanges(client, { ...options, since: 'a-cursor-from-elsewhere' });
    expect(result.full).toBe(true);
    expect(resets()).toBe(1);
    expect([...mirror.keys()].sort()).toEqual(await shownIds());
  });

  it('retries a page answered 503 while the service is being updated', async () => {
    let failures = 1;
    const flaky: FetchLike = async (url, init) => {
      if (failures-- > 0) {
        return new Response(JSON.stringify({ errors: [{ message: 'the calendar is being updated; retry shortly', extensions: { code: 'SERVICE_UNAVAILABLE' } }] }), { status: 503 });
      }
      return globalThis.fetch(url, init);
    };
    const { client, mirror, options } = mirrorClient(flaky);
    await syncChanges(client, { ...options, retryDelayMs: 1 });
    expect([...mirror.keys()].sort()).toEqual(await shownIds());
  });
});
