/**
 * Issue 43's figures: the wire size of four answers of the demo calendar (`npm start`'s: 2 000 demo
 * events, embedded database) per content coding, asked with the project's own documents from
 * queries/, and a check that each decodes to exactly the identity's bytes.
 *
 * brotli is shown twice: the first answer in brotli (the fast form, quality 5, made on first demand)
 * and the answer once it has been asked for again (the smallest form, quality 11, made in the
 * background after a few sends: src/http/answer-cache/answer-forms.ts).
 *
 *   npx tsx bench/compression.ts
 *   BENCH_SERVICE_DIR=/tmp/before npx tsx bench/compression.ts   # another checkout (before: no coding at all)
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { Kind, parse, print } from 'graphql';
import { ready, startPinnedService } from './support/pinned-process.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? root;
const documents = parse(['events-page', 'catalogues'].map((file) => readFileSync(path.join(root, 'queries', `${file}.graphql`), 'utf8')).join('\n'));

/**
 * The document of one operation, with the fragments: sent alone, as the typed client does (the
 * whole file with an operationName would do, but each operation would then be a document of its own
 * to every cache on the way).
 */
function operationDocument(operationName: string): string {
  const definitions = documents.definitions.filter((definition) => definition.kind !== Kind.OPERATION_DEFINITION || definition.name?.value === operationName);
  return print({ ...documents, definitions });
}

const ANSWERS: [name: string, operationName: string, variables: Record<string, unknown> | undefined][] = [
  ['EventsPage, 20 events + facets', 'EventsPage', { pageSize: 20 }],
  ['EventsPage, 100 events', 'EventsPage', { pageSize: 100 }],
  ['venues', 'Venues', undefined],
  ['categories', 'Categories', undefined],
];

/** Targets of the issue: at most this share of the JSON. */
const TARGETS: Record<string, number> = { br: 0.15, gzip: 0.2 };

function get(url: string, acceptEncoding: string | undefined): Promise<{ bytes: Buffer; coding: string | undefined; etag: string | undefined }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'service-require-preflight': 'true' };
    if (acceptEncoding) headers['accept-encoding'] = acceptEncoding;
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${res.statusCode} from ${url}`));
        resolve({ bytes: Buffer.concat(chunks), coding: res.headers['content-encoding'], etag: res.headers.etag });
      });
    })
      .on('error', reject)
      .end();
  });
}

function decode(bytes: Buffer, coding: string | undefined): Buffer {
  if (coding === 'br') return brotliDecompressSync(bytes);
  if (coding === 'gzip') return gunzipSync(bytes);
  if (coding === 'zstd') return zstdDecompressSync(bytes);
  return bytes;
}

const service = await startPinnedService(serviceDir, { CALENDAR_DATA_DIR: path.join(mkdtempSync(path.join(tmpdir(), 'bench-compression-')), 'data'), LOG_LEVEL: 'warn' });
const rows: string[][] = [];
let failures = 0;
const totals: Record<string, number> = {};
try {
  await ready(service);
  const origin = new URL(service.url).origin;
  for (const [name, operationName, variables] of ANSWERS) {
    const params = new URLSearchParams({ query: operationDocument(operationName) });
    if (variables) params.set('variables', JSON.stringify(variables));
    const url = `${origin}/graphQL?${params.toString()}`;
    const identity = await get(url, undefined);
    const sizes: [string, number, string | undefined][] = [['JSON', identity.bytes.length, undefined]];
    const firstBrotli = await get(url, 'gzip, deflate, br, zstd');
    sizes.push(['br first', firstBrotli.bytes.length, firstBrotli.coding]);
    // Asked for again: the smallest form is made in the background after a few sends.
    let again = firstBrotli;
    for (let asked = 0; asked < 100 && (asked < 8 || again.etag === firstBrotli.etag); asked++) {
      again = await get(url, 'gzip, deflate, br, zstd');
      if (asked >= 8) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    sizes.push(['br', again.bytes.length, again.coding]);
    const gzip = await get(url, 'gzip');
    sizes.push(['gzip', gzip.bytes.length, gzip.coding]);
    const zstd = await get(url, 'zstd');
    sizes.push(['zstd', zstd.bytes.length, zstd.coding]);
    const row = [name];
    for (const [label, size, coding] of sizes) {
      const same = decode(label === 'br first' ? firstBrotli.bytes : label === 'br' ? again.bytes : label === 'gzip' ? gzip.bytes : label === 'zstd' ? zstd.bytes : identity.bytes, coding).equals(identity.bytes);
      if (!same) failures += 1;
      const share = size / identity.bytes.length;
      totals[label] = (totals[label] ?? 0) + size;
      const target = TARGETS[label];
      row.push(`${size.toLocaleString('en')} B ${(100 * share).toFixed(1)} %${coding ? ` ${coding}` : ''}${same ? '' : ' DIFFERS'}${target !== undefined && share > target ? ' (over)' : ''}`);
    }
    rows.push(row);
  }
} finally {
  await service.stop();
}

const labels = ['JSON', 'br first', 'br', 'gzip', 'zstd'];
console.log(`\n${serviceDir} · demo calendar (2 000 events, embedded) · queries/events-page.graphql, queries/catalogues.graphql`);
console.log(['answer'.padEnd(32), ...labels.map((label) => label.padEnd(28))].join(''));
for (const row of rows) console.log([row[0]!.padEnd(32), ...row.slice(1).map((cell) => cell.padEnd(28))].join(''));
const json = totals['JSON']!;
console.log(['all four'.padEnd(32), ...labels.map((label) => `${totals[label]!.toLocaleString('en')} B ${((100 * totals[label]!) / json).toFixed(1)} %`.padEnd(28))].join(''));
console.log(failures === 0 ? 'every coding decodes to the identity bytes' : `${failures} answers DIFFER from the identity once decoded`);
if (failures > 0) process.exitCode = 1;
