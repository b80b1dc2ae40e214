import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCalendar } from '../../src/import/import-calendar.js';
import { databaseLabel } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { freePort } from '../support/throwaway-postgres.js';
import { startThrowawayVarnish, throwawayVarnishUnavailable, type ThrowawayVarnish } from '../support/throwaway-varnish.js';
import { NOW } from './fixtures/http-calendar.js';

const unavailable = throwawayVarnishUnavailable();
if (unavailable) console.warn(`CDN purge tests through Varnish skipped: ${unavailable}.`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const EVENTS = 240;
const id = (n: number) => `E-${String(n).padStart(3, '0')}`;
const venue = (n: number) => ({
  id: `V-${n}`,
  slug: `scene-${n}`,
  name: `Scene ${n}`,
  address: `Gate ${n}`,
  postalCode: '0150',
  municipality: 'Oslo',
  location: { latitude: 59.91 + n / 1000, longitude: 10.75 },
});
const event = (n: number) => ({
  id: id(n),
  slug: id(n).toLowerCase(),
  title_nb: `Arrangement ${n}`,
  title_en: `Event ${n}`,
  categories: ['CONCERT'],
  organizers: ['ORG-1'],
  // Event 1 is at Scene 1 with a few others; the rest at Scene 2.
  venue: n <= 10 ? 'V-1' : 'V-2',
  ticketsInformation: 'free',
  dates: [{ start: new Date(NOW.getTime() + (n + 24) * 3_600_000).toISOString(), end: null }],
  created_at: '2026-04-01T10:00:00+02:00',
  updated_at: '2026-04-01T10:00:00+02:00',
});
const calendar = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [venue(1), venue(2)],
  organizers: [{ id: 'ORG-1', slug: 'konsertforeningen', name: 'Konsertforeningen', website: 'https://example.org' }],
  events: Array.from({ length: EVENTS }, (_, i) => event(i + 1)),
};

const eventPage = (n: number) => `{ eventByID(eventID: "${id(n)}") { id title_nb venue { name } } }`;
const venueListing = '{ events(filter: { venueSlug: "scene-1" }) { totalCount data { id title_nb } } }';
const venuesList = '{ venues { slug name } }';
/** Event pages the imports below never touch (event 1 is retitled). */
const untouched = Array.from({ length: 200 }, (_, i) => i + 41);

/**
 * Issue 28's acceptance: two nodes over one database, each behind its own Varnish edge running the
 * shipped VCL, both edges in CDN_PURGE_URLS. Imports are seen at both edges within a second, pages
 * they did not touch stay cached, and the edges answer through an origin outage.
 */
describe.skipIf(unavailable)(`two nodes behind two Varnish edges, purged after each import (${databaseLabel})`, () => {
  const nodes: TestServer[] = [];
  const edges: ThrowawayVarnish[] = [];

  beforeAll(async () => {
    const edgePorts = [await freePort(), await freePort()];
    const env = { CDN_PURGE_URLS: edgePorts.map((port) => `http://127.0.0.1:${port}/`).join(',') };
    nodes.push(await startTestServer({ calendar, clock: () => NOW, env }));
    nodes.push(await startTestServer({ database: nodes[0]!.database, clock: () => NOW, env }));
    for (const [i, node] of nodes.entries()) edges.push(await startThrowawayVarnish(Number(new URL(node.origin).port), { port: edgePorts[i]! }));
  }, 60_000);
  afterAll(async () => {
    for (const edge of edges) await edge.stop();
    for (const node of nodes.reverse()) await node.close();
  });

  const viaEdge = (edge: ThrowawayVarnish, query: string) =>
    fetch(`${edge.origin}/graphQL?query=${encodeURIComponent(query)}`, { headers: { 'service-require-preflight': 'true' } });
  /** Varnish's `X-Varnish` holds two transaction ids on a hit (this request's and the copy's). */
  const fromCopy = (response: Response) => (response.headers.get('x-varnish') ?? '').trim().split(/\s+/).length === 2;

  /** A GET through an edge as a client with this Accept-Encoding sends it, the bytes as they came. */
  const rawViaEdge = (edge: ThrowawayVarnish, query: string, acceptEncoding: string | undefined) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer; fromCopy: boolean }>((resolve, reject) => {
      const headers: Record<string, string> = { 'service-require-preflight': 'true' };
      if (acceptEncoding) headers['accept-encoding'] = acceptEncoding;
      request(`${edge.origin}/graphQL?query=${encodeURIComponent(query)}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const fromCopy = String(res.headers['x-varnish'] ?? '').trim().split(/\s+/).length === 2;
          resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks), fromCopy });
        });
      })
        .on('error', reject)
        .end();
    });
  const decodedBody = (response: { headers: IncomingHttpHeaders; bytes: Buffer }) =>
    response.headers['content-encoding'] === 'br' ? brotliDecompressSync(response.bytes) : response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.bytes) : response.bytes;

  /** Polls every edge until `shows` holds for the answer to `query` at each; the ms it took. */
  async function untilEveryEdge(query: string, shows: (body: string) => boolean, timeoutMs = 5_000): Promise<number> {
    const started = performance.now();
    const pending = new Set(edges);
    while (pending.size > 0) {
      for (const edge of [...pending]) {
        const response = await viaEdge(edge, query);
        if (response.status === 200 && shows(await response.text())) pending.delete(edge);
      }
      if (performance.now() - started > timeoutMs) throw new Error(`not at every edge within ${timeoutMs} ms: ${query}`);
      if (pending.size > 0) await sleep(20);
    }
    return performance.now() - started;
  }

  it('shows a retitled event on its page and in its venue’s listing at both edges within a second; untouched pages stay cached', async () => {
    for (const edge of edges) {
      for (const query of [eventPage(1), venueListing, ...untouched.map(eventPage)]) expect((await viaEdge(edge, query)).status).toBe(200);
      // Cached now.
      expect(fromCopy(await viaEdge(edge, eventPage(1)))).toBe(true);
    }

    await importCalendar(nodes[0]!.database, { events: [{ ...event(1), title_nb: 'Nytt navn på arrangement 1' }] });
    const [page, listing] = await Promise.all([
      untilEveryEdge(eventPage(1), (body) => body.includes('Nytt navn på arrangement 1')),
      untilEveryEdge(venueListing, (body) => body.includes('Nytt navn på arrangement 1')),
    ]);
    expect(page).toBeLessThan(1_000);
    expect(listing).toBeLessThan(1_000);

    let hits = 0;
    for (const edge of edges) for (const n of untouched) if (fromCopy(await viaEdge(edge, eventPage(n)))) hits += 1;
    expect(hits / (2 * untouched.length)).toBeGreaterThanOrEqual(0.9);
  });

  it('shows a new venue in `venues` at both edges within a second', async () => {
    for (const edge of edges) {
      await viaEdge(edge, venuesList);
      expect(fromCopy(await viaEdge(edge, venuesList))).toBe(true);
    }
    await importCalendar(nodes[0]!.database, { venues: [venue(3)] });
    expect(await untilEveryEdge(venuesList, (body) => body.includes('scene-3'))).toBeLessThan(1_000);
  });

  it('serves the events page compressed from its copies (brotli passed through, gzip its own), and an import shows in each coding at both edges within a second', async () => {
    const page = '{ events(pageSize: 50) { totalCount data { id title_nb title_en startDate venue { name slug } } } }';
    const codings: [acceptEncoding: string | undefined, sent: string | undefined][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      [undefined, undefined],
    ];
    let identity: Buffer | undefined;
    for (const edge of edges) {
      for (const [acceptEncoding, sent] of codings) {
        await rawViaEdge(edge, page, acceptEncoding);
        const copy = await rawViaEdge(edge, page, acceptEncoding);
        expect(copy.status).toBe(200);
        expect(copy.fromCopy, `${String(acceptEncoding)} at ${edge.origin}`).toBe(true);
        expect(copy.headers['content-encoding'], String(acceptEncoding)).toBe(sent);
        identity ??= decodedBody(copy);
        expect(decodedBody(copy).equals(identity)).toBe(true);
        if (sent) expect(copy.bytes.length).toBeLessThan(identity.length / 3);
      }
    }
    expect(identity!.length).toBeGreaterThan(4000);

    await importCalendar(nodes[0]!.database, { events: [{ ...event(2), title_nb: 'Nytt navn på arrangement 2' }] });
    const started = performance.now();
    const pending = new Set(edges.flatMap((edge) => codings.map(([acceptEncoding]) => ({ edge, acceptEncoding }))));
    while (pending.size > 0 && performance.now() - started < 5_000) {
      for (const ask of [...pending]) {
        const response = await rawViaEdge(ask.edge, page, ask.acceptEncoding);
        if (response.status === 200 && decodedBody(response).toString().includes('Nytt navn på arrangement 2')) pending.delete(ask);
      }
      if (pending.size > 0) await sleep(20);
    }
    expect(pending.size).toBe(0);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

});

/**
 * The edges through an outage of every node: each page they hold is answered, unchanged, while both
 * nodes are stopped, past its copy's freshness (s-maxage) and stale-while-revalidate window, from
 * Varnish's grace (stale-if-error: a day). With the service's TTLs a copy gets there after 45 s (an
 * event page: 30 s + 15 s) or never within a test (the catalogues: an hour); with TTLs of 4 s (2 s of
 * stale-while-revalidate) every page held, the catalogue's too, crosses all three windows within the
 * outage, which lasts 15 s.
 */
describe.skipIf(unavailable)(`two nodes behind two Varnish edges, both nodes stopped (${databaseLabel})`, () => {
  const TTL_MS = 4_000;
  const OUTAGE_MS = 15_000;
  const nodes: TestServer[] = [];
  const edges: ThrowawayVarnish[] = [];
  let nodesClosed = false;

  beforeAll(async () => {
    const responseTtlMs = { eventByID: TTL_MS, events: TTL_MS, venues: TTL_MS };
    nodes.push(await startTestServer({ calendar, clock: () => NOW, responseTtlMs }));
    nodes.push(await startTestServer({ database: nodes[0]!.database, clock: () => NOW, responseTtlMs }));
    for (const node of nodes) edges.push(await startThrowawayVarnish(Number(new URL(node.origin).port)));
  }, 60_000);
  afterAll(async () => {
    for (const edge of edges) await edge.stop();
    if (!nodesClosed) for (const node of nodes.reverse()) await node.close();
  });

  const viaEdge = (edge: ThrowawayVarnish, query: string) =>
    fetch(`${edge.origin}/graphQL?query=${encodeURIComponent(query)}`, { headers: { 'service-require-preflight': 'true' } });

  it('answers every page it holds, unchanged, while both nodes are stopped long past each copy’s freshness (from grace)', async () => {
    const held = [eventPage(1), venueListing, venuesList, ...untouched.slice(0, 20).map(eventPage)];
    const bodies = new Map<string, string>();
    for (const edge of edges) {
      for (const query of held) {
        const response = await viaEdge(edge, query);
        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toContain(`s-maxage=${TTL_MS / 1000}, stale-while-revalidate=${TTL_MS / 2000}`);
        bodies.set(query, await response.text());
      }
    }

    for (const node of nodes) await node.close();
    nodesClosed = true;
    const failures: string[] = [];
    let rounds = 0;
    const stopAt = performance.now() + OUTAGE_MS;
    while (performance.now() < stopAt) {
      for (const edge of edges) {
        for (const query of held) {
          const response = await viaEdge(edge, query);
          const body = await response.text();
          if (response.status !== 200 || body !== bodies.get(query)) failures.push(`${response.status} ${query}`);
        }
      }
      rounds += 1;
      await sleep(500);
    }
    expect(failures).toEqual([]);
    expect(rounds).toBeGreaterThan(10);
    // The last answers came from copies older than their TTL and stale-while-revalidate together: grace.
    for (const edge of edges) {
      for (const query of held) {
        const response = await viaEdge(edge, query);
        expect(response.status).toBe(200);
        expect(Number(response.headers.get('age'))).toBeGreaterThan((TTL_MS * 1.5) / 1000);
      }
    }
  }, 60_000);
});
