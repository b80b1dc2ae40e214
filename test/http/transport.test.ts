import { readFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema, getIntrospectionQuery } from 'graphql';
import { sql } from 'kysely';
import { CLIENT_HEADERS } from '../../src/http/cors.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/http/graphql-route.js';
import { DEFAULT_QUERY_LIMITS } from '../../src/plugins/use-query-limits.js';
import { databaseLabel } from '../support/test-database.js';
import { getGraphQL, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
});
afterAll(async () => server?.close());

const manifest = JSON.parse(readFileSync(new URL('../../generated/persisted-documents.json', import.meta.url), 'utf8')) as Record<string, string>;

const firstError = (body: { errors?: { message: string; extensions?: Record<string, unknown> }[] }) => {
  expect(body.errors).toHaveLength(1);
  return body.errors![0]!;
};

describe(`transport: POST and GET /graphQL (${databaseLabel})`, () => {
  it('runs a POSTed JSON query and answers JSON', async () => {
    const res = await postGraphQL(server.url, { query: '{ categories { id } }' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ data: { categories: [{ id: 'CONCERT' }, { id: 'THEATER' }] } });
  });

  it('runs variables and an operation name', async () => {
    const res = await postGraphQL(server.url, {
      query: 'query A { categories { id } } query B($slug: String!) { eventBySlug(eventSlug: $slug) { id } }',
      operationName: 'B',
      variables: { slug: 'e-2' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { eventBySlug: { id: 'E-2' } } });
  });

  it('runs the operation each request names, however many operations of one document ran before', async () => {
    // One document text (parsed once, cached), three operations asked in turn, by POST and by GET.
    const query = 'query Venues { venues { id } } query Categories { categories { id } } query Event { eventByID(eventID: "E-1") { id } }';
    const categories = { data: { categories: [{ id: 'CONCERT' }, { id: 'THEATER' }] } };
    expect((await postGraphQL(server.url, { query, operationName: 'Venues' })).body).toHaveProperty('data.venues');
    expect((await postGraphQL(server.url, { query, operationName: 'Categories' })).body).toEqual(categories);
    expect((await postGraphQL(server.url, { query, operationName: 'Event' })).body).toEqual({ data: { eventByID: { id: 'E-1' } } });
    expect((await getGraphQL(server.url, { query, operationName: 'Categories' })).body).toEqual(categories);
    expect((await postGraphQL(server.url, { query, operationName: 'Venues' })).body).toHaveProperty('data.venues');
  });

  it('runs a GET query that carries Service-Require-Preflight', async () => {
    const res = await getGraphQL(server.url, { query: 'query ($id: String!) { eventByID(eventID: $id) { id } }', variables: { id: 'E-1' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { eventByID: { id: 'E-1' } } });
  });

  it('answers application/graphql-response+json to a client that asks for it', async () => {
    const res = await postGraphQL(server.url, { query: '{ __typename }' }, { accept: 'application/graphql-response+json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect(res.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('answers 400 to a request without a query', async () => {
    const res = await postGraphQL(server.url, { variables: {} });
    expect(res.status).toBe(400);
    expect(firstError(res.body).extensions?.['code']).toBe('BAD_REQUEST');
  });

  it.each([
    ['query', 42],
    ['operationName', { a: 1 }],
    ['variables', '{"a":1}'],
    ['extensions', ['x']],
  ])('answers 400 when %s has the wrong type', async (name, value) => {
    const res = await postGraphQL(server.url, { query: '{ __typename }', [name]: value });
    expect(res.status).toBe(400);
    expect(firstError(res.body)).toMatchObject({ message: expect.stringContaining(`"${name}"`), extensions: { code: 'BAD_REQUEST' } });
  });

  it('takes null parameters as absent', async () => {
    const res = await postGraphQL(server.url, { query: '{ __typename }', variables: null, operationName: null, extensions: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe(`errors table (${databaseLabel})`, () => {
  it('body not valid JSON → 400 with one error "Malformed JSON body"', async () => {
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{ "query": ' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as { errors: { message: string }[] };
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]!.message).toBe('Malformed JSON body');
  });

  it('GET without the preflight header → 400, BAD_REQUEST, a message about CSRF', async () => {
    const res = await getGraphQL(server.url, { query: '{ __typename }' }, {});
    expect(res.status).toBe(400);
    const error = firstError(res.body);
    expect(error.extensions?.['code']).toBe('BAD_REQUEST');
    expect(error.message).toContain('CSRF');
  });

  it('syntax error → 400, GRAPHQL_PARSE_FAILED', async () => {
    const res = await postGraphQL(server.url, { query: '{ categories { id }' });
    expect(res.status).toBe(400);
    expect(firstError(res.body).extensions?.['code']).toBe('GRAPHQL_PARSE_FAILED');
    expect(res.body).not.toHaveProperty('data');
  });

  it.each([
    ['an unknown field', '{ categories { id colour } }', 'colour'],
    ['an unknown argument', '{ events(perPage: 5) { totalCount } }', 'perPage'],
    ['a value of the wrong type', '{ events(page: "first") { totalCount } }', 'argument "page" of field "events"'],
    ['a nested value of the wrong type', '{ events(filter: { fromDate: 2026 }) { totalCount } }', 'argument "filter.fromDate" of field "events"'],
  ])('validation failure (%s) → 400, GRAPHQL_VALIDATION_FAILED, naming it', async (_what, query, name) => {
    const res = await postGraphQL(server.url, { query });
    expect(res.status).toBe(400);
    const error = firstError(res.body);
    expect(error.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(error.message).toContain(name);
  });

  it.each([
    ['a negative page', '{ events(page: -1) { totalCount } }', ['page']],
    ['a page size of 0', '{ events(pageSize: 0) { totalCount } }', ['pageSize']],
    ['an unparseable date', '{ events(filter: { fromDate: "next tuesday" }) { totalCount } }', ['fromDate']],
  ])('invalid argument value (%s) → 200, data null, "Query Arguments invalid" with invalidArgs', async (_what, query, invalidArgs) => {
    const res = await postGraphQL(server.url, { query });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(firstError(res.body)).toMatchObject({ message: 'Query Arguments invalid', extensions: { code: 'BAD_USER_INPUT', invalidArgs } });
  });

  it('a variable that cannot be coerced → 200 for application/json, 400 for application/graphql-response+json', async () => {
    const body = { query: 'query ($page: Int!) { events(page: $page) { totalCount } }', variables: { page: 'first' } };
    const json = await postGraphQL(server.url, body);
    expect(json.status).toBe(200);
    expect(firstError(json.body)).toMatchObject({ message: expect.stringContaining('$page'), extensions: { code: 'BAD_USER_INPUT' } });
    expect(json.body).not.toHaveProperty('data');
    const modern = await postGraphQL(server.url, body, { accept: 'application/graphql-response+json' });
    expect(modern.status).toBe(400);
  });

  it('failure inside a resolver → 200, data with null at the failed field, an error without internals', async () => {
    // A real failure: the events table is away while the query runs (slugs are looked up in it;
    // the categories come from the read model, built before).
    await postGraphQL(server.url, { query: '{ categories { id } }' });
    await sql`alter table events rename to events_away`.execute(server.database.db);
    try {
      const res = await postGraphQL(server.url, { query: '{ categories { id } eventBySlug(eventSlug: "anything") { id } }' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ categories: [{ id: 'CONCERT' }, { id: 'THEATER' }], eventBySlug: null });
      const error = firstError(res.body);
      expect(error).toMatchObject({ path: ['eventBySlug'], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      const text = JSON.stringify(res.body);
      expect(text).not.toMatch(/events_away|relation|select|stack|at .*\.ts/i);
    } finally {
      await sql`alter table events_away rename to events`.execute(server.database.db);
    }
  });

  it('an unknown path → 404 with a JSON error', async () => {
    const response = await fetch(`${server.origin}/graphql/v2`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: 'NOT_FOUND' } }] });
  });

  it('another method → 405 with a JSON error and Allow', async () => {
    const response = await fetch(server.url, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: 'METHOD_NOT_ALLOWED' } }] });
  });
});

describe('CSRF rules', () => {
  it.each([
    ['text/plain', 'text/plain;charset=UTF-8'],
    ['a form type', 'application/x-www-form-urlencoded'],
    ['multipart form data', 'multipart/form-data; boundary=x'],
  ])('refuses a POST sent as %s like a GET without the header', async (_what, contentType) => {
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': contentType }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('BAD_REQUEST');
    expect(body.errors[0]!.message).toContain('CSRF');
  });

  it('refuses a POST without a content type', async () => {
    const response = await fetch(server.url, { method: 'POST', body: new Uint8Array(Buffer.from('{"query":"{ __typename }"}')) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: { message: string }[] }).errors[0]!.message).toContain('CSRF');
  });

  it('answers 415 to a POST of another, non-simple content type', async () => {
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/graphql' }, body: '{ __typename }' });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }] });
  });

  it('refuses a GET whose preflight header is empty', async () => {
    const res = await getGraphQL(server.url, { query: '{ __typename }' }, { 'service-require-preflight': ' ' });
    expect(res.status).toBe(400);
    expect(firstError(res.body).message).toContain('CSRF');
  });

  it('never runs anything but a query over GET', async () => {
    const res = await getGraphQL(server.url, { query: 'mutation { __typename }' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).not.toHaveProperty('data');
  });
});

describe('CORS', () => {
  it('answers a preflight from any origin with the methods, every client header and a max-age', async () => {
    const response = await fetch(server.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://some-newspaper.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-api-key,x-page-url,x-client-id,service-require-preflight',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    const allowed = response.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
    for (const header of ['Content-Type', 'X-Api-Key', 'X-Page-Url', 'X-Client-Id', 'Service-Require-Preflight']) {
      expect(allowed).toContain(header.toLowerCase());
    }
    expect(CLIENT_HEADERS).toContain('Service-Require-Preflight');
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThanOrEqual(3600);
  });

  it('also allows other headers a generic client asks for', async () => {
    const response = await fetch(server.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'apollographql-client-name' },
    });
    expect(response.headers.get('access-control-allow-headers')).toContain('apollographql-client-name');
  });

  it('allows every origin on answers, errors included, and exposes ETag', async () => {
    const ok = await postGraphQL(server.url, { query: '{ __typename }' }, { origin: 'https://a.example' });
    const failed = await postGraphQL(server.url, { query: '{ nope }' }, { origin: 'https://b.example' });
    for (const res of [ok, failed]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toBe('ETag, X-Request-Id');
    }
  });

  it('puts CORS and the request id on every answer once, however its route writes it', async () => {
    const hitPath = `/graphQL?query=${encodeURIComponent('{ categories { id } }')}`;
    const preflight = { 'service-require-preflight': 'true' };
    const first = await fetch(new URL(hitPath, server.origin), { headers: preflight });
    const etag = first.headers.get('etag')!;
    const asked: [string, string, RequestInit][] = [
      ['a cached GET', hitPath, { headers: preflight }],
      ['a 304', hitPath, { headers: { ...preflight, 'if-none-match': etag } }],
      ['a HEAD', hitPath, { method: 'HEAD', headers: preflight }],
      ['a CSRF refusal', hitPath, {}],
      ['a 404', '/no/such/path', {}],
      ['a 405', '/graphQL', { method: 'PUT' }],
      ['a 413', '/graphQL', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(DEFAULT_MAX_BODY_BYTES + 1) }],
      ['the preflight', '/graphQL', { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' } }],
      ['the sandbox page', '/graphQL', { headers: { accept: 'text/html' } }],
      ['the schema file', '/schema.graphql', {}],
      ['the liveness probe', '/health', {}],
      ['the feed', '/events.ics', {}],
    ];
    for (const [what, path, init] of asked) {
      const response = await fetch(new URL(path, server.origin), init);
      expect(response.status, what).toBeLessThan(500);
      expect(response.headers.get('access-control-allow-origin'), what).toBe('*');
      expect(response.headers.get('access-control-expose-headers'), what).toBe('ETag, X-Request-Id');
      // One value each: written once, not once per way of setting it (fetch joins repeated headers with ", ").
      expect(response.headers.get('x-request-id'), what).toMatch(/^[0-9a-f-]{36}$/);
      await response.arrayBuffer();
    }
    // A target no URL parser reads (a host with a bad port) has no route: a 404, not a failure.
    const odd = await new Promise<IncomingMessage>((resolve, reject) => {
      request(new URL(server.origin), { path: '//a:b/graphQL' }, (res) => resolve(res.resume()))
        .on('error', reject)
        .end();
    });
    expect(odd.statusCode).toBe(404);
    expect(odd.headers['access-control-allow-origin']).toBe('*');
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('sandbox, schema file and health', () => {
  it('gives a browser (Accept: text/html) the GraphiQL sandbox, all from our own origin', async () => {
    const response = await fetch(server.url, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((s) => !s.startsWith('data:'));
    expect(sources.length).toBeGreaterThanOrEqual(5);
    for (const source of sources) {
      expect(source.startsWith('/sandbox/')).toBe(true);
      const asset = await fetch(new URL(source, server.origin));
      expect(asset.status, source).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
    }
    expect(html).toContain('query UpcomingEvents');
  });

  it('gives JSON to the same GET when JSON is asked for, or anything', async () => {
    for (const accept of ['application/json', '*/*', 'application/graphql-response+json, application/json']) {
      const res = await getGraphQL(server.url, { query: '{ __typename }' }, { accept, 'service-require-preflight': 'true' });
      expect(res.status, accept).toBe(200);
      expect(res.body).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it('publishes the schema file the executable schema is built from', async () => {
    const response = await fetch(`${server.origin}/schema.graphql`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text).toBe(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
    expect(buildSchema(text).getQueryType()?.getFields()).toHaveProperty('events');
    const again = await fetch(`${server.origin}/schema.graphql`, { headers: { 'if-none-match': response.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('answers /health and /ready with JSON', async () => {
    const health = await fetch(`${server.origin}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.origin}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'reachable', schema: 'current' });
  });
});

describe('HEAD wherever GET is supported', () => {
  /** The headers of an answer, less those that differ between two answers of one resource (date, request id). */
  const comparable = (headers: Headers) => {
    const kept: Record<string, string> = {};
    headers.forEach((value, name) => {
      if (!['date', 'connection', 'keep-alive', 'x-request-id', 'traceparent'].includes(name)) kept[name] = value;
    });
    // `max-age` counts down what remains of a cached answer: it may differ by a second.
    if (kept['cache-control']) kept['cache-control'] = kept['cache-control'].replace(/\d+/g, 'N');
    return kept;
  };

  const preflight = { 'service-require-preflight': 'true' };
  const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
  const graphqlGet = (params: Record<string, unknown>) => {
    const url = new URL(server.url);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    return url.href;
  };

  it.each([
    ['/health', () => `${server.origin}/health`, {}],
    ['/ready', () => `${server.origin}/ready`, {}],
    ['/schema.graphql', () => `${server.origin}/schema.graphql`, {}],
    ['/graphQL GET query', () => graphqlGet({ query: '{ categories { id } }' }), preflight],
    ['/graphQL GET by persisted hash', () => graphqlGet({ extensions: { persistedQuery: { version: 1, sha256Hash: Object.keys(manifest)[0]!.slice(7) } } }), preflight],
    ['/graphQL GET without the preflight header (400)', () => graphqlGet({ query: '{ categories { id } }' }), {}],
    ['/graphQL sandbox page', () => server.url, html],
    ['/widget', () => `${server.origin}/widget`, {}],
    ['/widget/widget.js', () => `${server.origin}/widget/widget.js`, {}],
  ] as const)('%s: same status and headers as GET, no body', async (_name, target, headers) => {
    const get = await fetch(target(), { headers });
    const getBody = await get.arrayBuffer();
    const head = await fetch(target(), { method: 'HEAD', headers });
    expect(head.status).toBe(get.status);
    expect(comparable(head.headers)).toEqual(comparable(get.headers));
    expect(Number(head.headers.get('content-length') ?? getBody.byteLength)).toBe(getBody.byteLength);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves the sandbox files to HEAD too', async () => {
    const page = await (await fetch(server.url, { headers: html })).text();
    const asset = new URL(/src="([^"]+\.js)"/.exec(page)![1]!, server.origin).href;
    const get = await fetch(asset);
    await get.arrayBuffer();
    const head = await fetch(asset, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(comparable(head.headers)).toEqual(comparable(get.headers));
  });

  it('answers 304 to a HEAD whose If-None-Match matches, as to GET', async () => {
    const first = await fetch(`${server.origin}/schema.graphql`, { method: 'HEAD' });
    const again = await fetch(`${server.origin}/schema.graphql`, { method: 'HEAD', headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('answers a HEAD of an unknown path 404 without a body', async () => {
    const head = await fetch(`${server.origin}/nothing-here`, { method: 'HEAD' });
    expect(head.status).toBe(404);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('lists HEAD in Allow when a method is not allowed', async () => {
    const response = await fetch(`${server.origin}/health`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('protective limits', () => {
  it(`refuses a body over ${DEFAULT_MAX_BODY_BYTES} bytes with 413`, async () => {
    const padding = ' '.repeat(DEFAULT_MAX_BODY_BYTES);
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"query":"{ __typename }${padding}"}` });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: 'PAYLOAD_TOO_LARGE', maxBodyBytes: DEFAULT_MAX_BODY_BYTES } }] });
  });

  it(`refuses a query deeper than ${DEFAULT_QUERY_LIMITS.maxDepth}`, async () => {
    const nested = (depth: number): string => (depth === 0 ? 'id' : `id subCategories { ${nested(depth - 1)} }`);
    const res = await postGraphQL(server.url, { query: `{ categories { ${nested(DEFAULT_QUERY_LIMITS.maxDepth)} } }` });
    expect(res.status).toBe(400);
    expect(firstError(res.body)).toMatchObject({ message: expect.stringMatching(/depth limit of 10/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'depth' } });
    const allowed = await postGraphQL(server.url, { query: `{ categories { ${nested(DEFAULT_QUERY_LIMITS.maxDepth - 2)} } }` });
    expect(allowed.status).toBe(200);
  });

  it(`refuses more than ${DEFAULT_QUERY_LIMITS.maxAliases} aliases`, async () => {
    const aliases = Array.from({ length: DEFAULT_QUERY_LIMITS.maxAliases + 1 }, (_, i) => `a${i}: categories { id }`).join(' ');
    const res = await postGraphQL(server.url, { query: `{ ${aliases} }` });
    expect(res.status).toBe(400);
    expect(firstError(res.body)).toMatchObject({ message: expect.stringMatching(/Aliases limit/i), extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'aliases' } });
  });

  it(`refuses more than ${DEFAULT_QUERY_LIMITS.maxTokens} tokens`, async () => {
    const fields = Array.from({ length: DEFAULT_QUERY_LIMITS.maxTokens }, () => '__typename').join(' ');
    const res = await postGraphQL(server.url, { query: `{ ${fields} }` });
    expect(res.status).toBe(400);
    expect(firstError(res.body)).toMatchObject({ message: expect.stringMatching(/Token limit of 1000/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'tokens' } });
  });

  it('refuses a pageSize over 1000 as an invalid argument', async () => {
    const res = await postGraphQL(server.url, { query: '{ events(pageSize: 1001) { totalCount } }' });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(firstError(res.body)).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', invalidArgs: ['pageSize'] } });
  });

  it('lets the standard introspection query through (GraphiQL, codegen)', async () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true });
    const res = await postGraphQL(server.url, { query });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toHaveProperty('__schema.queryType.name', 'Query');
  });

  it('lets every trusted operation in queries/ through', async () => {
    const variables = { slug: 'e-1', id: 'E-1', slugs: ['e-1'], minLatitude: 59, maxLatitude: 61, minLongitude: 10, maxLongitude: 11, prefix: 'kon' };
    for (const query of Object.values(manifest)) {
      const res = await postGraphQL(server.url, { query, variables });
      expect(res.status, query.slice(0, 40)).toBe(200);
      expect(res.body.errors, query.slice(0, 40)).toBeUndefined();
    }
  });
});
