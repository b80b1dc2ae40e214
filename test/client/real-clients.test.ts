import { readFileSync } from 'node:fs';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { Client, fetchExchange, gql as urqlGql } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApolloClient } from '../../docs/examples/apollo-client.js';
import { createGraphQLRequestClient } from '../../docs/examples/graphql-request.js';
import { getQuery, postQuery } from '../../docs/examples/plain-fetch.js';
import { createUrqlClient } from '../../docs/examples/urql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { NOW, widgetCalendar } from './fixtures/widget-calendar.js';

/**
 * The examples of docs/using-the-api.md for other GraphQL clients, run against the service: each
 * file is shown verbatim in the guide, and each does what the guide says it does.
 */
const guide = readFileSync(new URL('../../docs/using-the-api.md', import.meta.url), 'utf8');
const EXAMPLES = ['apollo-client.ts', 'urql.ts', 'graphql-request.ts', 'plain-fetch.ts'];

// A third party's own operation (not trusted by the service). One node per event and day: an event
// with two dates (Hamlet) comes back twice with the same id. Apollo and urql print a document the
// same way, so each client gets its own name: each must register its document itself.
const days = (name: string) => `query ${name}($pageSize: Int) {
  events(filter: { groupRepetitionsByDay: true }, pageSize: $pageSize) {
    totalCount
    data {
      id
      startDate
      title_nb
    }
  }
}`;
const DAYS = days('DaysOfEvents');

interface Days {
  events: { totalCount: number; data: Array<{ id: string; startDate: string; title_nb: string | null }> };
}

let server: TestServer;
let reference: Array<{ id: string; startDate: string }>;

/** `fetch` that records the method of every call, as one visitor's page load would make them. */
function recordingFetch() {
  const methods: string[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    methods.push(init?.method ?? (input instanceof Request ? input.method : 'GET'));
    return globalThis.fetch(input, init);
  };
  return { fetch, methods };
}

const nodes = (days: Days) => days.events.data.map(({ id, startDate }) => ({ id, startDate }));

beforeAll(async () => {
  server = await startTestServer({ calendar: widgetCalendar, clock: () => NOW });
  reference = nodes(await postQuery<Days>(server.url, DAYS, { pageSize: 20 }));
});
afterAll(async () => server?.close());

describe('the guide\'s examples for other clients', () => {
  it.each(EXAMPLES)('shows docs/examples/%s verbatim', (file) => {
    expect(guide).toContain(readFileSync(new URL(`../../docs/examples/${file}`, import.meta.url), 'utf8'));
  });

  it('has a fixture where one event is two nodes', () => {
    const hamlet = reference.filter((node) => node.id === 'W-HAMLET');
    expect(hamlet.map((node) => node.startDate)).toEqual(['2026-03-27 19:00:00+01:00', '2026-04-03 19:00:00+02:00']);
  });
});

describe('Apollo Client: APQ link with GET, the preflight header, Event keyed by id and startDate', () => {
  it('keeps every node, and the second visitor of the document is one GET hit', async () => {
    const first = recordingFetch();
    const second = recordingFetch();
    const query = gql(days('DaysOfEventsApollo'));
    const a = await createApolloClient(server.url, first.fetch).query<Days>({ query, variables: { pageSize: 20 } });
    const b = await createApolloClient(server.url, second.fetch).query<Days>({ query, variables: { pageSize: 20 } });

    expect(nodes(a.data!)).toEqual(reference);
    expect(nodes(b.data!)).toEqual(reference);
    expect(first.methods).toEqual(['GET', 'POST']);
    expect(second.methods).toEqual(['GET']);
  });

  it('merges the nodes of one event without the type policy (why the guide sets it)', async () => {
    const client = new ApolloClient({ link: new HttpLink({ uri: server.url }), cache: new InMemoryCache() });
    const { data } = await client.query<Days>({ query: gql(DAYS), variables: { pageSize: 20 } });
    const hamlet = nodes(data!).filter((node) => node.id === 'W-HAMLET');
    expect(hamlet).toHaveLength(2);
    expect(hamlet[0]!.startDate).toBe(hamlet[1]!.startDate);
  });
});

describe('urql: the preflight header, persisted GETs, graphcache keyed by id and startDate', () => {
  it('keeps every node, and the second visitor of the document is one GET hit', async () => {
    const first = recordingFetch();
    const second = recordingFetch();
    const document = urqlGql(days('DaysOfEventsUrql'));
    const a = await createUrqlClient(server.url, first.fetch).query<Days>(document, { pageSize: 20 }).toPromise();
    const b = await createUrqlClient(server.url, second.fetch).query<Days>(document, { pageSize: 20 }).toPromise();

    expect(a.error).toBeUndefined();
    expect(nodes(a.data!)).toEqual(reference);
    expect(nodes(b.data!)).toEqual(reference);
    // urql registers by GET too: the hash, then (on PersistedQueryNotFound) the hash with the text.
    expect(first.methods).toEqual(['GET', 'GET']);
    expect(second.methods).toEqual(['GET']);
  });

  it('fails with the CSRF answer by default, when GETs go without the header (why the guide sets it)', async () => {
    const client = new Client({ url: server.url, exchanges: [fetchExchange] });
    const result = await client.query<Days>(urqlGql(DAYS), { pageSize: 20 }).toPromise();
    expect(result.error?.message).toMatch(/Cross-Site Request Forgery/);
  });
});

describe('graphql-request: GET with the preflight header', () => {
  it('answers the query', async () => {
    const { fetch, methods } = recordingFetch();
    const data = await createGraphQLRequestClient(server.url, fetch).request<Days>(DAYS, { pageSize: 20 });
    expect(nodes(data)).toEqual(reference);
    expect(methods).toEqual(['GET']);
  });
});

describe('plain fetch', () => {
  it('gives the same data by POST and by GET, and throws on errors', async () => {
    expect(nodes(await getQuery<Days>(server.url, DAYS, { pageSize: 20 }))).toEqual(reference);
    await expect(postQuery(server.url, '{ events(page: -1) { totalCount } }')).rejects.toThrow(/Query Arguments invalid/);
  });
});
