import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PersistedQueryStore } from '../../src/http/persisted-queries.js';
import { loadPersistedDocuments } from '../../src/trusted-documents.js';
import { createLogger } from '../../src/logger.js';
import { connectRedis, type RedisCircuit } from '../../src/redis/redis-circuit.js';
import { databaseLabel } from '../support/test-database.js';
import { getGraphQL, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { startThrowawayRedis, throwawayRedisUnavailable, type ThrowawayRedis } from '../support/throwaway-redis.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
});
afterAll(async () => server?.close());

const manifestPath = new URL('../../generated/persisted-documents.json', import.meta.url);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, string>;
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

  it('never answers a hash with data for an operation the document does not name', async () => {
    // A client whose hash is stale names its own operation: the trusted document has none of that name.
    const res = await getGraphQL(server.url, { operationName: 'Venues', extensions: apq(categoriesHash) });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]?.message).toMatch(/operation/i);
  });

  it('answers a GET that carries only the hash with a CDN-cacheable response', async () => {
    const res = await getGraphQL(server.url, { extensions: apq(categoriesHash) });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveProperty('categories');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+, s-maxage=\d+, stale-while-revalidate=\d+, stale-if-error=86400$/);
    expect(res.headers.get('etag')).toBeTruthy();
  });
});

describe('the trusted manifest', () => {
  it('keys every document by the SHA-256 of its text', () => {
    for (const [id, text] of Object.entries(manifest)) expect(id).toBe(`sha256:${sha256(text)}`);
    expect(loadPersistedDocuments().size).toBe(Object.keys(manifest).length);
  });

  it('refuses to load a manifest whose hash is not that of its text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'manifest-'));
    try {
      const file = join(dir, 'persisted-documents.json');
      // Another document's text under the Categories hash: loading it would answer one with the other.
      writeFileSync(file, JSON.stringify({ [categoriesId]: '{ venues { id } }' }));
      expect(() => loadPersistedDocuments(file)).toThrow(/is not the SHA-256 of its text/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

  it('keeps a document only once it has run: text that fails validation is not registered', async () => {
    const invalid = `query Invalid${randomBytes(4).toString('hex')} { venues { noSuchField } }`;
    const register = await postGraphQL(server.url, { query: invalid, extensions: apq(sha256(invalid)) });
    expect(register.status).toBe(400);
    expect(register.body.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
    const byHash = await postGraphQL(server.url, { extensions: apq(sha256(invalid)) });
    expect(byHash.body.errors?.[0]?.extensions?.['code']).toBe('PERSISTED_QUERY_NOT_FOUND');
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

/** Distinct valid documents, each with its hash. */
const documents = (count: number, tag = randomBytes(3).toString('hex')) =>
  Array.from({ length: count }, (_, index) => {
    const text = `query Cap${tag}n${index} { categories { id } }`;
    return { text, hash: sha256(text) };
  });

describe('registered documents: bounded in this process', () => {
  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const store = new PersistedQueryStore({ trusted: new Map(), maxEntries: 3 });
    const [a, b, c, d] = documents(4);
    for (const document of [a!, b!, c!]) await store.register(document.hash, document.text);
    expect(await store.lookup(a!.hash)).toBe(a!.text); // a is now the most recently used
    await store.register(d!.hash, d!.text);
    expect(store.localSize.entries).toBe(3);
    expect(await store.lookup(b!.hash)).toBeUndefined();
    expect(await store.lookup(a!.hash)).toBe(a!.text);
  });

  it('keeps at most maxCharacters of text', async () => {
    const list = documents(10);
    const store = new PersistedQueryStore({ trusted: new Map(), maxCharacters: list[0]!.text.length * 4 });
    for (const document of list) await store.register(document.hash, document.text);
    expect(store.localSize).toEqual({ entries: 4, characters: list[0]!.text.length * 4 });
    expect(await store.lookup(list[9]!.hash)).toBe(list[9]!.text);
    expect(await store.lookup(list[5]!.hash)).toBeUndefined();
  });
});

// The shared Redis when REDIS_URL names one, else a redis-server of the test's own.
const redisSkip = process.env['REDIS_URL'] ? undefined : throwawayRedisUnavailable();
if (redisSkip) console.warn(`Redis store caps skipped: ${redisSkip}`);

describe.skipIf(redisSkip !== undefined)('registered documents: bounded in Redis', () => {
  let throwaway: ThrowawayRedis | undefined;
  let url: string;
  let raw: Redis;
  let circuit: RedisCircuit;
  const namespace = `test:${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    if (!process.env['REDIS_URL']) throwaway = await startThrowawayRedis();
    url = process.env['REDIS_URL'] ?? throwaway!.url;
    raw = new Redis(url);
    circuit = await connectRedis(url, createLogger('silent'));
  });
  afterAll(async () => {
    const keys = await raw?.keys(`${namespace}:*`);
    if (keys?.length) await raw.del(keys);
    raw?.disconnect();
    circuit?.redis.disconnect();
    await throwaway?.kill();
  });

  /** A store over the shared Redis with an empty memory, as another instance (or a restarted one) has. */
  const freshStore = (caps: { redisMaxEntries?: number; redisMaxBytes?: number }, space: string) =>
    new PersistedQueryStore({ trusted: new Map(), redis: circuit, namespace: `${namespace}:${space}`, maxEntries: 1, ...caps });

  it('keeps at most redisMaxEntries documents across instances, evicting the least recently registered', async () => {
    const list = documents(8);
    const writer = freshStore({ redisMaxEntries: 5 }, 'entries');
    for (const document of list) await writer.register(document.hash, document.text);
    // Registering the first again renews it: the oldest are now the second, third, fourth.
    await writer.register(list[0]!.hash, list[0]!.text);

    const keys = (await raw.keys(`${namespace}:entries:apq:*`)).filter((key) => !key.includes('#'));
    expect(keys).toHaveLength(5);
    expect(await raw.zcard(`${namespace}:entries:apq:#index`)).toBe(5);
    const reader = freshStore({ redisMaxEntries: 5 }, 'entries');
    const found = await Promise.all(list.map((document) => reader.lookup(document.hash)));
    expect(found.map((text) => text !== undefined)).toEqual([true, false, false, false, true, true, true, true]);
    // Every key has a TTL (the documented maxmemory policy relies on it).
    for (const key of await raw.keys(`${namespace}:entries:*`)) expect(await raw.ttl(key)).toBeGreaterThan(0);
  });

  it('keeps at most redisMaxBytes of document text, and counts them right through renewals', async () => {
    const list = documents(6);
    const size = Buffer.byteLength(list[0]!.text);
    const writer = freshStore({ redisMaxBytes: size * 3 }, 'bytes');
    for (const document of list) {
      await writer.register(document.hash, document.text);
      await writer.register(document.hash, document.text);
    }
    expect(Number(await raw.hget(`${namespace}:bytes:apq:#sizes`, '#bytes'))).toBe(size * 3);
    const reader = freshStore({}, 'bytes');
    const found = await Promise.all(list.map((document) => reader.lookup(document.hash)));
    expect(found.map((text) => text !== undefined)).toEqual([false, false, false, true, true, true]);
  });

  it('drops entries whose time has passed from the count', async () => {
    const [old, recent] = documents(2);
    const writer = new PersistedQueryStore({ trusted: new Map(), redis: circuit, namespace: `${namespace}:ttl`, redisTtlSeconds: 1 });
    await writer.register(old!.hash, old!.text);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await writer.register(recent!.hash, recent!.text);
    expect(await raw.zrange(`${namespace}:ttl:apq:#index`, '0', '-1')).toEqual([recent!.hash]);
    expect(Number(await raw.hget(`${namespace}:ttl:apq:#sizes`, '#bytes'))).toBe(Buffer.byteLength(recent!.text));
  });
});
