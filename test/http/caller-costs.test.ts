import { describe, expect, it } from 'vitest';
import { listTopCallers } from '../../src/db/repositories/caller-costs.js';
import { hashApiKey } from '../../src/domain/api-key-hash.js';
import { UsageRecorder } from '../../src/identity/usage-recorder.js';
import { createLogger } from '../../src/logger.js';
import { createSharedDatabase } from '../support/shared-database.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { startTestServer } from '../support/test-server.js';
import { NOW, VALID_KEY, httpCalendar } from './fixtures/http-calendar.js';

/** 1 + 41 (820 nodes) + 2 (totals) + 6 (three facets) = 50 points. */
const LARGE = 'query ($filter: Filter) { events(filter: $filter, pageSize: 820) { totalCount data { id title_nb } venues { name } organizers { name } categories { id } } }';
/** 1 + 1 = 2 points. */
const SMALL = 'query ($filter: Filter) { events(filter: $filter, pageSize: 1) { data { id } } }';

let unique = 0;
/** Variables nobody sent before: the request must execute. */
const fresh = () => {
  unique += 1;
  return { filter: { fromDate: new Date(NOW.getTime() - unique * 1000).toISOString() } };
};
const from = (address: string) => ({ 'x-forwarded-for': address });

function post(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

describe(`what each caller cost (${databaseLabel})`, () => {
  it('counts the points of executions per key or address, cache hits at nothing, and the 429s each caller got', async () => {
    const server = await startTestServer({
      calendar: httpCalendar,
      clock: () => NOW,
      usageFlushIntervalMs: 100,
      env: { TRUST_PROXY: 'loopback', RATE_LIMIT_ANONYMOUS: '60' },
    });
    try {
      const heavy = from('203.0.113.40');
      const cached = fresh();
      expect((await post(server.url, { query: LARGE, variables: cached }, heavy)).status).toBe(200);
      // The same again: a cache hit costs nothing.
      expect((await post(server.url, { query: LARGE, variables: cached }, heavy)).status).toBe(200);
      // 10 points left: refused.
      expect((await post(server.url, { query: LARGE, variables: fresh() }, heavy)).status).toBe(429);
      for (let i = 0; i < 3; i += 1) expect((await post(server.url, { query: SMALL, variables: fresh() }, from('2001:db8:1:2::7'))).status).toBe(200);
      // The same /64: the same caller.
      expect((await post(server.url, { query: SMALL, variables: fresh() }, from('2001:db8:1:2::99'))).status).toBe(200);
      expect((await post(server.url, { query: SMALL, variables: fresh() }, { ...heavy, 'x-api-key': VALID_KEY })).status).toBe(200);
      const feed = await fetch(`${server.origin}/events.ics?fromDate=2026-01-01T00:00:00%2B01:00`, { headers: from('203.0.113.41') });
      expect(feed.status).toBe(200);
      await feed.arrayBuffer();

      await server.service.close();
      const rows = await listTopCallers(server.database.db, { since: '2026-05-01', limit: 10 });
      expect(rows.map(({ caller, points, executions, refused, application }) => ({ caller, points, executions, refused, application }))).toEqual([
        { caller: 'address:203.0.113.40', points: 50, executions: 1, refused: 1, application: null },
        { caller: 'address:203.0.113.41', points: 10, executions: 1, refused: 0, application: null },
        { caller: 'address:2001:db8:1:2::/64', points: 8, executions: 4, refused: 0, application: null },
        { caller: `key:${hashApiKey(VALID_KEY)}`, points: 2, executions: 1, refused: 0, application: 'Transport test app' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('counts at most the bounded number of callers apart per day, the rest as (other), and forgets days past 30', async () => {
    const database = await createTestDatabase();
    try {
      let now = new Date('2026-03-01T12:00:00Z');
      const recorder = new UsageRecorder({ db: database.db, logger: createLogger('silent'), clock: () => now, maxCallersPerDay: 2 });
      const caller = (n: number) => ({ shareKey: `address:198.51.100.${n}`, shareClass: 'anonymous' as const, keyHash: '' });
      recorder.recordCost(caller(1), { points: 5 });
      await recorder.flush();
      now = NOW;
      for (let n = 2; n <= 6; n += 1) recorder.recordCost(caller(n), { points: n });
      recorder.recordCost(caller(2), 'refused');
      recorder.recordCost({ shareKey: 'service', shareClass: 'service', keyHash: '' }, { points: 100 });
      await recorder.close();
      const rows = await listTopCallers(database.db, { since: '2026-01-01', limit: 10 });
      // 4 + 5 + 6 past the bound, together; the day in March (over 30 days before) is gone; refreshes are nobody's.
      expect(rows.map(({ caller, points, executions, refused }) => [caller, points, executions, refused])).toEqual([
        ['(other)', 15, 3, 0],
        ['address:198.51.100.3', 3, 1, 0],
        ['address:198.51.100.2', 2, 1, 1],
      ]);
    } finally {
      await database.close();
    }
  });

  it('prints the costliest callers with `calendar usage --callers`', async () => {
    const shared = await createSharedDatabase('callers');
    try {
      const recorder = new UsageRecorder({ db: shared.database.db, logger: createLogger('silent'), clock: () => NOW });
      recorder.recordCost({ shareKey: 'address:203.0.113.50', shareClass: 'anonymous', keyHash: '' }, { points: 40 });
      recorder.recordCost({ shareKey: 'address:203.0.113.50', shareClass: 'anonymous', keyHash: '' }, 'refused');
      recorder.recordCost({ shareKey: `key:${hashApiKey(VALID_KEY)}`, shareClass: 'key', keyHash: hashApiKey(VALID_KEY) }, { points: 12 });
      await recorder.close();
      await shared.release();

      const table = await shared.calendar(['usage', '--callers', '--days', '1'], NOW);
      const lines = table.stdout.trim().split('\n');
      expect(lines[0]).toBe('Costliest callers since 2026-05-04:');
      expect(lines[1]).toMatch(/^caller\s+class\s+points\s+executions\s+refused$/);
      expect(lines[2]).toMatch(/^203\.0\.113\.50\s+anonymous\s+40\s+1\s+1$/);
      expect(lines[3]).toMatch(/^deleted key [0-9a-f]{12}…\s+key\s+12\s+1\s+0$/);

      const json = await shared.calendar(['usage', '--callers', '--top', '1', '--json'], NOW);
      expect(JSON.parse(json.stdout)).toMatchObject([{ caller: 'address:203.0.113.50', points: 40, executions: 1, refused: 1 }]);

      const misuse = await shared.calendar(['usage', '--top', '3'], NOW).catch((error: { code: number; stderr: string }) => error);
      expect(misuse).toMatchObject({ code: 2, stderr: expect.stringMatching(/--top goes with --callers/) as unknown });
    } finally {
      await shared.remove();
    }
  });
});
