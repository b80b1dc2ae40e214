import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importCalendar } from '../../src/import/import-calendar.js';
import { parseMetrics } from '../support/prometheus-metrics.js';
import { databaseLabel } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

/** One request a stand-in received. */
interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when it arrived. */
  at: number;
}

/**
 * Stands in for a Varnish edge (`/varnish/...`), Fastly's API (`/fastly/...`) and Cloudflare's
 * (`/cloudflare/...`): records every request and answers what `answer` says (by default what each
 * documents for a purge that worked).
 */
class PurgeStandIn {
  readonly received: Received[] = [];
  answer: (request: Received) => { status: number; headers?: Record<string, string>; body?: string } | 'hang' = (request) =>
    request.path.startsWith('/cloudflare/') ? { status: 200, body: JSON.stringify({ success: true, errors: [], messages: [], result: { id: 'zone' } }) } : { status: 200, body: '{"status":"ok"}' };
  private server!: Server;
  origin = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const request = { method: req.method!, path: req.url!, headers: req.headers, body, at: Date.now() };
        this.received.push(request);
        const answer = this.answer(request);
        if (answer === 'hang') return;
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  to(prefix: string): Received[] {
    return this.received.filter((r) => r.path.startsWith(`/${prefix}/`));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await sleep(20);
  }
}

/** The tags of a Surrogate-Key header or a Cloudflare body. */
const keysOf = (request: Received): string[] =>
  request.path.startsWith('/cloudflare/') ? (JSON.parse(request.body) as { tags: string[] }).tags : String(request.headers['surrogate-key'] ?? '').split(' ').filter(Boolean);

const retitled = (id: string, title: string) => ({
  events: [{ ...httpCalendar.events.find((e) => e.id === id)!, title_nb: title }],
});

describe(`purging the CDN after an import (${databaseLabel})`, () => {
  const standIn = new PurgeStandIn();
  let first: TestServer;
  let second: TestServer;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    await standIn.start();
    const env = {
      CDN_PURGE_URLS: `${standIn.origin}/varnish/edge-1/, ${standIn.origin}/varnish/edge-2/`,
      FASTLY_SERVICE_ID: 'SU1Z0isxPaozGVKXdv0eY',
      FASTLY_API_TOKEN: 'fastly-token-for-tests',
      FASTLY_API_URL: `${standIn.origin}/fastly`,
      CLOUDFLARE_ZONE_ID: '023e105f4ecef8ad9ca31a8372d0c353',
      CLOUDFLARE_API_TOKEN: 'cloudflare-token-for-tests',
      CLOUDFLARE_API_URL: `${standIn.origin}/cloudflare/client/v4`,
    };
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const logger = pino({ level: 'warn', base: undefined }, sink);
    const cdnPurgeRetry = { windowMs: 3_000, firstDelayMs: 50 };
    // Two nodes over one database: each import is purged once, by whichever claims it.
    first = await startTestServer({ calendar: httpCalendar, clock: () => NOW, env, logger, cdnPurgeRetry });
    second = await startTestServer({ database: first.database, clock: () => NOW, env, logger, cdnPurgeRetry });
    // The first import (before the nodes started) is purged once they serve it.
    await until(() => (standIn.to('cloudflare').length > 0 ? true : undefined));
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await standIn.stop();
  });
  afterEach(() => {
    standIn.answer = new PurgeStandIn().answer;
    standIn.received.length = 0;
    logLines.length = 0;
  });

  it('purges an edited event’s tag and `events` once, at every target, in each one’s documented request shape', async () => {
    standIn.received.length = 0;
    await importCalendar(first.database, retitled('E-2', 'Nytt navn'));
    await until(() => (standIn.received.length >= 4 ? true : undefined));
    // Time for a second node's duplicate to show up, if there were one.
    await sleep(1_500);
    expect(standIn.received).toHaveLength(4);

    const edges = standIn.to('varnish');
    expect(edges.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['PURGE /varnish/edge-1/', 'PURGE /varnish/edge-2/']);
    for (const edge of edges) expect(new Set(keysOf(edge))).toEqual(new Set(['events', 'event-E-2']));

    const [fastly] = standIn.to('fastly');
    expect(fastly!.method).toBe('POST');
    expect(fastly!.path).toBe('/fastly/service/SU1Z0isxPaozGVKXdv0eY/purge');
    expect(fastly!.headers['fastly-key']).toBe('fastly-token-for-tests');
    expect(fastly!.headers['fastly-soft-purge']).toBe('1');
    expect(new Set(keysOf(fastly!))).toEqual(new Set(['events', 'event-E-2']));

    const [cloudflare] = standIn.to('cloudflare');
    expect(cloudflare!.method).toBe('POST');
    expect(cloudflare!.path).toBe('/cloudflare/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/purge_cache');
    expect(cloudflare!.headers['authorization']).toBe('Bearer cloudflare-token-for-tests');
    expect(cloudflare!.headers['content-type']).toBe('application/json');
    expect(Object.keys(JSON.parse(cloudflare!.body) as object)).toEqual(['tags']);
    expect(new Set(keysOf(cloudflare!))).toEqual(new Set(['events', 'event-E-2']));
  });

  it('purges a catalogue that changed, and the events that show a renamed venue', async () => {
    await importCalendar(first.database, {
      venues: [{ ...httpCalendar.venues[0]!, name: 'Sentrum Scene (nytt navn)' }, { id: 'V-2', slug: 'ny-scene', name: 'Ny scene', address: 'Gata 2', postalCode: '0150', municipality: 'Oslo' }],
    });
    const [edge] = await until(() => (standIn.to('varnish').length >= 2 ? standIn.to('varnish') : undefined));
    expect(new Set(keysOf(edge!))).toEqual(new Set(['venues', 'events', 'event-E-1', 'event-E-2', 'event-E-3']));

    standIn.received.length = 0;
    await importCalendar(first.database, { organizers: [{ id: 'ORG-2', slug: 'nye-arrangorer', name: 'Nye arrangører', website: null }] });
    const [onlyOrganizers] = await until(() => (standIn.to('varnish').length >= 2 ? standIn.to('varnish') : undefined));
    expect(keysOf(onlyOrganizers!)).toEqual(['organizers']);
  });

  it('sends nothing for an import that changed nothing a reader sees', async () => {
    await importCalendar(first.database, { events: [httpCalendar.events[0]!] });
    await sleep(1_500);
    expect(standIn.received).toEqual([]);
  });

  it('batches to each CDN’s limits, and purges `all` past a thousand changed events', async () => {
    const many = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, i) => ({ ...httpCalendar.events[0]!, id: `${prefix}-${i}`, slug: `${prefix.toLowerCase()}-${i}` }));
    await importCalendar(first.database, { events: many(300, 'BATCH') });
    await until(() => (standIn.to('cloudflare').length >= 4 && standIn.to('fastly').length >= 2 ? true : undefined));
    await sleep(300);
    // 301 tags: Fastly takes 256 keys a request, Cloudflare 100 tags.
    expect(standIn.to('fastly').map((r) => keysOf(r).length)).toEqual([256, 45]);
    expect(standIn.to('cloudflare').map((r) => keysOf(r).length)).toEqual([100, 100, 100, 1]);
    const sent = new Set(standIn.to('cloudflare').flatMap(keysOf));
    expect(sent.size).toBe(301);
    expect(sent.has('event-BATCH-299')).toBe(true);
    // Varnish: as many keys per PURGE as fit its request header limit.
    for (const edge of standIn.to('varnish')) expect(Buffer.byteLength(String(edge.headers['surrogate-key']))).toBeLessThanOrEqual(4_000);

    standIn.received.length = 0;
    await importCalendar(first.database, { events: many(1_200, 'BULK') });
    await until(() => (standIn.received.length >= 4 ? true : undefined));
    await sleep(300);
    expect(standIn.received.map(keysOf)).toEqual([['all'], ['all'], ['all'], ['all']]);
  });

  it('retries a target that fails (waiting out a Retry-After), logs each failure, counts them, and never holds up the import', async () => {
    const failures = new Map<string, number>();
    standIn.answer = (request) => {
      const target = request.path.split('/')[1]!;
      const failed = failures.get(target) ?? 0;
      if (target === 'cloudflare' && failed === 0) {
        failures.set(target, 1);
        return { status: 429, headers: { 'retry-after': '1' }, body: JSON.stringify({ success: false, errors: [{ code: 1134, message: 'rate limited' }] }) };
      }
      if (target === 'fastly' && failed < 2) {
        failures.set(target, failed + 1);
        return { status: 503, body: 'unavailable' };
      }
      return new PurgeStandIn().answer(request);
    };
    const before = parseMetrics(await (await fetch(`${first.origin}/metrics`)).text());
    const started = Date.now();
    await importCalendar(first.database, retitled('E-3', 'Prøv igjen'));
    expect(Date.now() - started).toBeLessThan(1_000);
    await until(() => (standIn.to('cloudflare').length >= 2 && standIn.to('fastly').length >= 3 ? true : undefined));
    const [refused, delivered] = standIn.to('cloudflare');
    // Retry-After: 1 is waited for, not the first backoff step (50 ms here).
    expect(delivered!.at - refused!.at).toBeGreaterThanOrEqual(950);
    expect(keysOf(delivered!)).toEqual(keysOf(refused!));
    const warnings = logLines.filter((line) => line['msg'] === 'CDN purge failed: retrying');
    expect(warnings.map((line) => line['target'])).toEqual(
      expect.arrayContaining(['fastly service SU1Z0isxPaozGVKXdv0eY', 'cloudflare zone 023e105f4ecef8ad9ca31a8372d0c353']),
    );
    expect(warnings).toHaveLength(3);
    expect(warnings.find((line) => String(line['target']).startsWith('cloudflare'))!['retryInMs']).toBe(1_000);
    // No token in any log line.
    expect(JSON.stringify(logLines)).not.toMatch(/token-for-tests/);

    await sleep(200);
    const after = parseMetrics(await (await fetch(`${first.origin}/metrics`)).text());
    const delta = (name: string, labels: Record<string, string>) => after.value(name, labels) - before.value(name, labels);
    expect(delta('calendar_cdn_purge_attempt_failures_total', { target: 'fastly' })).toBe(2);
    expect(delta('calendar_cdn_purge_attempt_failures_total', { target: 'cloudflare' })).toBe(1);
    expect(delta('calendar_cdn_purges_total', { target: 'fastly', outcome: 'delivered' })).toBe(1);
    expect(delta('calendar_cdn_purges_total', { target: 'varnish', outcome: 'delivered' })).toBe(2);
    expect(delta('calendar_cdn_purge_lag_seconds', {})).toBe(1);
  });

  it('gives a purge up after the retry window, with an error line, while requests and imports go on', async () => {
    standIn.answer = (request) => (request.path.startsWith('/varnish/edge-2/') ? 'hang' : new PurgeStandIn().answer(request));
    const started = Date.now();
    await importCalendar(first.database, retitled('E-1', 'Hengende kant'));
    expect(Date.now() - started).toBeLessThan(1_000);
    // Requests are answered meanwhile, from the new version.
    const answer = await fetch(first.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ eventByID(eventID: "E-1") { title_nb } }' }),
    });
    expect(await answer.json()).toEqual({ data: { eventByID: { title_nb: 'Hengende kant' } } });
    // A request times out after 5 s; the window (3 s here) has passed by then: given up.
    const gaveUp = await until(() => logLines.find((line) => line['msg'] === 'CDN purge failed: given up after the retry window (the copies there expire by their TTL)'), 10_000);
    expect(gaveUp['level']).toBe(50);
    expect(gaveUp['target']).toBe(`${standIn.origin}/varnish/edge-2/`);
    expect(standIn.to('varnish/edge-1')).toHaveLength(1);
  }, 15_000);
});
