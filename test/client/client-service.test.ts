import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { CalendarRequestError, createCalendarClient, suggest, suggestionFilter, type CalendarDocument, type FetchLike } from '../../packages/client/src/index.js';
import { CategoriesDocument, EventsPageDocument, SuggestDocument } from '../../packages/client/src/generated/documents.js';
import { createTestDatabase } from '../support/test-database.js';
import { NOW, widgetCalendar } from './fixtures/widget-calendar.js';

let database: DatabaseHandle;
let service: RunningService;

/** The global fetch, recording method and persisted-query hash of every call. */
function recordingFetch() {
  const calls: Array<{ method: string; hash: string | undefined }> = [];
  const fetch: FetchLike = async (url, init) => {
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as { extensions?: { persistedQuery?: { sha256Hash: string } } }) : undefined;
    const extensions = body?.extensions ?? (JSON.parse(new URL(url).searchParams.get('extensions') ?? '{}') as { persistedQuery?: { sha256Hash: string } });
    calls.push({ method: init.method ?? 'GET', hash: extensions.persistedQuery?.sha256Hash });
    return globalThis.fetch(url, init);
  };
  return { fetch, calls };
}

beforeAll(async () => {
  database = await createTestDatabase();
  await importCalendar(database, widgetCalendar);
  service = await startService(readConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), { database, seedWhenEmpty: false, clock: () => NOW });
});

afterAll(async () => {
  await service?.close();
  await database?.close();
});

describe('client against the running service', () => {
  it('gets a trusted document by the hash of its text in one GET', async () => {
    const { fetch, calls } = recordingFetch();
    const client = createCalendarClient({ endpoint: service.url, fetch });
    const { events } = await client.request(EventsPageDocument, { pageSize: 2 });
    expect(events?.totalCount).toBe(8);
    expect(events?.data.map((event) => event.id)).toEqual(['W-JAZZ', 'W-HAMLET']);
    expect(calls).toEqual([{ method: 'GET', hash: createHash('sha256').update(EventsPageDocument).digest('hex') }]);
  });

  it("gets the events page compressed on Node's fetch without a setting, decoded as it was", async () => {
    const encodings: Array<string | null> = [];
    const fetch: FetchLike = async (url, init) => {
      const response = await globalThis.fetch(url, init);
      encodings.push(response.headers.get('content-encoding'));
      return response;
    };
    const { events } = await createCalendarClient({ endpoint: service.url, fetch }).request(EventsPageDocument, { pageSize: 8 });
    expect(events?.data).toHaveLength(8);
    // undici asks `gzip, deflate`: the page (over 1 KiB) comes gzipped.
    expect(encodings).toEqual(['gzip']);
  });

  it('answers the second visitor of a third-party document with one GET hit', async () => {
    // Two fresh clients, as two page loads: nothing is shared between them but the server. The
    // document is shaped as the client preset writes it: printed text, and the hash of its own
    // normalised print, which is not the text sent.
    const name = `ThirdParty${randomBytes(4).toString('hex')}`;
    const text = `\n    query ${name} {\n  venues {\n    slug\n  }\n  categories {\n    id\n  }\n}\n    `;
    const normalised = `query ${name} { categories { id } venues { slug } }`;
    const document: CalendarDocument<{ venues: Array<{ slug: string }> | null }, Record<string, never>> = Object.assign(new String(text), {
      __meta__: { hash: `sha256:${createHash('sha256').update(normalised).digest('hex')}` },
    });
    const first = recordingFetch();
    const second = recordingFetch();

    const a = await createCalendarClient({ endpoint: service.url, fetch: first.fetch }).request(document);
    const b = await createCalendarClient({ endpoint: service.url, fetch: second.fetch }).request(document);

    expect(first.calls.map((call) => call.method)).toEqual(['GET', 'POST']);
    expect(second.calls).toEqual([{ method: 'GET', hash: first.calls[0]!.hash }]);
    expect(b).toEqual(a);
  });

  it('answers a document whose carried hash is stale with its own data, never another document\'s', async () => {
    const { fetch, calls } = recordingFetch();
    const categoriesHash = createHash('sha256').update(CategoriesDocument).digest('hex');
    // A venues query carrying the hash of the trusted Categories document (edited after codegen ran).
    const stale = { toString: () => 'query Venues { venues { slug } }', __meta__: { hash: `sha256:${categoriesHash}` } };
    const document: CalendarDocument<{ venues: Array<{ slug: string }> | null }, Record<string, never>> = stale;

    const data = await createCalendarClient({ endpoint: service.url, fetch }).request(document);

    expect(data.venues?.length).toBeGreaterThan(0);
    expect(data).not.toHaveProperty('categories');
    expect(calls[0]!.hash).not.toBe(categoriesHash);
  });

  it('registers an unknown document by POST after PersistedQueryNotFound, then GETs it by hash', async () => {
    const { fetch, calls } = recordingFetch();
    const client = createCalendarClient({ endpoint: service.url, fetch });
    // Not in the manifest, and unique to this run so that no earlier test registered it.
    const text = `query ClientServiceTest${Date.now()} { categories { id } }`;
    const document: CalendarDocument<{ categories: Array<{ id: string }> | null }, Record<string, never>> = { toString: () => text };

    const first = await client.request(document);
    const second = await client.request(document);

    expect(first.categories?.map((category) => category.id)).toContain('CONCERT');
    expect(second).toEqual(first);
    expect(calls.map((call) => call.method)).toEqual(['GET', 'POST', 'GET']);
    expect(calls[1]!.hash).toBe(calls[0]!.hash);
    expect(calls[2]!.hash).toBe(calls[0]!.hash);
  });

  it('reports an unknown key as a notice, not an error', async () => {
    const notices: string[] = [];
    const client = createCalendarClient({ endpoint: service.url, apiKey: 'hsk_not_a_known_key', onNotice: (notice) => notices.push(notice) });
    const data = await client.request(CategoriesDocument);
    expect(data.categories?.length).toBeGreaterThan(0);
    expect(notices).toHaveLength(1);
    expect(client.lastNotice).toBe(notices[0]);
  });

  it('suggests by one GET per prefix, typed alike whatever its case and spaces, and maps a suggestion to its filter', async () => {
    const { fetch, calls } = recordingFetch();
    const client = createCalendarClient({ endpoint: service.url, fetch });
    const found = await suggest(client, '  KUN ', { limit: 3 });
    expect(found[0]).toEqual({ kind: 'VENUE', value: 'kunstmuseet', label_nb: 'Kunstmuseet', label_en: 'Kunstmuseet', hits: expect.any(Number) });
    const { events } = await client.request(EventsPageDocument, { filter: { ...suggestionFilter(found[0]!) }, pageSize: 1 });
    expect(events?.totalCount).toBe(found[0]!.hits);
    expect(await suggest(client, 'kun', { limit: 3 })).toEqual(found);
    // Nothing typed: no request at all.
    expect(await suggest(client, '   ')).toEqual([]);
    expect(calls.filter((call) => call.hash === createHash('sha256').update(SuggestDocument).digest('hex')).map((call) => call.method)).toEqual(['GET', 'GET']);
    expect(suggestionFilter({ kind: 'CATEGORY', value: 'CONCERT' })).toEqual({ categories: ['CONCERT'] });
    expect(suggestionFilter({ kind: 'EVENT', value: 'w-jazz' })).toBeNull();
  });

  it('throws BAD_USER_INPUT for a negative page, with the status and null data', async () => {
    const client = createCalendarClient({ endpoint: service.url });
    const error = await client.request(EventsPageDocument, { page: -1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalendarRequestError);
    expect((error as CalendarRequestError).code).toBe('BAD_USER_INPUT');
    expect((error as CalendarRequestError).status).toBe(200);
    expect((error as CalendarRequestError).data).toBeNull();
  });
});
