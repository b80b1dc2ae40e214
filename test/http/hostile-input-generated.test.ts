import { request as httpRequest } from 'node:http';
import { buildClientSchema, getIntrospectionQuery, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel } from '../support/test-database.js';
import { postGraphQL, startTestServer, type GraphQLBody, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';
import { stringSlots, type StringSlot } from './hostile-input-operations.js';
import { HOSTILE_STRINGS, NUL_PAYLOADS } from './hostile-input-payloads.js';
import { mulberry32 } from '../../src/demo/seeded-random.js';

/**
 * Thousands of hostile requests against the whole service (issue 16, "What already holds"): every
 * string argument of the schema (generated from the introspected schema, so a new argument is covered
 * without editing this file) with SQL-injection payloads, LIKE/regex metacharacters, lone surrogates,
 * NUL and long strings, as variables and as literals; then request shapes: invalid JSON, big bodies,
 * deep nesting, aliases, fragment cycles and explosions, directives, huge variable lists, batches,
 * extreme numbers, long URLs, header floods and random or mutated documents.
 *
 * Every answer must be: not a 5xx; within a deadline (no hang); JSON with codes the case allows; free
 * of anything internal (stack, SQL text, file paths, driver messages), once the caller's own input
 * echoed in a message is left out.
 */

const CONCURRENCY = 8;
/** A request that takes longer has hung (the service's own request deadline is 6 s). */
const HANG_MS = 15_000;

let server: TestServer;
let slots: StringSlot[];

beforeAll(async () => {
  server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
  const introspection = await postGraphQL(server.url, { query: getIntrospectionQuery() });
  const schema: GraphQLSchema = buildClientSchema(introspection.body.data as unknown as IntrospectionQuery);
  slots = stringSlots(schema);
});
afterAll(async () => server?.close());

interface Answer {
  status: number;
  text: string;
  body: GraphQLBody | undefined;
}

interface Allowed {
  statuses: readonly number[];
  /** `extensions.code` values errors may carry; an empty list: no errors at all. */
  codes: readonly string[];
  /** Status codes whose answer may have no JSON body (Node answers 431 and 414 itself). */
  bare?: readonly number[];
}

/** A request of the suite: what to send, what is allowed back, and what the caller put in (echoes allowed). */
interface Case {
  label: string;
  send: () => Promise<Answer>;
  allowed: Allowed;
  echoes?: readonly string[];
}

const INTERNAL = [
  /\n\s+at /,
  /\bat (?:async )?[\w.$<>]+ \(/,
  /\.(?:ts|js|mjs|cjs):\d+/,
  /node_modules/,
  /\/(?:work|home|tmp|usr|src)\//,
  /SQLSTATE|syntax error at or near|relation "|column "|violates|pg_catalog|invalid byte sequence|unterminated quoted/i,
  /Kysely|PGlite|ECONNREFUSED|TypeError|ReferenceError|RangeError|call stack/,
];

async function toAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: GraphQLBody | undefined;
  try {
    body = text === '' ? undefined : (JSON.parse(text) as GraphQLBody);
  } catch {
    body = undefined;
  }
  return { status: response.status, text, body };
}

const post = (body: string, headers: Record<string, string> = {}) => async () =>
  toAnswer(await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, signal: AbortSignal.timeout(HANG_MS) }));

const postJson = (value: unknown, headers: Record<string, string> = {}) => post(JSON.stringify(value), headers);

const get = (params: Record<string, string>, headers: Record<string, string> = { 'service-require-preflight': 'true' }) => async () => {
  const url = new URL(server.url);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return toAnswer(await fetch(url, { headers, signal: AbortSignal.timeout(HANG_MS) }));
};

/** What is wrong with an answer, or null. */
function problem(c: Case, answer: Answer): string | null {
  const { status, body } = answer;
  if (status >= 500) return `status ${status}: ${answer.text.slice(0, 300)}`;
  if (!c.allowed.statuses.includes(status)) return `status ${status}, allowed ${c.allowed.statuses.join('/')}: ${answer.text.slice(0, 300)}`;
  if (!body) return c.allowed.bare?.includes(status) ? null : `not JSON: ${answer.text.slice(0, 200)}`;
  const codes = (body.errors ?? []).map((e) => String(e.extensions?.['code']));
  const unexpected = codes.filter((code) => !c.allowed.codes.includes(code));
  if (unexpected.length > 0) return `codes ${unexpected.join(', ')}: ${answer.text.slice(0, 300)}`;
  // The caller's own input may come back in a message (a value that failed validation): not a leak.
  let text = answer.text;
  for (const echo of c.echoes ?? []) {
    for (const form of [echo, JSON.stringify(echo).slice(1, -1), JSON.stringify(JSON.stringify(echo)).slice(1, -1)]) {
      if (form.length > 0) text = text.split(form).join('');
    }
  }
  const leak = INTERNAL.find((pattern) => pattern.test(text));
  return leak ? `internal detail (${leak}): ${text.slice(0, 300)}` : null;
}

/** Runs the cases with bounded concurrency; returns every failure with its case. */
async function runAll(cases: readonly Case[]): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      const started = performance.now();
      try {
        const found = problem(c, await c.send());
        if (found) failures.push(`${c.label}: ${found}`);
      } catch (error) {
        failures.push(`${c.label}: no answer after ${Math.round(performance.now() - started)} ms (${(error as Error).message})`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return failures;
}

const ANY_DATA_OR_BAD_INPUT: Allowed = { statuses: [200], codes: ['BAD_USER_INPUT'] };
// A literal may fail to parse (a lone surrogate escape is not a GraphQL string): 400 then.
const LITERAL: Allowed = { statuses: [200, 400], codes: ['BAD_USER_INPUT', 'GRAPHQL_PARSE_FAILED'] };
const REFUSED_DOCUMENT: Allowed = { statuses: [400], codes: ['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED'] };
const BAD_REQUEST: Allowed = { statuses: [400], codes: ['BAD_REQUEST'] };

/** A seeded generator, so that a failure can be replayed. */
const random = mulberry32;

describe(`hostile input, thousands of requests generated from the schema (${databaseLabel})`, () => {
  it('finds every string argument of the schema, root fields, Filter fields and nested fields alike', () => {
    const labels = slots.map((s) => s.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        'Query.eventByID(eventID)',
        'Query.eventBySlug(eventSlug)',
        'Query.eventsBySlugs(eventsSlugs)',
        'Query.eventByTitle(title)',
        'Query.eventByTitle(lan)',
        'Query.events(filter.searchTerm)',
        'Query.events(filter.fromDate)',
        'Query.events(filter.hoursRange)',
        'Query.events(filter.postalCodes)',
        // An argument of a field below the root, through each path of fields that need no argument.
        'Query.events.data.jsonLd(lan)',
        'Query.allUpcomingSuperEvents.jsonLd(lan)',
      ]),
    );
    expect(labels.length).toBeGreaterThanOrEqual(22);
  });

  it('answers a hostile string in every string argument with data or BAD_USER_INPUT, never a failure', async () => {
    // Every string as a variable; every third one inlined too (the literal path is the parser's,
    // shared by all arguments), which keeps the test within seconds on a busy machine.
    const cases: Case[] = slots.flatMap((slot) =>
      HOSTILE_STRINGS.flatMap((value, i): Case[] => [
        { label: `${slot.label} variable #${i}`, send: postJson(slot.operation(value, 'variable')), allowed: ANY_DATA_OR_BAD_INPUT, echoes: [value] },
        ...(i % 3 === 0 ? [{ label: `${slot.label} literal #${i}`, send: postJson(slot.operation(value, 'literal')), allowed: LITERAL, echoes: [value] }] : []),
      ]),
    );
    expect(cases.length).toBeGreaterThan(4_000);
    expect(await runAll(cases)).toEqual([]);
    // 45 slots since `suggest` (its prefix and a Filter of its own): about 5 900 requests, 40–60 s on a
    // busy machine of two cores, which the default 60 s did not always cover.
  }, 180_000);

  it('refuses NUL in every string argument with BAD_USER_INPUT and null data', async () => {
    const answers: { label: string; body: GraphQLBody | undefined }[] = [];
    const cases: Case[] = slots.flatMap((slot) =>
      NUL_PAYLOADS.flatMap((value, i): Case[] =>
        (['variable', 'literal'] as const).map((form) => {
          const label = `${slot.label} ${form} NUL #${i}`;
          const send = postJson(slot.operation(value, form));
          return {
            label,
            send: async () => {
              const answer = await send();
              answers.push({ label, body: answer.body });
              return answer;
            },
            allowed: { statuses: [200], codes: ['BAD_USER_INPUT'] },
            echoes: [value],
          };
        }),
      ),
    );
    expect(await runAll(cases)).toEqual([]);
    const notRefused = answers.filter((a) => a.body?.data !== null || !/NUL/.test(a.body?.errors?.[0]?.message ?? '')).map((a) => a.label);
    expect(notRefused).toEqual([]);
  });

  it('answers hostile strings sent in a GET URL the same way', async () => {
    const searchTerm = slots.find((s) => s.label === 'Query.events(filter.searchTerm)')!;
    const cases: Case[] = HOSTILE_STRINGS.filter((value) => value.length < 2_000).map((value, i) => {
      const { query, variables } = searchTerm.operation(value, 'variable');
      return { label: `GET searchTerm #${i}`, send: get({ query, variables: JSON.stringify(variables) }), allowed: ANY_DATA_OR_BAD_INPUT, echoes: [value] };
    });
    expect(await runAll(cases)).toEqual([]);
  });

  it('answers malformed bodies and parameters with 400 BAD_REQUEST', async () => {
    const bodies = ['{', '{"query":', '', ' ', 'null', '[]', '"text"', '123', 'true', '{"query": "{ categories { id } }",}', '\uFEFF{"query":"{ __typename }"}', "{'query': '{ __typename }'}", '{"query": "{ __typename }"} trailing', '\u0000'];
    const params = [{ query: 1 }, { query: ['{ __typename }'] }, { query: '{ __typename }', variables: 'x' }, { query: '{ __typename }', variables: [] }, { query: '{ __typename }', operationName: 5 }, { query: '{ __typename }', extensions: 1 }, {}, { query: null }];
    const batches = [[{ query: '{ __typename }' }, { query: '{ __typename }' }], Array.from({ length: 1_000 }, () => ({ query: '{ categories { id } }' }))];
    const cases: Case[] = [
      ...bodies.map((body, i) => ({ label: `body #${i}`, send: post(body), allowed: BAD_REQUEST })),
      ...params.map((value, i) => ({ label: `parameters #${i}`, send: postJson(value), allowed: BAD_REQUEST })),
      ...batches.map((value, i) => ({ label: `batch #${i}`, send: postJson(value), allowed: BAD_REQUEST })),
      { label: 'unknown operation name', send: postJson({ query: 'query A { __typename }', operationName: 'B' }), allowed: BAD_REQUEST },
      { label: 'two operations, no name', send: postJson({ query: 'query A { __typename } query B { __typename }' }), allowed: BAD_REQUEST },
      { label: 'GET without the preflight header', send: get({ query: '{ __typename }' }, {}), allowed: BAD_REQUEST },
      { label: 'GET with broken variables', send: get({ query: '{ __typename }', variables: '{' }), allowed: BAD_REQUEST },
      // A "simple" content type is what a cross-site form can send: refused as CSRF before its media type.
      { label: 'text/plain body', send: post('{"query":"{ __typename }"}', { 'content-type': 'text/plain' }), allowed: BAD_REQUEST },
      { label: 'form body', send: post('query=%7B__typename%7D', { 'content-type': 'application/x-www-form-urlencoded' }), allowed: BAD_REQUEST },
      { label: 'XML body', send: post('<query/>', { 'content-type': 'application/xml' }), allowed: { statuses: [415], codes: ['UNSUPPORTED_MEDIA_TYPE'] } },
      { label: 'variables nested 10 000 deep', send: post(`{"query":"{ __typename }","variables":{"v":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`), allowed: BAD_REQUEST },
      { label: 'extensions nested 10 000 deep', send: post(`{"query":"{ __typename }","extensions":{"v":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}}`), allowed: BAD_REQUEST },
    ];
    expect(await runAll(cases)).toEqual([]);
  });

  it('refuses bodies over the limit with 413, whether declared or only sent', async () => {
    const declaredOnly = (): Promise<Answer> =>
      new Promise((resolve, reject) => {
        // Declares 100 MB, sends 1 kB: the answer must come at once, from the declaration.
        const req = httpRequest(server.url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) } }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, body: JSON.parse(text) as GraphQLBody }));
        });
        req.setTimeout(HANG_MS, () => req.destroy(new Error('timed out')));
        req.on('error', reject);
        req.write('{"query":"' + 'a'.repeat(1024));
      });
    const cases: Case[] = [
      { label: '10 000 aliases', send: postJson({ query: `{ ${Array.from({ length: 10_000 }, (_, i) => `a${i}: __typename`).join(' ')} }` }), allowed: { statuses: [413], codes: ['PAYLOAD_TOO_LARGE'] } },
      { label: '200 kB query', send: postJson({ query: `{ __typename }${' '.repeat(200_000)}` }), allowed: { statuses: [413], codes: ['PAYLOAD_TOO_LARGE'] } },
      { label: '2 MB variables', send: postJson({ query: '{ __typename }', variables: { v: 'x'.repeat(2_000_000) } }), allowed: { statuses: [413], codes: ['PAYLOAD_TOO_LARGE'] } },
      { label: '100 000 slugs', send: postJson({ query: 'query($s: [String]!) { eventsBySlugs(eventsSlugs: $s) { id } }', variables: { s: Array.from({ length: 100_000 }, (_, i) => `e-${i}`) } }), allowed: { statuses: [413], codes: ['PAYLOAD_TOO_LARGE'] } },
      { label: '100 MB declared', send: declaredOnly, allowed: { statuses: [413], codes: ['PAYLOAD_TOO_LARGE'] } },
    ];
    expect(await runAll(cases)).toEqual([]);
  });

  it('refuses documents over the limits (depth, aliases, tokens, directives, fragments) with 400', async () => {
    const explosion = Array.from({ length: 21 }, (_, i) => (i === 0 ? 'fragment F0 on Query { __typename }' : `fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }`)).join(' ');
    const wide = Array.from({ length: 20 }, (_, i) => `fragment W${i} on Query { ${Array.from({ length: 20 }, (_, j) => `a${j}: __typename`).join(' ')} }`).join(' ');
    const documents = [
      // Depth 5 000 (the schema has no cycle to nest fields through: nested fragments instead).
      `{ ${'... on Query { '.repeat(5_000)}__typename${' }'.repeat(5_000)} }`,
      `{ ${'events { data { '.repeat(1)}${'... on Event { '.repeat(2_000)}id${' }'.repeat(2_000)} } } }`,
      `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: categories { id }`).join(' ')} }`,
      // 5 000 aliases (10 000 do not fit in the 100 kB body: 413, below).
      `{ ${Array.from({ length: 5_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
      'fragment A on Query { ...B } fragment B on Query { ...A } { ...A }',
      'fragment A on Query { ...A } { ...A }',
      `${explosion} { ...F20 }`,
      `${wide} { ${Array.from({ length: 20 }, (_, i) => `...W${i}`).join(' ')} }`,
      `{ __typename ${'@include(if: true) '.repeat(5_000)}}`,
      `{ __typename ${'@skip(if: false) '.repeat(21)}}`,
      `query(${Array.from({ length: 5_000 }, (_, i) => `$v${i}: String`).join(', ')}) { __typename }`,
      `{ events(filter: { categories: [${Array.from({ length: 5_000 }, () => '"CONCERT"').join(', ')}] }) { totalCount } }`,
      'mutation { __typename }',
      'subscription { __typename }',
      '{ nope }',
      '{ events { nope } }',
      '{ events(nope: 1) { totalCount } }',
      '{ events(page: 2147483648) { totalCount } }',
      '{ events(page: "0") { totalCount } }',
      '{ events { data } }',
      '{ categories { id } } garbage',
      '{',
      '}}}}}}',
      '"unterminated',
      '{ __typename(a: "\\u{110000}") }',
    ];
    const cases: Case[] = documents.map((query, i) => ({ label: `document #${i}`, send: postJson({ query }), allowed: REFUSED_DOCUMENT }));
    expect(await runAll(cases)).toEqual([]);
  });

  it('answers extreme numbers and huge lists as data or BAD_USER_INPUT', async () => {
    const EVENTS = 'query($p: Int, $s: Int, $f: Filter) { events(page: $p, pageSize: $s, filter: $f) { totalCount hasMore data { id } } }';
    const AREA = 'query($a: Float, $b: Float, $c: Float, $d: Float) { allUpcomingEventsInArea(minLatitude: $a, maxLatitude: $b, minLongitude: $c, maxLongitude: $d) { id } }';
    const ints = [0, 1, -1, 1_000, 1_001, 2_147_483_647, -2_147_483_648, 2_147_483_648, 1e20, 0.5];
    const floats = [0, -90, 90, -180, 180, 1e308, -1e308, 5e-324, 1e-7];
    const near = [{ latitude: 91, longitude: 0, radiusKm: 1 }, { latitude: 0, longitude: 181, radiusKm: 1 }, { latitude: 59.9, longitude: 10.7, radiusKm: 1e308 }, { latitude: 59.9, longitude: 10.7, radiusKm: -1 }, { latitude: 59.9, longitude: 10.7, radiusKm: 0 }];
    // Values GraphQL cannot coerce (Int over 2^31 - 1, fractions) are refused while coercing variables: 200 without data.
    const cases: Case[] = [
      ...ints.flatMap((n): Case[] => [
        { label: `page ${n}`, send: postJson({ query: EVENTS, variables: { p: n } }), allowed: ANY_DATA_OR_BAD_INPUT },
        { label: `pageSize ${n}`, send: postJson({ query: EVENTS, variables: { s: n } }), allowed: ANY_DATA_OR_BAD_INPUT },
      ]),
      ...floats.flatMap((x): Case[] => [
        { label: `area edge ${x}`, send: postJson({ query: AREA, variables: { a: -x, b: x, c: -x, d: x } }), allowed: ANY_DATA_OR_BAD_INPUT },
        { label: `area inverted ${x}`, send: postJson({ query: AREA, variables: { a: x, b: -x, c: 0, d: 0 } }), allowed: ANY_DATA_OR_BAD_INPUT },
      ]),
      ...near.map((n, i): Case => ({ label: `near #${i}`, send: postJson({ query: EVENTS, variables: { f: { near: n } } }), allowed: ANY_DATA_OR_BAD_INPUT })),
      { label: 'page 2^31 - 1 with the largest page size', send: postJson({ query: EVENTS, variables: { p: 2_147_483_647, s: 1_000 } }), allowed: { statuses: [200], codes: [] } },
      { label: '10 000 categories', send: postJson({ query: EVENTS, variables: { f: { categories: Array.from({ length: 10_000 }, (_, i) => `C${i}`) } } }), allowed: ANY_DATA_OR_BAD_INPUT },
      { label: '10 000 slugs', send: postJson({ query: 'query($s: [String]!) { eventsBySlugs(eventsSlugs: $s) { id } }', variables: { s: Array.from({ length: 10_000 }, (_, i) => `${i}`) } }), allowed: ANY_DATA_OR_BAD_INPUT },
      { label: '5 000 unused variables', send: postJson({ query: '{ __typename }', variables: Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`v${i}`, i])) }), allowed: { statuses: [200], codes: [] } },
      { label: 'a string where a list is asked', send: postJson({ query: EVENTS, variables: { f: { categories: 'CONCERT' } } }), allowed: ANY_DATA_OR_BAD_INPUT },
      { label: 'an object where a string is asked', send: postJson({ query: EVENTS, variables: { f: { searchTerm: { $ne: null } } } }), allowed: ANY_DATA_OR_BAD_INPUT },
      { label: 'an unknown Filter field', send: postJson({ query: EVENTS, variables: { f: { drop: 'table' } } }), allowed: ANY_DATA_OR_BAD_INPUT },
      { label: '__proto__ in variables', send: post(`{"query":${JSON.stringify(EVENTS)},"variables":{"f":{"__proto__":{"searchTerm":"x"},"constructor":{"prototype":{"polluted":1}}}}}`), allowed: ANY_DATA_OR_BAD_INPUT },
    ];
    expect(await runAll(cases)).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('answers long URLs and header floods with 4xx, and keeps serving', async () => {
    const floodHeaders = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`x-flood-${i}`, 'y'.repeat(60)]));
    const cases: Case[] = [
      { label: '100 kB URL', send: get({ query: `{ __typename }${' '.repeat(100_000)}` }), allowed: { statuses: [414, 431], codes: [], bare: [414, 431] } },
      { label: '100 kB search term in the URL', send: get({ query: 'query($f: Filter) { events(filter: $f) { totalCount } }', variables: JSON.stringify({ f: { searchTerm: 'x'.repeat(100_000) } }) }), allowed: { statuses: [414, 431], codes: [], bare: [414, 431] } },
      { label: '600 headers', send: postJson({ query: '{ __typename }' }, floodHeaders), allowed: { statuses: [431], codes: [], bare: [431] } },
      { label: 'one 20 kB header', send: postJson({ query: '{ __typename }' }, { 'x-big': 'z'.repeat(20_000) }), allowed: { statuses: [431], codes: [], bare: [431] } },
      { label: '60 ordinary headers', send: postJson({ query: '{ __typename }' }, Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`x-h-${i}`, 'v']))), allowed: { statuses: [200], codes: [] } },
      { label: 'a hostile X-Page-Url and X-Client-Id', send: postJson({ query: '{ __typename }' }, { 'x-page-url': "https://x.example/'; DROP TABLE usage_counts; --", 'x-client-id': "' OR 1=1 --/1.0" }), allowed: { statuses: [200], codes: [] } },
      { label: 'a hostile API key', send: postJson({ query: '{ __typename }' }, { 'x-api-key': "hsk_' OR '1'='1" }), allowed: { statuses: [200], codes: [] } },
    ];
    expect(await runAll(cases)).toEqual([]);
    const after = await postGraphQL(server.url, { query: '{ categories { id } }' });
    expect(after.status).toBe(200);
  });

  it('answers random and mutated documents with 200 or a 400 that names the problem', async () => {
    const next = random(16);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    const vocabulary = ['{', '}', '(', ')', '[', ']', ':', '$', '!', '@', '...', '=', '|', '&', 'query', 'fragment', 'on', 'events', 'data', 'id', 'filter', 'searchTerm', '"x"', '1', '-1.5e3', 'true', 'null', '__typename', '__schema', 'Query', 'Event', '#c\n', '"""b"""', 'include', 'if'];
    const valid = [
      'query($f: Filter) { events(filter: $f, pageSize: 5) { totalCount data { id title_nb startDate venue { name } } } }',
      '{ eventBySlug(eventSlug: "e-1") { id repetitions { startDate } prices { type price } } }',
      '{ categories { id name_nb subCategories { id } } venues { id slug } organizers { id } }',
      '{ allUpcomingEventsInArea(minLatitude: 59, maxLatitude: 60, minLongitude: 10, maxLongitude: 11) { id jsonLd(lan: "en") } }',
    ];
    const documents: string[] = [];
    for (let i = 0; i < 250; i++) documents.push(Array.from({ length: 3 + Math.floor(next() * 40) }, () => pick(vocabulary)).join(' '));
    for (let i = 0; i < 250; i++) {
      let text = pick(valid);
      for (let edits = 1 + Math.floor(next() * 4); edits > 0; edits--) {
        const at = Math.floor(next() * text.length);
        const edit = next();
        text = edit < 0.4 ? text.slice(0, at) + text.slice(at + 1) : edit < 0.8 ? text.slice(0, at) + pick(vocabulary) + text.slice(at) : text.slice(0, at) + String.fromCharCode(Math.floor(next() * 0x3000)) + text.slice(at);
      }
      documents.push(text);
    }
    const cases: Case[] = documents.map((query, i) => ({
      label: `random document #${i}: ${query.slice(0, 80)}`,
      send: postJson({ query }),
      allowed: { statuses: [200, 400], codes: ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST', 'BAD_USER_INPUT'] },
      echoes: [query],
    }));
    expect(await runAll(cases)).toEqual([]);
  });
});
