import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { startThrowawayVarnish, throwawayVarnishUnavailable, type ThrowawayVarnish } from '../support/throwaway-varnish.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

const unavailable = throwawayVarnishUnavailable();
// One line where the edge tests cannot run (Vitest's summary names no skipped test).
if (unavailable) console.warn(`CDN edge tests skipped: ${unavailable}.`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `events` answers live 2 s here (stale-while-revalidate 1 s), so the edge's windows pass within a test. */
const EVENTS_TTL_MS = 2_000;

describe.skipIf(unavailable)(`a Varnish edge running deploy/varnish/default.vcl (${databaseLabel})`, () => {
  let server: TestServer;
  let edge: ThrowawayVarnish;
  let serverClosed = false;
  beforeAll(async () => {
    // A budget no test spends, so that answers carry RateLimit headers the edge must not share.
    const env = { RATE_LIMIT_ANONYMOUS: '1000000' };
    server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, responseTtlMs: { events: EVENTS_TTL_MS }, env });
    edge = await startThrowawayVarnish(Number(new URL(server.origin).port));
  });
  afterAll(async () => {
    await edge?.stop();
    if (!serverClosed) await server?.close();
  });

  const viaEdge = (query: string) =>
    fetch(`${edge.origin}/graphQL?query=${encodeURIComponent(query)}`, { headers: { 'service-require-preflight': 'true' } });
  /** Varnish's `X-Varnish` holds two transaction ids on a hit (this request's and the copy's), one on a miss or pass. */
  const fromCopy = (response: Response) => (response.headers.get('x-varnish') ?? '').trim().split(/\s+/).length === 2;

  it('keeps GET answers and answers the next identical request from its copy; POST passes to the service', async () => {
    const query = '{ events { totalCount data { id } } }';
    const first = await viaEdge(query);
    expect(first.status).toBe(200);
    expect(fromCopy(first)).toBe(false);
    const second = await viaEdge(query);
    expect(second.status).toBe(200);
    expect(fromCopy(second)).toBe(true);
    expect(await second.text()).toBe(await first.text());
    // The edge's own bookkeeping never reaches the client.
    expect(second.headers.get('x-stale-while-revalidate')).toBeNull();
    expect(second.headers.get('xkey')).toBeNull();
    expect(second.headers.get('surrogate-key')).toBeNull();
    // The service told the caller that fetched it its budget; the copy tells nobody else.
    const direct = await fetch(`${server.url}?query=${encodeURIComponent(query)}`, { headers: { 'service-require-preflight': 'true' } });
    expect(direct.headers.get('ratelimit-policy')).toBe('"anonymous";q=1000000;w=60');
    await direct.arrayBuffer();
    expect(second.headers.get('ratelimit')).toBeNull();
    expect(second.headers.get('ratelimit-policy')).toBeNull();

    const post = () =>
      fetch(`${edge.origin}/graphQL`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const posts = [await post(), await post()];
    expect(posts.map((response) => response.status)).toEqual([200, 200]);
    expect(posts.some(fromCopy)).toBe(false);
  });

  it('fetches afresh once a copy is past its stale-while-revalidate while the service answers', async () => {
    const query = '{ events(pageSize: 2) { data { id title_nb } } }';
    expect((await viaEdge(query)).status).toBe(200);
    expect(fromCopy(await viaEdge(query))).toBe(true);
    // Past the TTL (2 s) and the stale-while-revalidate window (1 s): not served stale.
    await sleep(EVENTS_TTL_MS * 1.5 + 500);
    const later = await viaEdge(query);
    expect(later.status).toBe(200);
    expect(fromCopy(later)).toBe(false);
    expect(Number(later.headers.get('age'))).toBeLessThanOrEqual(1);
  });

  it('answers from its copies while the service is down (stale-if-error), well past their freshness', async () => {
    const query = '{ events(pageSize: 3) { totalCount data { id startDate } } }';
    const cached = await viaEdge(query);
    expect(cached.status).toBe(200);
    const body = await cached.text();

    await server.close();
    serverClosed = true;
    // At once (the edge still believes the service healthy: a fetch fails, the copy answers) and
    // after the health probe has marked it down, both past the copy's TTL and stale window.
    await sleep(EVENTS_TTL_MS * 1.5 + 500);
    const soon = await viaEdge(query);
    expect(soon.status).toBe(200);
    expect(await soon.text()).toBe(body);
    await sleep(3_000);
    const later = await viaEdge(query);
    expect(later.status).toBe(200);
    expect(await later.text()).toBe(body);

    // What the edge never had cannot be answered.
    expect((await viaEdge('{ events(pageSize: 4) { data { id } } }')).status).toBe(503);
  });
});
