import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { listUsageCounts } from '../../src/db/repositories/usage-counts.js';
import { hashApiKey } from '../../src/domain/api-key-hash.js';
import { REVOKED_KEY_NOTICE, UNKNOWN_KEY_NOTICE } from '../../src/identity/caller-identity.js';
import { UsageRecorder } from '../../src/identity/usage-recorder.js';
import { createLogger } from '../../src/logger.js';
import { createSharedDatabase } from '../support/shared-database.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { getGraphQL, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW, REVOKED_KEY, UNKNOWN_KEY, VALID_KEY } from './fixtures/http-calendar.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, apiKeyCacheTtlMs: 300 });
});
afterAll(async () => server?.close());

const query = '{ categories { id } }';
const expectedData = { categories: [{ id: 'CONCERT' }, { id: 'THEATER' }] };

describe(`application keys (${databaseLabel})`, () => {
  it('answers a request without a key with no notice', async () => {
    const res = await postGraphQL(server.url, { query });
    expect(res.body).toEqual({ data: expectedData });
  });

  it('answers a valid key in X-Api-Key with no notice', async () => {
    const res = await postGraphQL(server.url, { query }, { 'x-api-key': VALID_KEY });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expectedData });
  });

  it('takes the key from the key query parameter where headers cannot be set', async () => {
    const valid = await postGraphQL(`${server.url}?key=${VALID_KEY}`, { query });
    expect(valid.body).toEqual({ data: expectedData });
    const unknown = await getGraphQL(server.url, { query, key: UNKNOWN_KEY });
    expect(unknown.body.extensions?.['notice']).toBe(UNKNOWN_KEY_NOTICE);
  });

  it('prefers the header to the query parameter', async () => {
    const res = await postGraphQL(`${server.url}?key=${UNKNOWN_KEY}`, { query }, { 'x-api-key': VALID_KEY });
    expect(res.body).toEqual({ data: expectedData });
  });

  it('answers an unknown key as anonymous, with a notice in plain words and the data', async () => {
    const res = await postGraphQL(server.url, { query }, { 'x-api-key': UNKNOWN_KEY });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expectedData);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.extensions).toEqual({ notice: UNKNOWN_KEY_NOTICE });
    expect(UNKNOWN_KEY_NOTICE).toMatch(/not known.*answered as anonymous/);
  });

  it('answers a revoked key as anonymous, with a notice saying it is revoked', async () => {
    const res = await postGraphQL(server.url, { query }, { 'x-api-key': REVOKED_KEY });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expectedData, extensions: { notice: REVOKED_KEY_NOTICE } });
    expect(REVOKED_KEY_NOTICE).toMatch(/revoked.*answered as anonymous/);
  });

  it('treats something that cannot be a key as unknown without asking the database', async () => {
    await postGraphQL(server.url, { query });
    const before = server.queryCount();
    const res = await postGraphQL(server.url, { query }, { 'x-api-key': 'not a key at all' });
    expect(res.body.extensions).toEqual({ notice: UNKNOWN_KEY_NOTICE });
    expect(server.queryCount()).toBe(before);
  });

  it('adds the notice to answers with errors too, and keeps it out of request errors', async () => {
    const invalid = await postGraphQL(server.url, { query: '{ events(page: -1) { totalCount } }' }, { 'x-api-key': UNKNOWN_KEY });
    expect(invalid.body).toMatchObject({ data: null, extensions: { notice: UNKNOWN_KEY_NOTICE } });
    const parseError = await postGraphQL(server.url, { query: '{' }, { 'x-api-key': UNKNOWN_KEY });
    expect(parseError.body).not.toHaveProperty('extensions');
  });

  it('reads a known key from the in-process cache, and sees a revocation after its TTL', async () => {
    // The cache reads Date.now(): freeze it, so a slow machine cannot expire the entry early, then
    // step past the TTL instead of sleeping.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const key = `hsk_identity_${randomBytes(8).toString('hex')}`;
      await server.database.db
        .insertInto('api_keys')
        .values({ key_hash: hashApiKey(key), key_prefix: key.slice(0, 12), application: 'Short-lived app' })
        .execute();
      await postGraphQL(server.url, { query }, { 'x-api-key': key });
      const before = server.queryCount();
      for (let i = 0; i < 5; i += 1) await postGraphQL(server.url, { query }, { 'x-api-key': key });
      expect(server.queryCount()).toBe(before);

      await sql`update api_keys set revoked = true where key_hash = ${hashApiKey(key)}`.execute(server.database.db);
      const within = await postGraphQL(server.url, { query }, { 'x-api-key': key });
      expect(within.body).toEqual({ data: expectedData });
      vi.setSystemTime(Date.now() + 350);
      const after = await postGraphQL(server.url, { query }, { 'x-api-key': key });
      expect(after.body.extensions).toEqual({ notice: REVOKED_KEY_NOTICE });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe(`usage counts (${databaseLabel})`, () => {
  it('counts per key, client id and page origin, in batches written off the hot path and on close', async () => {
    const counting = await startTestServer({ calendar: { apiKeys: httpCalendar.apiKeys }, clock: () => NOW, usageFlushIntervalMs: 100 });
    try {
      const page = { 'x-page-url': 'https://www.lokalavisa.example/kultur/helg?utm=1', 'x-client-id': 'kalender-web/2.1' };
      await postGraphQL(counting.url, { query }, { 'x-api-key': VALID_KEY, ...page });
      await getGraphQL(counting.url, { query, key: VALID_KEY }, { 'service-require-preflight': 'true', ...page });
      await postGraphQL(counting.url, { query }, { 'x-api-key': UNKNOWN_KEY, 'x-page-url': 'http://insecure.example/side' });
      await postGraphQL(counting.url, { query }, { 'x-api-key': REVOKED_KEY });
      // Not executed: a request error is not counted.
      await postGraphQL(counting.url, { query: '{ nope }' }, { 'x-api-key': VALID_KEY });

      // The flush runs on its own timer.
      await expect.poll(async () => (await listUsageCounts(counting.database.db)).reduce((n, r) => n + r.requests, 0), { timeout: 3000 }).toBe(4);

      await postGraphQL(counting.url, { query });
      await counting.service.close();
      const rows = await listUsageCounts(counting.database.db);
      expect(rows).toEqual([
        { day: '2026-05-04', keyHash: '', clientId: '', pageOrigin: '', requests: 3, application: null, keyPrefix: null },
        {
          day: '2026-05-04',
          keyHash: hashApiKey(VALID_KEY),
          clientId: 'kalender-web/2.1',
          pageOrigin: 'https://www.lokalavisa.example',
          requests: 2,
          application: 'Transport test app',
          keyPrefix: expect.any(String),
        },
      ]);
    } finally {
      await counting.database.close();
    }
  });

  it('prints the counts with `calendar usage`', async () => {
    const shared = await createSharedDatabase('usage');
    try {
      const recorder = new UsageRecorder({ db: shared.database.db, logger: createLogger('silent'), clock: () => NOW });
      for (let i = 0; i < 3; i += 1) recorder.record({ keyHash: '', clientId: 'kalender-app/1.0', pageOrigin: 'https://www.example.no' });
      recorder.record({ keyHash: hashApiKey(VALID_KEY), clientId: '', pageOrigin: '' });
      await recorder.close();
      await shared.release();

      const table = await shared.calendar(['usage', '--days', '1'], NOW);
      const lines = table.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^day\s+caller\s+client id\s+page origin\s+requests$/);
      expect(lines[1]).toMatch(/^2026-05-04\s+anonymous\s+kalender-app\/1\.0\s+https:\/\/www\.example\.no\s+3$/);
      expect(lines[2]).toMatch(/^2026-05-04\s+deleted key [0-9a-f]{12}…\s+-\s+-\s+1$/);

      const json = await shared.calendar(['usage', '--json'], NOW);
      expect(JSON.parse(json.stdout)).toHaveLength(2);
    } finally {
      await shared.remove();
    }
  });

  it('counts at most the bounded number of client id and page pairs apart per key and day, the rest as (other)', async () => {
    const database = await createTestDatabase();
    try {
      const recorder = new UsageRecorder({ db: database.db, logger: createLogger('silent'), clock: () => NOW, maxPairsPerKeyAndDay: 3 });
      for (let i = 0; i < 50; i++) recorder.record({ keyHash: '', clientId: `flood/${i}`, pageOrigin: '' });
      recorder.record({ keyHash: '', clientId: 'flood/0', pageOrigin: '' });
      await recorder.close();
      const rows = await listUsageCounts(database.db);
      expect(rows.map((r) => [r.clientId, r.pageOrigin, r.requests])).toEqual([
        ['(other)', '(other)', 47],
        ['flood/0', '', 2],
        ['flood/1', '', 1],
        ['flood/2', '', 1],
      ]);
    } finally {
      await database.close();
    }
  });
});
