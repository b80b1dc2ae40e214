import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { CalendarRequestError, createCalendarClient, type FetchLike } from '../../packages/client/src/index.js';
import {
  CategoriesDocument,
  EventDetailDocument,
  EventsPageDocument,
  type CategoriesQuery,
  type EventsPageQuery,
} from '../../packages/client/src/generated/documents.js';
import { operationName } from '../../packages/client/src/operation-name.js';

const ENDPOINT = 'https://api.example.no/graphQL';
const CATEGORIES_HASH = 'a1f2fd8896b49ca1cf8de2df42cb40de9ae52810dddaedaf2a1b302936a9b94d';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

/** A fetch double that records every call and answers from a queue (the last answer repeats). */
function fakeFetch(...answers: Array<{ status?: number; body: unknown; headers?: Record<string, string> }>) {
  const calls: Call[] = [];
  const fetch: FetchLike = (url, init) => {
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers: { ...init.headers },
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
    });
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    return Promise.resolve(new Response(text, { status: answer.status ?? 200, headers: answer.headers }));
  };
  return { fetch, calls };
}

/** The persisted-query hash a GET sent in its `extensions` parameter. */
function persistedHashOf(url: string): string {
  const extensions = JSON.parse(new URL(url).searchParams.get('extensions')!) as { persistedQuery: { sha256Hash: string } };
  return extensions.persistedQuery.sha256Hash;
}

const categoriesData: CategoriesQuery = { categories: [] };
const notFound = { body: { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] } };

const manifest = JSON.parse(readFileSync(new URL('../../generated/persisted-documents.json', import.meta.url), 'utf8')) as Record<string, string>;

describe('documents: one hash per document', () => {
  it('sends exactly the text the server trusts under the hash of that text', () => {
    expect(sha256(CategoriesDocument)).toBe(CATEGORIES_HASH);
    expect(manifest[`sha256:${CATEGORIES_HASH}`]).toBe(CategoriesDocument);
    for (const document of [EventDetailDocument, EventsPageDocument]) expect(manifest[`sha256:${sha256(document)}`]).toBe(document);
  });
});

describe('client: persisted GET by hash', () => {
  it('sends the SHA-256 of the document text as an APQ GET with the preflight header', async () => {
    const { fetch, calls } = fakeFetch({ body: { data: categoriesData } });
    const client = createCalendarClient({ endpoint: ENDPOINT, fetch });

    await expect(client.request(CategoriesDocument)).resolves.toEqual(categoriesData);

    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.url).toBe(
      `${ENDPOINT}?operationName=Categories&variables=%7B%7D` +
        `&extensions=%7B%22persistedQuery%22%3A%7B%22version%22%3A1%2C%22sha256Hash%22%3A%22${CATEGORIES_HASH}%22%7D%7D`,
    );
    expect(calls[0]!.headers).toEqual({ Accept: 'application/json', 'Service-Require-Preflight': 'true' });
    expect(calls[0]!.body).toBeUndefined();
  });

  it('writes variables with sorted keys, so equal variables give one cacheable URL', async () => {
    const { fetch, calls } = fakeFetch({ body: { data: { events: null } } });
    const client = createCalendarClient({ endpoint: ENDPOINT, fetch });

    await client.request(EventsPageDocument, { pageSize: 6, page: 1, filter: { categories: ['CONCERT'], cancelledNotIncluded: true } });
    await client.request(EventsPageDocument, { filter: { cancelledNotIncluded: true, categories: ['CONCERT'] }, page: 1, pageSize: 6 });

    const url = new URL(calls[0]!.url);
    expect(url.searchParams.get('operationName')).toBe('EventsPage');
    expect(url.searchParams.get('variables')).toBe('{"filter":{"cancelledNotIncluded":true,"categories":["CONCERT"]},"page":1,"pageSize":6}');
    expect(JSON.parse(url.searchParams.get('extensions')!)).toEqual({
      persistedQuery: { version: 1, sha256Hash: '5f7d35f46eb54f0515784b714f3de33cf5299394170850c11450eac932ba7115' },
    });
    expect(calls[1]!.url).toBe(calls[0]!.url);
  });

  it('sends X-Api-Key and X-Page-Url when given, and never X-Client-Id', async () => {
    const { fetch, calls } = fakeFetch({ body: { data: categoriesData } });
    const client = createCalendarClient({ endpoint: ENDPOINT, fetch, apiKey: 'hsk_test', pageUrl: 'https://example.no/hva-skjer' });

    await client.request(CategoriesDocument);

    expect(calls[0]!.headers).toEqual({
      Accept: 'application/json',
      'Service-Require-Preflight': 'true',
      'X-Api-Key': 'hsk_test',
      'X-Page-Url': 'https://example.no/hva-skjer',
    });
    expect(Object.keys(calls[0]!.headers).map((name) => name.toLowerCase())).not.toContain('x-client-id');
  });

  it('hashes any document\'s text with WebCrypto', async () => {
    const { fetch, calls } = fakeFetch({ body: { data: { categories: [] } } });
    const client = createCalendarClient({ endpoint: ENDPOINT, fetch });
    const text = 'query Mine { categories { id } }';

    await client.request({ toString: () => text });

    expect(JSON.parse(new URL(calls[0]!.url).searchParams.get('extensions')!)).toEqual({
      persistedQuery: { version: 1, sha256Hash: sha256(text) },
    });
  });

  it('never sends a hash a document carries: a stale one would name another document', async () => {
    const { fetch, calls } = fakeFetch({ body: { data: { venues: [] } } });
    const text = 'query Venues { venues { slug } }';
    // What the client preset writes, with the hash of a document this text no longer is.
    const stale = { toString: () => text, __meta__: { hash: `sha256:${CATEGORIES_HASH}` } };

    await createCalendarClient({ endpoint: ENDPOINT, fetch }).request(stale);

    expect(persistedHashOf(calls[0]!.url)).toBe(sha256(text));
  });

  it('appends to an endpoint that already has a query string (say, ?key=)', async () => {
    const { fetch, calls } = fakeFetch({ body: { data: categoriesData } });
    await createCalendarClient({ endpoint: `${ENDPOINT}?key=hsk_test`, fetch }).request(CategoriesDocument);
    expect(calls[0]!.url.startsWith(`${ENDPOINT}?key=hsk_test&operationName=Categories&`)).toBe(true);
  });
});

describe('client: POST fallbacks', () => {
  it('POSTs the query with its hash after PersistedQueryNotFound, then GETs by the registered hash', async () => {
    const { fetch, calls } = fakeFetch(notFound, { body: { data: categoriesData } });
    const client = createCalendarClient({ endpoint: ENDPOINT, fetch, apiKey: 'hsk_test' });

    await expect(client.request(CategoriesDocument)).resolves.toEqual(categoriesData);

    const query: string = CategoriesDocument;
    expect(calls.map((call) => call.method)).toEqual(['GET', 'POST']);
    expect(calls[1]!.url).toBe(ENDPOINT);
    expect(calls[1]!.headers).toEqual({ Accept: 'application/json', 'Content-Type': 'application/json', 'X-Api-Key': 'hsk_test' });
    expect(calls[1]!.body).toEqual({
      query,
      variables: {},
      operationName: 'Categories',
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } },
    });

    await client.request(CategoriesDocument);
    expect(calls[2]!.method).toBe('GET');
    expect(persistedHashOf(calls[2]!.url)).toBe(sha256(query));
  });

  it('recognises the not-found answer by its code alone, on a 400 too', async () => {
    const { fetch, calls } = fakeFetch(
      { status: 400, body: { errors: [{ message: 'Unknown hash', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] } },
      { body: { data: categoriesData } },
    );
    await createCalendarClient({ endpoint: ENDPOINT, fetch }).request(CategoriesDocument);
    expect(calls.map((call) => call.method)).toEqual(['GET', 'POST']);
  });

  it('stops trying GET by hash once the server says persisted queries are not supported', async () => {
    const { fetch, calls } = fakeFetch(
      { body: { errors: [{ message: 'PersistedQueryNotSupported', extensions: { code: 'PERSISTED_QUERY_NOT_SUPPORTED' } }] } },
      { body: { data: categoriesData } },
    );
    const client = createCalendarClient({ endpoint: ENDPOINT, fetch });

    await client.request(CategoriesDocument);
    await client.request(CategoriesDocument);

    expect(calls.map((call) => call.method)).toEqual(['GET', 'POST', 'POST']);
    expect(calls[1]!.body).toEqual({ query: CategoriesDocument, variables: {}, operationName: 'Categories' });
  });

  it('POSTs straight away when the GET URL would pass the length limit', async () => {
    const { fetch, calls } = fakeFetch({ body: { data: { events: null } } });
    const client = createCalendarClient({ endpoint: ENDPOINT, fetch });
    const venues = Array.from({ length: 150 }, (_, index) => `venue-number-${index}`);

    await client.request(EventsPageDocument, { filter: { venues } });

    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.body).toEqual({ query: EventsPageDocument, variables: { filter: { venues } }, operationName: 'EventsPage' });
  });

  it('takes the limit from maxGetUrlLength', async () => {
    const { fetch, calls } = fakeFetch({ body: { data: categoriesData } });
    await createCalendarClient({ endpoint: ENDPOINT, fetch, maxGetUrlLength: 100 }).request(CategoriesDocument);
    expect(calls[0]!.method).toBe('POST');
  });
});

describe('client: without WebCrypto (an http: page)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('POSTs every query, and says once in the console why persisted GETs are off', async () => {
    vi.stubGlobal('crypto', undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { fetch, calls } = fakeFetch({ body: { data: categoriesData } });

    for (const client of [createCalendarClient({ endpoint: ENDPOINT, fetch }), createCalendarClient({ endpoint: ENDPOINT, fetch })]) {
      await expect(client.request(CategoriesDocument)).resolves.toEqual(categoriesData);
      await expect(client.request(CategoriesDocument)).resolves.toEqual(categoriesData);
    }

    expect(calls.map((call) => call.method)).toEqual(['POST', 'POST', 'POST', 'POST']);
    expect(calls[0]!.body).toEqual({ query: CategoriesDocument, variables: {}, operationName: 'Categories' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/Persisted GET queries are off: this page has no WebCrypto .*https/);
  });
});

describe('client: operation name', () => {
  it('names the first top-level operation, after fragments, never a field called query', () => {
    expect(operationName(EventDetailDocument)).toBe('EventDetail');
    expect(operationName('fragment F on Search {\n  query\n  results { id }\n}\nquery Find($q: String) { search(q: $q) { ...F } }')).toBe('Find');
    expect(operationName('# query Commented\nquery Real { a(text: "query Quoted") }')).toBe('Real');
    expect(operationName('query ($id: ID) { a }')).toBeUndefined();
    expect(operationName('{ categories { id } }')).toBeUndefined();
  });
});

describe('client: errors and notices', () => {
  it('throws errors that come with partial data on 200, carrying errors, status and data', async () => {
    const errors = [{ message: 'Venue lookup failed', path: ['events', 'data', 0, 'venue'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }];
    const data = { events: { totalCount: 1, data: [{ id: 'E1', venue: null }] } };
    const { fetch } = fakeFetch({ body: { data, errors } });

    const failure = await createCalendarClient({ endpoint: ENDPOINT, fetch })
      .request(EventsPageDocument)
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(CalendarRequestError);
    const error = failure as CalendarRequestError;
    expect(error.status).toBe(200);
    expect(error.errors).toEqual(errors);
    expect(error.data).toEqual(data);
    expect(error.code).toBe('INTERNAL_SERVER_ERROR');
    expect(error.message).toBe('Venue lookup failed');
  });

  it('throws BAD_USER_INPUT with null data', async () => {
    const { fetch } = fakeFetch({ body: { data: null, errors: [{ message: 'page must be 0 or more', extensions: { code: 'BAD_USER_INPUT' } }] } });
    const error = (await createCalendarClient({ endpoint: ENDPOINT, fetch })
      .request(EventsPageDocument, { page: -1 })
      .catch((e: unknown) => e)) as CalendarRequestError;
    expect([error.code, error.status, error.data]).toEqual(['BAD_USER_INPUT', 200, null]);
  });

  it('surfaces 429 RATE_LIMITED like 503: a typed error with the seconds of Retry-After', async () => {
    const refusal = { errors: [{ message: 'This operation costs 12 points…', extensions: { code: 'RATE_LIMITED', cost: { requested: 12, remaining: 3, resetSeconds: 57 } } }] };
    const { fetch } = fakeFetch({ status: 429, body: refusal, headers: { 'Retry-After': '9' } });
    const error = (await createCalendarClient({ endpoint: ENDPOINT, fetch })
      .request(CategoriesDocument)
      .catch((e: unknown) => e)) as CalendarRequestError;
    expect(error).toBeInstanceOf(CalendarRequestError);
    expect([error.status, error.code, error.retryAfter]).toEqual([429, 'RATE_LIMITED', 9]);
    const unavailable = fakeFetch({ status: 503, body: { errors: [{ message: 'busy', extensions: { code: 'SERVICE_UNAVAILABLE' } }] }, headers: { 'Retry-After': '5' } });
    const busy = (await createCalendarClient({ endpoint: ENDPOINT, fetch: unavailable.fetch })
      .request(CategoriesDocument)
      .catch((e: unknown) => e)) as CalendarRequestError;
    expect([busy.status, busy.code, busy.retryAfter]).toEqual([503, 'SERVICE_UNAVAILABLE', 5]);
  });

  it('reports a body that is not JSON with its status', async () => {
    const { fetch } = fakeFetch({ status: 502, body: '<html>Bad gateway</html>' });
    const error = (await createCalendarClient({ endpoint: ENDPOINT, fetch })
      .request(CategoriesDocument)
      .catch((e: unknown) => e)) as CalendarRequestError;
    expect(error).toBeInstanceOf(CalendarRequestError);
    expect(error.status).toBe(502);
  });

  it('reports a network failure with status 0 and the cause', async () => {
    const cause = new TypeError('fetch failed');
    const error = (await createCalendarClient({ endpoint: ENDPOINT, fetch: () => Promise.reject(cause) })
      .request(CategoriesDocument)
      .catch((e: unknown) => e)) as CalendarRequestError;
    expect([error.status, error.cause]).toEqual([0, cause]);
  });

  it('passes an abort through untouched', async () => {
    const controller = new AbortController();
    const abort = new DOMException('aborted', 'AbortError');
    const fetch: FetchLike = () => {
      controller.abort();
      return Promise.reject(abort);
    };
    await expect(createCalendarClient({ endpoint: ENDPOINT, fetch }).request(CategoriesDocument, {}, { signal: controller.signal })).rejects.toBe(abort);
  });

  it('hands extensions.notice to onNotice and lastNotice, apart from data and errors', async () => {
    const notice = 'Unknown API key: handled as anonymous.';
    const { fetch } = fakeFetch({ body: { data: categoriesData, extensions: { notice } } }, { body: { data: categoriesData } });
    const notices: string[] = [];
    const client = createCalendarClient({ endpoint: ENDPOINT, fetch, apiKey: 'hsk_revoked', onNotice: (text) => notices.push(text) });

    await expect(client.request(CategoriesDocument)).resolves.toEqual(categoriesData);
    expect(notices).toEqual([notice]);
    expect(client.lastNotice).toBe(notice);

    await client.request(CategoriesDocument);
    expect(client.lastNotice).toBeNull();
    expect(notices).toHaveLength(1);
  });
});

describe('client: types', () => {
  it('types data from the document and checks variables', async () => {
    const { fetch } = fakeFetch({ body: { data: { events: null } } });
    const client = createCalendarClient({ endpoint: ENDPOINT, fetch });

    const page = await client.request(EventsPageDocument, { page: 0 });
    expectTypeOf(page).toEqualTypeOf<EventsPageQuery>();
    expectTypeOf(client.request(CategoriesDocument)).resolves.toEqualTypeOf<CategoriesQuery>();

    const typeOnly = () => {
      // @ts-expect-error `slug` is required by EventDetail.
      void client.request(EventDetailDocument);
      // @ts-expect-error `page` is an Int.
      void client.request(EventsPageDocument, { page: 'first' });
    };
    expect(typeof typeOnly).toBe('function');
  });
});
