/**
 * The HTTP figures of the response cache (issue 12), side by side in one run:
 * - a cached GET hit, and the same bytes from a bare `node:http` server (the wire-speed reference);
 * - the same hit asked with a browser's `Accept-Encoding` (brotli, from the form the answer keeps),
 *   and the same brotli bytes from a bare `node:http` server (issue 43);
 * - a cached GET hit whose variables set the deprecated `Filter.sortBy` (counted as a deprecated use);
 * - a 304 revalidation of that GET (`If-None-Match`);
 * - an uncached `{ categories { id name_nb } }`: every request a new cache key (a variable nobody
 *   declares), so the whole pipeline runs, and, when the service knows RESPONSE_CACHE=off, with the
 *   cache off altogether.
 *
 * Each server runs as a process pinned to CPU 0 (the service with its default settings: access log at info); wrk (Debian's package) loads it from CPU 1 with 50
 * connections: a warm-up, then BENCH_ROUNDS rounds of BENCH_SECONDS, median requests/s.
 *
 *   npx tsx bench/http.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/http.ts   # on PostgreSQL (schema bench_http_<N>)
 *   BENCH_SERVICE_DIR=/tmp/before BENCH_TAG=before_ npx tsx bench/http.ts   # another checkout as the service, on a schema of its own
 *   BENCH_EVENTS=10000 BENCH_ROUNDS=3 BENCH_SECONDS=5 ...
 */
import { startPinned, startPinnedService } from './support/pinned-process.js';
import { withOrigin, wrk as wrkLoad, type Load, type LoadedServer as Server } from './support/wrk.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
const databaseUrl = process.env['DATABASE_URL'];
const events = Number(process.env['BENCH_EVENTS'] ?? 10_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const seconds = Number(process.env['BENCH_SECONDS'] ?? 5);
const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const work = mkdtempSync(path.join(tmpdir(), 'bench-http-'));

// What a listing page of a frontend asks: a page of 10 with the fields a card shows.
const PAGE = `query Page($filter: Filter) { events(filter: $filter, pageSize: 10) { totalCount hasMore
  data { id title_nb title_en startDate endDate startTime venue { name slug } categories images { urlSmall alt focusX focusY } ticketsInformation prices { type price } } } }`;
const CATEGORIES = '{ categories { id name_nb } }';
const NEVER_SEEN = 'query ($on: Boolean = true) { categories @include(if: $on) { id name_nb } }';
const NEVER_SEEN_VENUES = 'query ($on: Boolean = true) { venues @include(if: $on) { id name slug address postalCode municipality location { latitude longitude } } }';

async function startService(env: Record<string, string> = {}): Promise<Server> {
  const database: Record<string, string> = databaseUrl
    ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: `bench_http_${process.env['BENCH_TAG'] ?? ''}${events}` }
    : { CALENDAR_DATA_DIR: path.join(work, 'data') };
  return withOrigin(await startPinnedService(serviceDir, { DEMO_EVENTS: String(events), ...database, ...env }));
}

/** A bare node:http server answering every request with the same bytes and headers as the service's hit. */
function startBareServer(body: Buffer, headers: Record<string, string>): Promise<Server> {
  const bodyFile = path.join(work, 'body');
  writeFileSync(bodyFile, body);
  const script = `
    const http = require('node:http');
    const body = require('node:fs').readFileSync(${JSON.stringify(bodyFile)});
    const headers = ${JSON.stringify(headers)};
    headers['Content-Length'] = body.length;
    const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
    server.keepAliveTimeout = 5000;
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/'));`;
  return startPinned(['-e', script]).then(withOrigin);
}

function graphQLPath(query: string, variables?: Record<string, unknown>): string {
  const params = new URLSearchParams({ query });
  if (variables) params.set('variables', JSON.stringify(variables));
  return `/graphQL?${params.toString()}`;
}

const wrk = (server: Server, urlPath: string, headers: Record<string, string>, luaScript?: string): Load =>
  wrkLoad(server, urlPath, { connections, rounds, seconds, headers, luaScript });

const describeLoad = (load: Load, reference?: Load) =>
  `${load.rate.toFixed(0).padStart(7)} req/s ${load.cpuPerRequest.toFixed(1).padStart(7)} µs CPU/req` +
  (reference ? `   ${((100 * load.rate) / reference.rate).toFixed(1)} % of bare by rate, ${((100 * reference.cpuPerRequest) / load.cpuPerRequest).toFixed(1)} % by CPU` : '');

/** The hit's bytes exactly as sent (fetch would decode them) and its headers. */
function getRaw(url: string, headers: Record<string, string>): Promise<{ bytes: Buffer; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const kept: Record<string, string> = {};
        for (const name of ['content-type', 'content-encoding', 'cache-control', 'etag', 'vary', 'access-control-allow-origin', 'access-control-expose-headers']) {
          const value = res.headers[name];
          if (typeof value === 'string') kept[name] = value;
        }
        resolve({ bytes: Buffer.concat(chunks), headers: kept });
      });
    })
      .on('error', reject)
      .end();
  });
}

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers: { 'service-require-preflight': 'true', ...headers } });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 && response.status !== 304) throw new Error(`${response.status} from ${url}: ${body.toString().slice(0, 500)}`);
  return { response, body };
}

const preflight = { 'service-require-preflight': 'true' };
const rows: [string, string][] = [];
const service = await startService();
try {
  // Answers only once the read model is built.
  for (let waited = 0; (await fetch(`${service.origin}/ready`)).status !== 200; waited += 100) {
    if (waited > 600_000) throw new Error('the service never became ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const hitPath = graphQLPath(PAGE, { filter: { categories: ['CONCERT'] } });
  await get(service.origin + hitPath);
  await get(service.origin + hitPath);
  // The same page asked with the deprecated Filter.sortBy: a hit that counts a deprecated use (issue 32).
  // Cached now, while this client's connection is fresh (the server closes it after 5 s idle).
  const sortedPath = graphQLPath(PAGE, { filter: { categories: ['CONCERT'], sortBy: 'startDate' } });
  await get(service.origin + sortedPath);
  // Sent without Accept-Encoding (what wrk sends): the identity.
  const plain = await getRaw(service.origin + hitPath, preflight);
  const etag = plain.headers['etag'];
  const bare = await startBareServer(plain.bytes, plain.headers);
  try {
    const bareLoad = wrk(bare, hitPath, preflight);
    rows.push(['bare node:http, same bytes', describeLoad(bareLoad)]);
    rows.push(['cached GET hit', describeLoad(wrk(service, hitPath, preflight), bareLoad)]);
    rows.push(['cached GET hit setting Filter.sortBy', describeLoad(wrk(service, sortedPath, preflight), bareLoad)]);
    if (etag) rows.push(['304 revalidation', describeLoad(wrk(service, hitPath, { ...preflight, 'if-none-match': etag }), bareLoad)]);
  } finally {
    await bare.stop();
  }
  // A browser's Accept-Encoding: a service that compresses answers from the brotli form it keeps.
  const browser = { ...preflight, 'accept-encoding': 'gzip, deflate, br, zstd' };
  // Asked for a few times first: the smallest brotli form is made in the background after a few sends.
  for (let asked = 0; asked < 8; asked++) await getRaw(service.origin + hitPath, browser);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const compressed = await getRaw(service.origin + hitPath, browser);
  if (compressed.headers['content-encoding']) {
    const bareCompressed = await startBareServer(compressed.bytes, compressed.headers);
    try {
      const bareLoad = wrk(bareCompressed, hitPath, browser);
      rows.push([`bare node:http, same ${compressed.headers['content-encoding']} bytes (${compressed.bytes.length} B)`, describeLoad(bareLoad)]);
      rows.push([`cached GET hit, ${compressed.headers['content-encoding']} (of ${plain.bytes.length} B)`, describeLoad(wrk(service, hitPath, browser), bareLoad)]);
    } finally {
      await bareCompressed.stop();
    }
  }
  const neverSeen = `
    local n = 0
    request = function()
      n = n + 1
      return wrk.format("GET", "/graphQL?query=${encodeURIComponent(NEVER_SEEN)}&variables=%7B%22n%22%3A" .. n .. "%7D")
    end`;
  rows.push(['uncached categories, a new key each request', describeLoad(wrk(service, '/graphQL', preflight, neverSeen))]);
  // An answer of some size (venues, 8 KB) under a new key each request, as it is and with a browser's
  // Accept-Encoding: each answer compressed once (brotli 5), for the one request that asked.
  const neverSeenVenues = neverSeen.replace(encodeURIComponent(NEVER_SEEN), encodeURIComponent(NEVER_SEEN_VENUES));
  if (compressed.headers['content-encoding']) {
    rows.push(['uncached venues, a new key each request', describeLoad(wrk(service, '/graphQL', preflight, neverSeenVenues))]);
    rows.push(['uncached venues, a new key each request, br', describeLoad(wrk(service, '/graphQL', browser, neverSeenVenues))]);
  }
} finally {
  await service.stop();
}

// With the cache off altogether: a setting of this checkout (another one, given by BENCH_SERVICE_DIR, may not know it).
if (!process.env['BENCH_SERVICE_DIR']) {
  const uncachedService = await startService({ RESPONSE_CACHE: 'off' });
  try {
    rows.push(['uncached categories, RESPONSE_CACHE=off', describeLoad(wrk(uncachedService, graphQLPath(CATEGORIES), preflight))]);
  } finally {
    await uncachedService.stop();
  }
}

console.log(`\n${serviceDir} · ${databaseUrl ? 'PostgreSQL' : 'PGlite'} · ${events} demo events · wrk -c${connections}, median of ${rounds} × ${seconds} s`);
for (const [name, figure] of rows) console.log(`${name.padEnd(52)} ${figure}`);
