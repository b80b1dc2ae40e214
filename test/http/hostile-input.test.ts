import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel } from '../support/test-database.js';
import { postGraphQL, startTestServer, type JsonResponse, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

let server: TestServer;

beforeAll(async () => {
  // A search term of 200 characters is matched approximately for seconds (docs/transport.md): these tests are
  // about what is refused, so a busy machine must not turn the one allowed into a 503 at the default 6 s.
  server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, env: { REQUEST_TIMEOUT_MS: '30000' } });
});
afterAll(async () => server?.close());

/** Nothing internal in any answer: no stack, no SQL, no file path, no driver message. */
function expectNothingInternal(res: JsonResponse): void {
  const text = JSON.stringify(res.body);
  expect(text).not.toMatch(/\n\s+at |\.ts:\d+|node_modules|select |SQLSTATE|22021|invalid byte sequence|call stack/i);
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** A POST body written as text: JSON.stringify itself cannot write values nested this deep. */
async function postText(url: string, text: string): Promise<JsonResponse> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  return { status: response.status, headers: response.headers, body: (await response.json()) as JsonResponse['body'] };
}

describe(`hostile input gets its proper 4xx, never a 500 (${databaseLabel})`, () => {
  it('refuses variables nested deeper than the limit with 400 BAD_REQUEST, even when they are unused', async () => {
    const depth = 45_000;
    const res = await postText(server.url, `{"query":"{ categories { id } }","variables":{"deep":${'['.repeat(depth)}1${']'.repeat(depth)}}}`);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.extensions?.['code']).toBe('BAD_REQUEST');
    expect(res.body.errors?.[0]?.message).toMatch(/nested deeper than 32 levels/);
    expectNothingInternal(res);
  });

  it('accepts variables nested within the limit', async () => {
    const res = await postGraphQL(server.url, { query: '{ categories { id } }', variables: { deep: nested(30) } });
    expect(res.status).toBe(200);
  });

  it('answers a mutation with 400 GRAPHQL_VALIDATION_FAILED: the API is read-only', async () => {
    for (const query of ['mutation { __typename }', 'subscription { __typename }']) {
      const res = await postGraphQL(server.url, { query });
      expect(res.status).toBe(400);
      expect(res.body.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(res.body.errors?.[0]?.message).toMatch(/read-only|no (mutation|subscription)/i);
      expect(res.body).not.toHaveProperty('data');
    }
  });

  it('answers a NUL character in a string argument with BAD_USER_INPUT and null data', async () => {
    const cases = [
      { query: 'query($s: String!) { eventBySlug(eventSlug: $s) { id } }', variables: { s: 'e-1\u0000' } },
      { query: '{ eventBySlug(eventSlug: "e\\u0000") { id } }' },
      { query: 'query($f: Filter) { events(filter: $f) { totalCount } }', variables: { f: { searchTerm: 'jazz\u0000' } } },
      { query: 'query($f: Filter) { events(filter: $f) { totalCount } }', variables: { f: { categories: ['CONCERT', '\u0000'] } } },
    ];
    for (const body of cases) {
      const res = await postGraphQL(server.url, body);
      expect(res.status).toBe(200);
      expect(res.body.data).toBeNull();
      expect(res.body.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(res.body.errors?.[0]?.message).toMatch(/NUL/);
      expectNothingInternal(res);
    }
  });

  it('refuses a search term over 200 characters as an invalid argument', async () => {
    const res = await postGraphQL(server.url, {
      query: 'query($f: Filter) { events(filter: $f) { totalCount } }',
      variables: { f: { searchTerm: 'a'.repeat(90_000) } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors?.[0]?.message).toBe('Query Arguments invalid');
    expect(res.body.errors?.[0]?.extensions?.['invalidArgs']).toEqual(['searchTerm']);
    const ok = await postGraphQL(server.url, {
      query: 'query($f: Filter) { events(filter: $f) { totalCount } }',
      variables: { f: { searchTerm: 'a'.repeat(200) } },
    });
    expect(ok.body.data).toEqual({ events: { totalCount: 0 } });
  });

  it('refuses list arguments longer than 100 entries as invalid arguments', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `slug-${i}`);
    const res = await postGraphQL(server.url, {
      query: 'query($f: Filter) { events(filter: $f) { totalCount } }',
      variables: { f: { venues: many, categories: many } },
    });
    expect(res.body.data).toBeNull();
    expect(res.body.errors?.[0]?.extensions?.['invalidArgs']).toEqual(['categories', 'venues']);
    const slugs = await postGraphQL(server.url, { query: 'query($s: [String]!) { eventsBySlugs(eventsSlugs: $s) { id } }', variables: { s: many } });
    expect(slugs.body.data).toBeNull();
    expect(slugs.body.errors?.[0]?.extensions?.['invalidArgs']).toEqual(['eventsSlugs']);
  });
});
