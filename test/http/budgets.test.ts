import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetrics } from '../support/prometheus-metrics.js';
import { databaseLabel } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { NOW, VALID_KEY, httpCalendar } from './fixtures/http-calendar.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 1 + 41 (820 nodes) + 2 (totals) + 6 (three facets) = 50 points. */
const LARGE = 'query ($filter: Filter) { events(filter: $filter, pageSize: 820) { totalCount data { id title_nb } venues { name } organizers { name } categories { id } } }';
/** 1 + 7 (140 nodes) + 2 (totals) + 2 (a facet) = 12 points. */
const PAGE = 'query ($filter: Filter) { events(filter: $filter, pageSize: 140) { totalCount data { id title_nb } venues { name } } }';
/** 1 + 7 (140 nodes) + 2 (totals) = 10 points. */
const TEN = 'query ($filter: Filter) { events(filter: $filter, pageSize: 140) { totalCount data { id } } }';
/** 1 + 1 = 2 points. */
const SMALL = 'query ($filter: Filter) { events(filter: $filter, pageSize: 1) { data { id } } }';

let unique = 0;
/** Variables nobody sent before: the request must execute. */
const fresh = () => {
  unique += 1;
  return { filter: { fromDate: new Date(NOW.getTime() - unique * 1000).toISOString() } };
};

function post(server: TestServer, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

const from = (address: string) => ({ 'x-forwarded-for': address });

async function metric(server: TestServer, name: string, labels: Record<string, string>): Promise<number> {
  return parseMetrics(await (await fetch(`${server.origin}/metrics`)).text()).value(name, labels);
}

describe(`budgets (${databaseLabel})`, () => {
  describe('by default', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, env: { TRUST_PROXY: 'loopback' } });
    }, 60_000);
    afterAll(async () => server?.close());

    it('refuses nothing and sends no RateLimit headers, even to 200 quick executions of one caller', async () => {
      const answers = await Promise.all(Array.from({ length: 200 }, () => post(server, { query: SMALL, variables: fresh() }, from('203.0.113.1'))));
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.headers.get('ratelimit')).toBeNull();
        expect(answer.headers.get('ratelimit-policy')).toBeNull();
        await answer.arrayBuffer();
      }
      const asked = await post(server, { query: SMALL, variables: fresh(), extensions: { cost: true } }, from('203.0.113.1'));
      expect(((await asked.json()) as { extensions?: unknown }).extensions).toBeUndefined();
    }, 60_000);
  });

  describe('with budgets of 60 points a minute without a key and 600 with one', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        calendar: httpCalendar,
        clock: () => NOW,
        env: { TRUST_PROXY: 'loopback', RATE_LIMIT_ANONYMOUS: '60', RATE_LIMIT_KEY: '600' },
      });
    }, 60_000);
    afterAll(async () => server?.close());

    it('charges an execution its cost, says so in RateLimit headers and extensions.cost, and refuses what the budget cannot pay', async () => {
      const caller = from('203.0.113.10');
      const variables = fresh();
      const area = await post(server, { query: LARGE, variables, extensions: { cost: true } }, caller);
      expect(area.status).toBe(200);
      expect(area.headers.get('ratelimit-policy')).toBe('"anonymous";q=60;w=60');
      expect(area.headers.get('ratelimit')).toMatch(/^"anonymous";r=10;t=(49|50)$/);
      const body = (await area.json()) as { data: unknown; extensions: { cost: { requested: number; remaining: number; resetSeconds: number } } };
      expect(body.extensions.cost).toEqual({ requested: 50, remaining: 10, resetSeconds: expect.any(Number) as number });

      const queriesBefore = server.queryCount();
      const refusedBefore = await metric(server, 'calendar_budget_refused_total', { caller_class: 'anonymous' });
      const refused = await post(server, { query: PAGE, variables: fresh() }, caller);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^[12]$/);
      // r=11 when a loaded machine took over a second since the charge (60 points a minute refill one a second).
      expect(refused.headers.get('ratelimit')).toMatch(/^"anonymous";r=1[01];t=(4[89]|50)$/);
      const refusal = (await refused.json()) as { data?: unknown; errors: { message: string; extensions: Record<string, unknown> }[] };
      expect(refusal.data).toBeUndefined();
      expect(refusal.errors[0]!.extensions['code']).toBe('RATE_LIMITED');
      expect(refusal.errors[0]!.extensions['cost']).toMatchObject({ requested: 12, remaining: expect.toSatisfy((r: number) => r === 10 || r === 11) as number });
      // Nothing executed: not one statement more.
      expect(server.queryCount()).toBe(queriesBefore);
      expect(await metric(server, 'calendar_budget_refused_total', { caller_class: 'anonymous' })).toBe(refusedBefore + 1);

      // A cached answer costs nothing and is never refused: GET, its 304, and POST.
      const again = await post(server, { query: LARGE, variables, extensions: { cost: true } }, caller);
      expect(again.status).toBe(200);
      expect(again.headers.get('ratelimit')).toMatch(/^"anonymous";r=1[01];t=/);
      expect(((await again.json()) as { extensions: { cost: { requested: number } } }).extensions.cost.requested).toBe(0);
    });

    it('answers a cached GET to a caller over its budget, 304 included, with RateLimit headers and no cost in the shared body', async () => {
      const caller = from('203.0.113.11');
      const variables = fresh();
      const get = (headers: Record<string, string> = {}) =>
        fetch(`${server.url}?query=${encodeURIComponent(LARGE)}&variables=${encodeURIComponent(JSON.stringify(variables))}&extensions=${encodeURIComponent('{"cost":true}')}`, {
          headers: { 'service-require-preflight': 'true', ...caller, ...headers },
        });
      const first = await get();
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(((await first.json()) as { extensions?: unknown }).extensions).toBeUndefined();
      expect((await post(server, { query: PAGE, variables: fresh() }, caller)).status).toBe(429);
      const hit = await get();
      expect(hit.status).toBe(200);
      expect(hit.headers.get('cache-control')).toMatch(/^public/);
      expect(hit.headers.get('ratelimit')).toMatch(/^"anonymous";r=10;t=/);
      await hit.arrayBuffer();
      const notModified = await get({ 'if-none-match': etag });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('ratelimit-policy')).toBe('"anonymous";q=60;w=60');
    });

    it('keeps other callers’ budgets apart: another address, and a key, are served', async () => {
      const spent = from('203.0.113.12');
      expect((await post(server, { query: LARGE, variables: fresh() }, spent)).status).toBe(200);
      expect((await post(server, { query: PAGE, variables: fresh() }, spent)).status).toBe(429);

      const other = await post(server, { query: PAGE, variables: fresh() }, from('203.0.113.13'));
      expect(other.status).toBe(200);
      expect(other.headers.get('ratelimit')).toMatch(/^"anonymous";r=48;t=1[12]$/);

      const keyed = await post(server, { query: PAGE, variables: fresh() }, { ...spent, 'x-api-key': VALID_KEY });
      expect(keyed.status).toBe(200);
      expect(keyed.headers.get('ratelimit-policy')).toBe('"key";q=600;w=60');
      expect(keyed.headers.get('ratelimit')).toMatch(/^"key";r=588;t=2$/);
    });

    it('refuses a caller whose budget cannot pay one point before it waits for a turn to execute', async () => {
      const caller = from('203.0.113.15');
      // 50 points, then the 10 left (refilled by a point a second meanwhile: less than one is left).
      expect((await post(server, { query: LARGE, variables: fresh() }, caller)).status).toBe(200);
      expect((await post(server, { query: TEN, variables: fresh() }, caller)).status).toBe(200);
      const executionsBefore = await metric(server, 'calendar_executions_total', { caller_class: 'anonymous' });
      const refused = await post(server, { query: SMALL, variables: fresh() }, caller);
      expect(refused.status).toBe(429);
      const body = (await refused.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
      expect(body.errors[0]!.extensions['code']).toBe('RATE_LIMITED');
      expect(body.errors[0]!.message).toMatch(/budget \(60 points per minute\) is spent/);
      expect(body.errors[0]!.extensions['cost']).toMatchObject({ requested: 1, remaining: 0 });
      expect(refused.headers.get('retry-after')).toBe('1');
      // It never took a turn: no execution started for it.
      expect(await metric(server, 'calendar_executions_total', { caller_class: 'anonymous' })).toBe(executionsBefore);
    });

    it('charges an iCalendar feed render 10 points, a cached feed nothing, and refuses a render the budget cannot pay', async () => {
      const caller = from('203.0.113.16');
      const feed = (query: string) => fetch(`${server.origin}/events.ics?${query}`, { headers: caller });
      const rendered = await feed('fromDate=2026-01-01T00:00:00%2B01:00');
      expect(rendered.status).toBe(200);
      expect(rendered.headers.get('ratelimit-policy')).toBe('"anonymous";q=60;w=60');
      expect(rendered.headers.get('ratelimit')).toMatch(/^"anonymous";r=50;t=1[01]$/);
      await rendered.arrayBuffer();
      const cached = await feed('fromDate=2026-01-01T00:00:00%2B01:00');
      expect(cached.status).toBe(200);
      expect(cached.headers.get('ratelimit')).toMatch(/^"anonymous";r=50;t=/);
      await cached.arrayBuffer();

      // 3 × 12 + 10 points: about 4 left, short of a render.
      for (let i = 0; i < 3; i += 1) expect((await post(server, { query: PAGE, variables: fresh() }, caller)).status).toBe(200);
      expect((await post(server, { query: TEN, variables: fresh() }, caller)).status).toBe(200);
      const refused = await feed('fromDate=2026-01-02T00:00:00%2B01:00');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(4);
      expect(refused.headers.get('ratelimit')).toMatch(/^"anonymous";r=[45];t=/);
      expect(await refused.text()).toMatch(/costs 10 points/);
    });

    it('serves the caller again once its bucket has refilled', async () => {
      const caller = from('203.0.113.14');
      expect((await post(server, { query: LARGE, variables: fresh() }, caller)).status).toBe(200);
      const refused = await post(server, { query: PAGE, variables: fresh() }, caller);
      expect(refused.status).toBe(429);
      await sleep(Number(refused.headers.get('retry-after')) * 1000 + 100);
      expect((await post(server, { query: PAGE, variables: fresh() }, caller)).status).toBe(200);
    });
  });

  describe.skipIf(!process.env['REDIS_URL'])('shared through Redis', () => {
    let first: TestServer;
    let second: TestServer;
    beforeAll(async () => {
      const env = { TRUST_PROXY: 'loopback', RATE_LIMIT_ANONYMOUS: '60' };
      const cacheNamespace = `test:budgets:${Date.now()}`;
      first = await startTestServer({ calendar: httpCalendar, clock: () => NOW, env, cacheNamespace });
      second = await startTestServer({ database: first.database, clock: () => NOW, env, cacheNamespace });
    }, 60_000);
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('keeps one bucket per caller across the nodes', async () => {
      const caller = from('203.0.113.30');
      const spent = await post(first, { query: LARGE, variables: fresh() }, caller);
      expect(spent.status).toBe(200);
      expect(spent.headers.get('ratelimit')).toMatch(/^"anonymous";r=10;t=/);
      const refused = await post(second, { query: PAGE, variables: fresh() }, caller);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('ratelimit')).toMatch(/^"anonymous";r=10;t=/);
      // Another caller at the second node still has its whole budget.
      expect((await post(second, { query: PAGE, variables: fresh() }, from('203.0.113.31'))).status).toBe(200);
    });
  });
});
