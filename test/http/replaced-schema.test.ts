import { createHash } from 'node:crypto';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServedSchema, loadSchemaSource } from '../../src/schema/executable-schema.js';
import { resolvers } from '../../src/schema/resolvers/index.js';
import { loadPersistedDocuments } from '../../src/trusted-documents.js';
import { ONE_VENUE_CATALOGUE, oneVenueEvent } from '../support/one-venue-calendar.js';
import { getGraphQL, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';

/*
 * RunningService.replaceSchema, what `npm run dev` serves each save with (test/dev/dev-loop.test.ts runs the whole
 * loop in a process of its own): the next request sees the new schema, its resolvers and its SDL file, and no answer
 * cached under the old one; the trusted documents are read at each lookup.
 */

const SOURCE = loadSchemaSource();
const venueEnd = SOURCE.indexOf('\n}', SOURCE.indexOf('type Venue {'));
const WITH_NOTE = `${SOURCE.slice(0, venueEnd)}\n  "A note on the venue."\n  note: String${SOURCE.slice(venueEnd)}`;

describe('a service whose schema can be replaced (npm run dev)', () => {
  let server: TestServer;
  const trustedDocuments = loadPersistedDocuments();
  beforeAll(async () => {
    server = await startTestServer({ calendar: { ...ONE_VENUE_CATALOGUE, events: [oneVenueEvent('E-1', 'En')] }, replaceableSchema: true, trustedDocuments });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves a replaced schema from the next request on: its fields, its resolvers, its SDL, none of the old answers', async () => {
    // Cached under the data version, which a replaced schema does not change.
    const query = '{ venues { name } }';
    expect((await getGraphQL(server.url, { query })).body.data).toEqual({ venues: [{ name: 'Scene' }] });
    expect((await postGraphQL(server.url, { query: '{ venues { note } }' })).body.errors?.[0]?.message).toMatch(/Cannot query field "note"/);
    const before = await fetch(`${server.origin}/schema.graphql`);
    expect(await before.text()).toBe(SOURCE);

    const replaceSchema = server.service.replaceSchema;
    expect(replaceSchema).toBeDefined();
    replaceSchema?.({
      source: WITH_NOTE,
      schema: makeExecutableSchema({
        typeDefs: WITH_NOTE,
        resolvers: { ...resolvers, Venue: { ...resolvers.Venue, name: (v: { name: string }) => `${v.name} (new)`, note: (v: { name: string }) => `About ${v.name}` } },
      }),
    });

    expect((await postGraphQL(server.url, { query: '{ venues { name note } }' })).body.data).toEqual({ venues: [{ name: 'Scene (new)', note: 'About Scene' }] });
    // The same GET as before: executed by the new resolvers, not the answer cached under the old schema.
    expect((await getGraphQL(server.url, { query })).body.data).toEqual({ venues: [{ name: 'Scene (new)' }] });
    const after = await fetch(`${server.origin}/schema.graphql`);
    expect(await after.text()).toBe(WITH_NOTE);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));

    replaceSchema?.(buildServedSchema(SOURCE));
    expect((await postGraphQL(server.url, { query: '{ venues { note } }' })).body.errors?.[0]?.message).toMatch(/Cannot query field "note"/);
  });

  it('answers a document added to the trusted map as a persisted query', async () => {
    const text = 'query ReplacedSchemaProbe { venues { slug } }';
    const hash = createHash('sha256').update(text).digest('hex');
    const ask = () => getGraphQL(server.url, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect((await ask()).body.errors?.[0]?.message).toMatch(/PersistedQueryNotFound/);
    trustedDocuments.set(hash, text);
    expect((await ask()).body.data).toEqual({ venues: [{ slug: 'v-1' }] });
  });

  it('is not replaceable without the option', async () => {
    const plain = await startTestServer();
    try {
      expect(plain.service.replaceSchema).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
