import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { generateDemoCalendar } from '../../src/demo/demo-calendar.js';
import { databaseLabel } from '../support/test-database.js';
import { isReachable, startTestServer, type TestServer } from '../support/test-server.js';
import { NOW, UNKNOWN_KEY } from './fixtures/http-calendar.js';
import { deleteCacheNamespace } from '../support/cache-namespace.js';
import { scrape } from '../support/prometheus-metrics.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, not decoded. */
  bytes: Buffer;
}

/** One request as an HTTP client sends it, with the body's bytes exactly as they came (fetch would decode them). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function decoded(response: RawResponse): Buffer {
  switch (response.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(response.bytes);
    case 'gzip':
      return gunzipSync(response.bytes);
    case 'zstd':
      return zstdDecompressSync(response.bytes);
    case undefined:
      return response.bytes;
    default:
      throw new Error(`unexpected content-encoding ${String(response.headers['content-encoding'])}`);
  }
}

const PAGE = '{ events(pageSize: 20) { totalCount data { id title_nb title_en startDate endDate venue { name slug } categories } } }';
const SMALL = '{ categories { id } }';
const preflight = { 'service-require-preflight': 'true' };

let server: TestServer;
const address = (query: string) => `${server.url}?${new URLSearchParams({ query }).toString()}`;
const get = (query: string, headers: Record<string, string> = {}) => raw(address(query), { headers: { ...preflight, ...headers } });

beforeAll(async () => {
  server = await startTestServer({ calendar: generateDemoCalendar({ events: 120, seed: 11, today: NOW }), clock: () => NOW });
});
afterAll(async () => server?.close());

describe(`compressed answers (${databaseLabel})`, () => {
  it('sends an answer in the coding the client prefers, q-values honoured, byte-identical once decoded', async () => {
    const plain = await get(PAGE, { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(4000);
    expect(JSON.parse(plain.bytes.toString())).toHaveProperty('data.events.totalCount');
    const cases: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      ['zstd', 'zstd'],
      ['br;q=0.5, gzip', 'gzip'],
      ['br;q=0, *', 'zstd'],
      ['identity;q=0', undefined],
      ['compress', undefined],
    ];
    const tags = new Set<string>();
    for (const [accepted, coding] of cases) {
      const response = await get(PAGE, accepted === undefined ? {} : { 'accept-encoding': accepted });
      expect(response.status, accepted).toBe(200);
      expect(response.headers['content-encoding'], accepted).toBe(coding);
      expect(Number(response.headers['content-length'])).toBe(response.bytes.length);
      expect(decoded(response).equals(plain.bytes), accepted).toBe(true);
      expect(response.headers['vary']).toBe('Accept, X-Api-Key, Service-Require-Preflight, Accept-Encoding');
      tags.add(`${String(coding)} ${String(response.headers['etag'])}`);
      if (coding) expect(response.bytes.length).toBeLessThan(plain.bytes.length / 3);
    }
    // One strong tag per sequence of bytes: the identity's, and one per coding.
    expect([...tags].map((entry) => entry.split(' ')[1]!).sort()).toEqual(
      [...new Set([...tags].map((entry) => entry.split(' ')[1]!))].sort(),
    );
    const identityTag = plain.headers['etag'] as string;
    expect([...tags].sort()).toEqual(
      [`br ${identityTag.slice(0, -1)}-br"`, `gzip ${identityTag.slice(0, -1)}-gz"`, `undefined ${identityTag}`, `zstd ${identityTag.slice(0, -1)}-zst"`].sort(),
    );
  });

  it(`sends answers below 1 KiB as they are`, async () => {
    const small = await get(SMALL, { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.bytes.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['vary']).toContain('Accept-Encoding');
  });

  it('answers If-None-Match with 304 across the codings the client accepts, naming the copy it holds', async () => {
    const gzipped = await get(PAGE, { 'accept-encoding': 'gzip' });
    const gzipTag = gzipped.headers['etag'] as string;
    const plain = await get(PAGE, { 'accept-encoding': 'identity' });
    const identityTag = plain.headers['etag'] as string;
    // Its own coding.
    const same = await get(PAGE, { 'accept-encoding': 'gzip', 'if-none-match': gzipTag });
    expect(same.status).toBe(304);
    expect(same.headers['etag']).toBe(gzipTag);
    expect(same.bytes.length).toBe(0);
    // A client that now prefers brotli but still accepts gzip keeps its gzip copy.
    const across = await get(PAGE, { 'accept-encoding': 'br, gzip', 'if-none-match': `W/${gzipTag}` });
    expect(across.status).toBe(304);
    expect(across.headers['etag']).toBe(gzipTag);
    // One that no longer accepts gzip gets the answer in brotli.
    const notAccepted = await get(PAGE, { 'accept-encoding': 'br', 'if-none-match': gzipTag });
    expect(notAccepted.status).toBe(200);
    expect(notAccepted.headers['content-encoding']).toBe('br');
    // The identity is acceptable to everyone.
    const identity = await get(PAGE, { 'accept-encoding': 'br', 'if-none-match': identityTag });
    expect(identity.status).toBe(304);
    expect(identity.headers['etag']).toBe(identityTag);
    // Another answer's tag, with a coding suffix, does not match.
    const other = await get(PAGE, { 'accept-encoding': 'gzip', 'if-none-match': `"${'x'.repeat(27)}-gz"` });
    expect(other.status).toBe(200);
    // The other media type's copy is another representation.
    const modern = await get(PAGE, { 'accept-encoding': 'gzip', accept: 'application/graphql-response+json', 'if-none-match': gzipTag });
    expect(modern.status).toBe(200);
    expect(modern.headers['etag']).toBe(`${identityTag.slice(0, -1)}-gr-gz"`);
  });

  it('gives HEAD the status and headers of the GET in the same coding, Content-Length included', async () => {
    // A document of its own, first asked here: PAGE, sent in brotli by the tests before, may get its smallest
    // form (another representation, with its own tag and length) between this GET and HEAD.
    const query = '{ events(pageSize: 25) { data { id title_nb desc_nb } } }';
    const got = await get(query, { 'accept-encoding': 'br' });
    const head = await raw(address(query), { method: 'HEAD', headers: { ...preflight, 'accept-encoding': 'br' } });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(got.bytes.length));
    expect(head.headers['etag']).toBe(got.headers['etag']);
  });

  it('makes the smallest brotli form once an answer is asked for again, and a copy of the fast one still revalidates', async () => {
    const query = '{ events(pageSize: 30) { data { id title_nb desc_nb } } }';
    const first = await get(query, { 'accept-encoding': 'br' });
    const fastTag = first.headers['etag'] as string;
    expect(fastTag).toMatch(/-br"$/);
    for (let sent = 1; sent < 6; sent++) await get(query, { 'accept-encoding': 'br' });
    let best = await get(query, { 'accept-encoding': 'br' });
    for (let waited = 0; best.headers['etag'] === fastTag && waited < 50; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      best = await get(query, { 'accept-encoding': 'br' });
    }
    expect(best.headers['etag']).toBe(`${fastTag.slice(0, -4)}-br11"`);
    expect(best.bytes.length).toBeLessThan(first.bytes.length);
    expect(decoded(best).equals(decoded(first))).toBe(true);
    const revalidated = await get(query, { 'accept-encoding': 'br', 'if-none-match': fastTag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers['etag']).toBe(fastTag);
  });

  it('sends the POST that made an answer the cheapest coding it ranks first, the requests after it the smallest, and a GET the smallest', async () => {
    const browser = { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br, zstd' };
    const post = (query: string, headers: Record<string, string> = browser) => raw(server.url, { method: 'POST', body: JSON.stringify({ query }), headers });
    const query = '{ events(pageSize: 22) { data { id title_nb desc_nb startDate } } }';
    const made = await post(query);
    expect(made.headers['content-encoding']).toBe('gzip');
    // Asked again: a hit of the response cache, in the smallest form.
    const again = await post(query);
    expect(again.headers['content-encoding']).toBe('br');
    expect(decoded(again).equals(decoded(made))).toBe(true);
    // The client's q-values still decide, and a client that does not take gzip gets what it ranks first.
    const ranked = await post('{ events(pageSize: 24) { data { id title_nb desc_nb } } }', { ...browser, 'accept-encoding': 'br, gzip;q=0.5' });
    expect(ranked.headers['content-encoding']).toBe('br');
    const noGzip = await post('{ events(pageSize: 26) { data { id title_nb desc_nb } } }', { ...browser, 'accept-encoding': 'zstd, br' });
    expect(noGzip.headers['content-encoding']).toBe('br');
    // A GET's answer may be kept by the browser and every cache on the way: the smallest from the start.
    const got = await get('{ events(pageSize: 27) { data { id title_nb desc_nb } } }', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(got.headers['content-encoding']).toBe('br');
  });

  it('compresses POST answers too, never public', async () => {
    const body = JSON.stringify({ query: PAGE });
    const plain = await raw(server.url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const post = await raw(server.url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br' } });
    expect(post.status).toBe(200);
    expect(post.headers['content-encoding']).toBe('br');
    expect(post.headers['cache-control']).toBe('no-store');
    expect(post.headers['vary']).toBe('Accept-Encoding');
    expect(decoded(post).equals(plain.bytes)).toBe(true);
  });

  it('sends an answer carrying a notice as it is, meant for that caller alone', async () => {
    const noticed = await get(PAGE, { 'accept-encoding': 'br', 'x-api-key': UNKNOWN_KEY });
    expect(noticed.status).toBe(200);
    expect(noticed.headers['content-encoding']).toBeUndefined();
    expect(noticed.headers['cache-control']).toBe('private, no-store');
    expect(JSON.parse(noticed.bytes.toString())).toHaveProperty('extensions.notice');
  });

  it('compresses /events.ics feeds, with Vary: Accept-Encoding', async () => {
    const feed = `${server.origin}/events.ics`;
    const plain = await raw(feed);
    expect(plain.status).toBe(200);
    expect(plain.bytes.toString()).toMatch(/^BEGIN:VCALENDAR/);
    const gzipped = await raw(feed, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['vary']).toBe('Accept-Encoding');
    expect(gzipped.headers['content-disposition']).toBe('inline; filename="events.ics"');
    expect(decoded(gzipped).equals(plain.bytes)).toBe(true);
    expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length / 3);
  });

  it("gives Node's fetch a compressed answer without a setting", async () => {
    const response = await fetch(address(PAGE), { headers: preflight });
    const plain = await get(PAGE);
    // Node's fetch (undici) asks `gzip, deflate` and decodes what it gets.
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(Buffer.from(await response.arrayBuffer()).equals(plain.bytes)).toBe(true);
  });
});

describe(`large answers, compressed as they are written (${databaseLabel})`, () => {
  // More than 1 000 events with a venue: a whole-world area is written a slice per turn, and is past 256 KiB.
  const WORLD = `{ allUpcomingEventsInArea(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180) {
    id title_nb title_en desc_nb startDate endDate venue { name slug location { latitude longitude } } categories organizers { name } } }`;
  let large: TestServer;
  const worldUrl = (origin: TestServer) => `${origin.url}?${new URLSearchParams({ query: WORLD }).toString()}`;
  const formsMade = async (form: string, made: string) => (await scrape(large.origin)).value('calendar_answer_forms_total', { form, made });

  beforeAll(async () => {
    large = await startTestServer({ calendar: generateDemoCalendar({ events: 1600, seed: 3, today: NOW }), clock: () => NOW });
  });
  afterAll(async () => large?.close());

  it('makes the form the request asked for as the body is written, the same bytes as a form made of the whole body', async () => {
    const plain = await raw(worldUrl(large), { headers: preflight });
    expect(plain.status).toBe(200);
    expect(plain.bytes.length).toBeGreaterThan(256 * 1024);
    expect((JSON.parse(plain.bytes.toString()) as { data: { allUpcomingEventsInArea: unknown[] } }).data.allUpcomingEventsInArea.length).toBeGreaterThan(1000);
    for (const coding of ['br', 'gzip', 'zstd']) {
      const asWrittenBefore = await formsMade(coding, 'as_written');
      const streamed = await raw(worldUrl(large), { headers: { ...preflight, 'accept-encoding': coding } });
      expect(streamed.headers['content-encoding']).toBe(coding);
      expect(Number(streamed.headers['content-length'])).toBe(streamed.bytes.length);
      expect(decoded(streamed).equals(plain.bytes), coding).toBe(true);
      expect(streamed.bytes.length).toBeLessThan(plain.bytes.length / 3);
      expect(await formsMade(coding, 'as_written'), coding).toBe(asWrittenBefore + 1);

      // A request sharing the execution of one that asked for nothing gets the form made of the whole
      // body: under the same tag, exactly the same bytes.
      const wholeBefore = await formsMade(coding, 'whole');
      const [, shared] = await Promise.all([
        raw(worldUrl(large), { headers: preflight }),
        new Promise((resolve) => setTimeout(resolve, 5)).then(() => raw(worldUrl(large), { headers: { ...preflight, 'accept-encoding': coding } })),
      ]);
      if ((await formsMade(coding, 'whole')) === wholeBefore + 1) {
        expect(shared.headers['etag']).toBe(streamed.headers['etag']);
        expect(shared.bytes.equals(streamed.bytes), coding).toBe(true);
      }
    }
  });

  it('gives HEAD the Content-Length of the form made as written', async () => {
    const got = await raw(worldUrl(large), { headers: { ...preflight, 'accept-encoding': 'br' } });
    const head = await raw(worldUrl(large), { method: 'HEAD', headers: { ...preflight, 'accept-encoding': 'br' } });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(got.bytes.length));
    expect(head.headers['etag']).toBe(got.headers['etag']);
  });

  it('leaves nothing broken when the client that asked goes away before its answer', async () => {
    const before = await formsMade('br', 'as_written');
    await new Promise<void>((resolve) => {
      const req = request(worldUrl(large), { headers: { ...preflight, 'accept-encoding': 'br' } });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.end(() => setTimeout(() => req.destroy(), 20));
    });
    const after = await raw(worldUrl(large), { headers: { ...preflight, 'accept-encoding': 'br' } });
    expect(after.status).toBe(200);
    expect(JSON.parse(decoded(after).toString())).toHaveProperty('data.allUpcomingEventsInArea');
    expect(await formsMade('br', 'as_written')).toBeGreaterThan(before);
  });
});

const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const redisAddress = new URL(redisUrl);
const redisUp = await isReachable(redisAddress.hostname, Number(redisAddress.port || 6379));

describe.skipIf(!redisUp)(`compressed answers in Redis (${redisUrl}${redisUp ? '' : ' does not answer: skipped'})`, () => {
  it('keeps the brotli form in the Redis entry, which another node serves as it is', async () => {
    const first = await startTestServer({ calendar: generateDemoCalendar({ events: 60, seed: 5, today: NOW }), clock: () => NOW, redisUrl });
    const second = await startTestServer({ database: first.database, clock: () => NOW, redisUrl, cacheNamespace: first.cacheNamespace });
    const redis = new Redis(redisUrl);
    try {
      const url = `${first.url}?${new URLSearchParams({ query: PAGE }).toString()}`;
      const plain = await raw(url, { headers: preflight });
      const brotli = await raw(url, { headers: { ...preflight, 'accept-encoding': 'br' } });
      let keys: string[] = [];
      for (let waited = 0; keys.length === 0 && waited < 50; waited++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        keys = await redis.keys(`${first.cacheNamespace}:rc2:*`);
      }
      expect(keys).toHaveLength(1);
      const entry = (await redis.getBuffer(keys[0]!))!;
      const newline = entry.indexOf(10);
      expect(entry.subarray(0, newline).toString()).toMatch(/ br$/);
      // About an eighth of the JSON, not the JSON.
      expect(entry.length - newline - 1).toBeLessThan(plain.bytes.length / 3);
      expect(brotliDecompressSync(entry.subarray(newline + 1)).equals(plain.bytes)).toBe(true);

      // The second node serving already (its read model built): its hit below reads nothing.
      expect((await raw(`${second.url}?${new URLSearchParams({ query: SMALL }).toString()}`, { headers: preflight })).status).toBe(200);
      const before = second.queryCount();
      const shared = await raw(`${second.url}?${new URLSearchParams({ query: PAGE }).toString()}`, { headers: { ...preflight, 'accept-encoding': 'br' } });
      expect(second.queryCount()).toBe(before);
      expect(shared.headers['etag']).toBe(brotli.headers['etag']);
      expect(shared.bytes.equals(entry.subarray(newline + 1))).toBe(true);
    } finally {
      await deleteCacheNamespace(redis, first.cacheNamespace);
      await redis.quit();
      await second.close();
      await first.close();
    }
  });
});
