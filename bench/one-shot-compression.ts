/**
 * Issue 43, answers nobody asks for again: what compressing them costs the service and saves the
 * wire. POSTs under a new cache key each request (a variable nobody declares: the whole pipeline
 * runs, and the answer's form is made for that one response), asked with no `Accept-Encoding`, as a
 * browser asks (`gzip, deflate, br, zstd`: brotli) and as Node's fetch does (`gzip, deflate`), for
 * the events page of 20 with facets (queries/events-page.graphql, ~26 KB), `venues` (~8 KB) and
 * `categories` (~3 KB). Prints the service's CPU per request (wrk's median round) and the bytes of
 * one answer.
 *
 * The service runs on the demo calendar (2 000 events, embedded database) pinned to CPU 0, wrk on
 * CPU 1. With BENCH_BEFORE_DIR (a built checkout of the reference) both are measured, taking turns
 * round by round.
 *
 *   npx tsx bench/one-shot-compression.ts
 *   BENCH_BEFORE_DIR=/tmp/before BENCH_ROUNDS=5 BENCH_SECONDS=4 npx tsx bench/one-shot-compression.ts
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ready, startPinnedService } from './support/pinned-process.js';
import { median, postScript, withOrigin, wrk, type Load, type LoadedServer } from './support/wrk.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? root;
const beforeDir = process.env['BENCH_BEFORE_DIR'];
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
const seconds = Number(process.env['BENCH_SECONDS'] ?? 4);
const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 16);

const eventsPage = readFileSync(path.join(root, 'queries', 'events-page.graphql'), 'utf8');
const ANSWERS: [name: string, query: string, variables: Record<string, unknown>][] = [
  ['EventsPage, 20 events + facets', eventsPage, { pageSize: 20 }],
  ['venues', '{ venues { id name slug address postalCode municipality location { latitude longitude } } }', {}],
  ['categories', '{ categories { id name_nb name_en slug_nb slug_en visible } }', {}],
];
const CODINGS: [label: string, acceptEncoding: string | undefined][] = [
  ['none asked', undefined],
  ['browser (br)', 'gzip, deflate, br, zstd'],
  ["Node's fetch (gzip)", 'gzip, deflate'],
];

/** The bytes of one answer as sent, and its coding. */
function postOnce(url: string, body: string, acceptEncoding: string | undefined): Promise<{ bytes: number; coding: string | undefined }> {
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  if (acceptEncoding) headers['accept-encoding'] = acceptEncoding;
  return new Promise((resolve, reject) => {
    // A connection of its own: the service closes idle keep-alive ones while wrk runs.
    request(url, { method: 'POST', headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => (res.statusCode === 200 ? resolve({ bytes, coding: res.headers['content-encoding'] }) : reject(new Error(`${res.statusCode} from ${url}`))));
    })
      .on('error', reject)
      .end(body);
  });
}

const work = mkdtempSync(path.join(tmpdir(), 'bench-one-shot-'));
const services: [string, LoadedServer][] = [];
try {
  for (const [label, dir] of beforeDir ? [['before', beforeDir], ['after', serviceDir]] : [['this', serviceDir]]) {
    const service = withOrigin(await startPinnedService(dir!, { CALENDAR_DATA_DIR: path.join(work, label!, 'data'), LOG_LEVEL: 'warn' }));
    services.push([label!, service]);
    await ready(service);
  }
  console.log(`\ndemo calendar (2 000 events, embedded) · POST, a new cache key each request · wrk -c${connections} on CPU 1, service on CPU 0 · median of ${rounds} × ${seconds} s`);
  for (const [name, query, variables] of ANSWERS) {
    // `n` is declared by no operation: each request a new key, the same answer.
    // A Lua string: its backslashes (JSON's escapes) and quotes escaped once more.
    const json = `{"query":${JSON.stringify(query)},"variables":${JSON.stringify(variables).slice(0, -1)}${Object.keys(variables).length ? ',' : ''}"n":`;
    for (const [codingLabel, acceptEncoding] of CODINGS) {
      // Each run of wrk (its warm-up too) counts from its start time: keys of an earlier run would be hits (and
      // n stays below 1e10: Lua writes larger numbers in 14 digits, and keys repeat).
      const script = (urlPath: string) => postScript(urlPath, `'${json.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}' .. n .. '}}'`, '(os.time() % 10000) * 1000000');
      const loads = new Map<string, Load[]>();
      for (let round = 0; round < rounds; round++) {
        for (const [label, service] of services) {
          const urlPath = new URL(service.url).pathname;
          const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
          const load = wrk(service, urlPath, { connections, rounds: 1, seconds, headers, luaScript: script(urlPath), warmUpSeconds: round === 0 ? 2 : 1 });
          loads.set(label, [...(loads.get(label) ?? []), load]);
        }
      }
      for (const [label, service] of services) {
        const all = loads.get(label)!;
        // A key of its own too: the answer as the request that made it gets it.
        const sent = await postOnce(service.url, JSON.stringify({ query, variables: { ...variables, n: -Date.now() } }), acceptEncoding);
        console.log(
          `${name.padEnd(32)} ${codingLabel.padEnd(20)} ${label.padEnd(7)} ${median(all.map((l) => l.cpuPerRequest)).toFixed(0).padStart(6)} µs CPU/req ` +
            `${median(all.map((l) => l.rate)).toFixed(0).padStart(6)} req/s ${String(sent.bytes).padStart(7)} B ${sent.coding ?? 'identity'}`,
        );
      }
    }
  }
} finally {
  for (const [, service] of services) await service.stop();
}
