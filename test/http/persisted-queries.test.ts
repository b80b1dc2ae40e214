import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel } from '../support/test-database.js';
import { getGraphQL, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
});
afterAll(async () => server?.close());

const manifest = JSON.parse(readFileSync(new URL('../../generated/client/persisted-documents.json', import.meta.url), 'utf8')) as Record<string, string>;
const [categoriesId] = Object.entries(manifest).find(([, text]) => text.startsWith('query Categories'))!;
const categoriesHash = categoriesId.replace(/^sha256:/, '');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const apq = (sha256Hash: string) => ({ persistedQuery: { version: 1, sha256Hash } });

describe(`trusted documents from the codegen manifest (${databaseLabel})`, () => {
  it('runs a known document by extensions.persistedQuery.sha256Hash, without the text', async () => {
    const res = await postGraphQL(server.url, { extensions: apq(categoriesHash) });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toHaveProperty('categories');
  });

  it.each([
    ['with the sha256: prefix', categoriesId],
    ['as bare hex', categoriesHash],
  ])('runs a known document by documentId %s', async (_how, documentId) => {
    const res = await postGraphQL(server.url, { documentId });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveProperty('categories');
  });

  it('runs a document with variables by hash', async () => {
    const [id] = Object.entries(manifest).find(([, text]) => text.includes('query EventDetail(')) ?? [];
    const res = await postGraphQL(server.url, { documentId: id, variables: { slug: 'e-2' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ eventBySlug: { id: 'E-2' } });
  });

  it('answers a GET that carries only the hash with a CDN-cacheable response', async () => {
    const res = await getGraphQL(server.url, { extensions: apq(categoriesHash) });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveProperty('categories');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+, s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(res.headers.get('etag')).toBeTruthy();
  });
});

describe(`automatic persisted queries (${databaseLabel})`, () => {
  // A unique document per run, so that a shared Redis never knows it beforehand.
  const text = `query Apq${randomBytes(4).toString('hex')} { venues { slug } }`;
  const hash = sha256(text);

  it('answers an unknown hash with 200, PersistedQueryNotFound and PERSISTED_QUERY_NOT_FOUND', async () => {
    const res = await postGraphQL(server.url, { extensions: apq(hash) });
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }]);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('registers the text sent with its hash, then runs the hash alone (POST and GET)', async () => {
    const register = await postGraphQL(server.url, { query: text, extensions: apq(hash) });
    expect(register.status).toBe(200);
    expect(register.body.data).toEqual({ venues: [{ slug: 'sentrum-scene' }] });
    const byHash = await postGraphQL(server.url, { extensions: apq(hash) });
    expect(byHash.body).toEqual(register.body);
    const byGet = await getGraphQL(server.url, { extensions: apq(hash) });
    expect(byGet.status).toBe(200);
    expect(byGet.body).toEqual(register.body);
  });

  it('refuses a hash that is not the SHA-256 of the text with 400', async () => {
    const res = await postGraphQL(server.url, { query: '{ organizers { id } }', extensions: apq(sha256('{ venues { id } }')) });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } });
  });

  it('refuses another protocol version and a hash that is not hex', async () => {
    const version = await postGraphQL(server.url, { extensions: { persistedQuery: { version: 2, sha256Hash: hash } } });
    expect(version.status).toBe(400);
    const shape = await postGraphQL(server.url, { extensions: apq('not-a-hash') });
    expect(shape.status).toBe(400);
  });

  it('keeps arbitrary queries allowed: a public API', async () => {
    const res = await postGraphQL(server.url, { query: `{ organizers { name } } # ${randomBytes(4).toString('hex')}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ organizers: [{ name: 'Konsertforeningen' }] });
  });
});
