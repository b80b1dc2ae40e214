import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Browser, ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTests, launchChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { NOW, widgetCalendar } from './fixtures/widget-calendar.js';

/**
 * The client as a third party gets it: `npm pack` of packages/client, installed from the tarball
 * into a project of its own (offline: the tarball has no dependencies), type-checked there under
 * the strictest settings (NodeNext and Bundler), then run in Node and in Chromium against a
 * running service. The project also runs the codegen snippet of docs/using-the-api.md for its own
 * operations, the "third-party documents" whose second visitor must be one GET hit.
 */
const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MODULES = join(ROOT, 'node_modules');
const TSC = join(MODULES, 'typescript/bin/tsc');
const CODEGEN = join(MODULES, '@graphql-codegen/cli/esm/bin.js');
// The packed package (JavaScript, declarations and their doc comments): 24.9 KB before retryAfter on
// 429/503 (budgets, issue 29) added half a kilobyte, 25.4 KB before `suggest`, `suggestionFilter` and
// the Suggest document (typeahead, issue 31) added 1.9 KB; the bound keeps it from growing unnoticed.
const PACKED_LIMIT = 28_000;
const RUNTIME_GZIP_LIMIT = 5_000;

const run = async (file: string, args: string[], cwd: string) => {
  try {
    return await execFileAsync(file, args, { cwd, env: { ...process.env, npm_config_loglevel: 'error' }, maxBuffer: 10 * 1024 * 1024 });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${[file, ...args].join(' ')} failed in ${cwd}:\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}\n${failure.message}`, { cause: error });
  }
};
const node = (args: string[], cwd: string) => run(process.execPath, args, cwd);
// npm runs on this very node (its own script is a node script), as CI runs it.
const npm = (args: string[], cwd: string) => run('npm', args, cwd);

/** The codegen snippet of the guide, pointed at the running service. */
function docsCodegenSnippet(origin: string): string {
  const guide = readFileSync(join(ROOT, 'docs/using-the-api.md'), 'utf8');
  const block = /```ts\n(\/\/ codegen\.ts in your project\n[\s\S]*?)```/.exec(guide)?.[1];
  if (!block) throw new Error('docs/using-the-api.md has no "// codegen.ts in your project" block');
  return block.replaceAll('https://api.example.no', origin);
}

const CONSUMER_QUERIES = `# A third party's own operations: not in the service's trusted manifest.
query ThirdPartyNode {
  venues {
    slug
  }
  categories {
    id
  }
}

query ThirdPartyBrowser {
  venues {
    slug
  }
  categories {
    id
  }
}
`;

/** The consumer's program: the package's runtime, helpers and documents, and its own codegen documents. */
const CONSUMER_APP = `import { createCalendarClient, CalendarRequestError, eventsFeedUrl, suggest, suggestionFilter, type CalendarClient, type FetchLike } from '@event-calendar-api/client';
import { formatOslo, occurrenceKey, priceDisplay, categoryLabeler } from '@event-calendar-api/client/helpers';
import type { ResultOf } from '@event-calendar-api/client/runtime';
import { CategoriesDocument, EventsPageDocument, type EventsPageQuery } from '@event-calendar-api/client/documents';
import { ThirdPartyBrowserDocument, ThirdPartyNodeDocument } from './gql/graphql.js';

export interface Summary {
  total: number;
  firstTime: string;
  firstKey: string;
  firstPrice: string | null;
  labels: string[];
  visitors: Array<Array<{ method: string; hash: string | undefined }>>;
  slugs: string[];
  badPageCode: string | undefined;
  feed: string;
}

/** A fetch that records what it sends: one per visitor, as each page load has its own. */
function recording(calls: Array<{ method: string; hash: string | undefined }>): FetchLike {
  return async (url, init) => {
    const extensions = init.method === 'GET' ? new URL(url).searchParams.get('extensions') : null;
    const body = init.body === undefined ? undefined : (JSON.parse(init.body) as { extensions?: { persistedQuery?: { sha256Hash?: string } } });
    const hash = extensions ? (JSON.parse(extensions) as { persistedQuery: { sha256Hash: string } }).persistedQuery.sha256Hash : body?.extensions?.persistedQuery?.sha256Hash;
    calls.push({ method: init.method, hash });
    return globalThis.fetch(url, init);
  };
}

export async function run(endpoint: string, where: 'Node' | 'Browser'): Promise<Summary> {
  const client: CalendarClient = createCalendarClient({ endpoint, apiKey: undefined });
  const page: EventsPageQuery = await client.request(EventsPageDocument, { page: 0, pageSize: 3 });
  const events = page.events;
  if (!events) throw new Error('no events');
  const first = events.data[0];
  if (!first) throw new Error('no first event');
  const categories: ResultOf<typeof CategoriesDocument> = await client.request(CategoriesDocument);
  const label = categoryLabeler(categories.categories, 'en');

  // @ts-expect-error pageSize is an Int: the documents are typed, not any.
  const typeCheckOnly = () => client.request(EventsPageDocument, { pageSize: 'three' });
  void typeCheckOnly;
  // Typeahead: typed suggestions, and the filter one stands for.
  const typeaheadOnly = async () => {
    const [top] = await suggest(client, 'kon', { limit: 1, filter: { when: 'THIS_WEEKEND' } });
    return top ? { label: top.label_nb ?? top.value, hits: top.hits, filter: suggestionFilter(top) } : null;
  };
  void typeaheadOnly;

  const document = where === 'Node' ? ThirdPartyNodeDocument : ThirdPartyBrowserDocument;
  const visitors: Summary['visitors'] = [];
  let slugs: string[] = [];
  for (let visitor = 0; visitor < 2; visitor += 1) {
    const calls: Summary['visitors'][number] = [];
    const fresh = createCalendarClient({ endpoint, fetch: recording(calls) });
    const data = await fresh.request(document);
    slugs = (data.venues ?? []).map((venue) => venue.slug);
    visitors.push(calls);
  }

  let badPageCode: string | undefined;
  try {
    await client.request(EventsPageDocument, { page: -1 });
  } catch (error) {
    if (error instanceof CalendarRequestError) badPageCode = error.code;
  }

  return {
    total: events.totalCount,
    firstTime: formatOslo(first.startDate, 'time'),
    firstKey: occurrenceKey(first),
    firstPrice: priceDisplay(first, 'en').summary,
    labels: first.categories.map(label),
    visitors,
    slugs,
    badPageCode,
    feed: eventsFeedUrl(endpoint, { categories: ['CONCERT'] }, { lan: 'en' }),
  };
}
`;

/** Only types, under ES2022 alone: the package's declarations need neither DOM nor Node types. */
const CONSUMER_TYPES_ONLY = `import type { CalendarClient, CalendarClientOptions, CalendarRequestError, FetchLike, RequestOptions } from '@event-calendar-api/client';
import type { PriceDisplay, TimedOccurrence } from '@event-calendar-api/client/helpers';
import type { EventsPageQuery, TypedDocument } from '@event-calendar-api/client/documents';

export type Everything = [CalendarClient, CalendarClientOptions, CalendarRequestError, FetchLike, RequestOptions, PriceDisplay, TimedOccurrence, EventsPageQuery, TypedDocument<unknown, unknown>];
`;

const STRICTEST = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  skipLibCheck: false,
  target: 'ES2022',
  types: [],
};

const tsconfigs = {
  // Node's own resolution; emits the JavaScript that Node runs.
  'tsconfig.nodenext.json': { compilerOptions: { ...STRICTEST, module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], outDir: 'out' }, include: ['src'] },
  // What Vite, esbuild and webpack users set.
  'tsconfig.bundler.json': { compilerOptions: { ...STRICTEST, module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], noEmit: true }, include: ['src'] },
  'tsconfig.nodom.json': { compilerOptions: { ...STRICTEST, module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], noEmit: true }, files: ['types-only.ts'] },
};

let server: TestServer;
let work: string;
let consumer: string;
let tarball: { filename: string; size: number; files: string[] };

/**
 * The consumer type-checked and compiled to out/ under tsconfig.nodenext.json, once: the type-check
 * test, the Node run and the browser bundle all need it, and each compile costs seconds of CPU.
 */
let consumerCompiled: Promise<unknown> | undefined;
const compileConsumer = () => (consumerCompiled ??= node([TSC, '-p', 'tsconfig.nodenext.json'], consumer));

beforeAll(async () => {
  server = await startTestServer({ calendar: widgetCalendar, clock: () => NOW });
  work = mkdtempSync(join(tmpdir(), 'calendar-client-'));
  // prepack builds dist/ from the package's sources first.
  const packed = await npm(['pack', '--workspace', '@event-calendar-api/client', '--pack-destination', work, '--json'], ROOT);
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; size: number; files: Array<{ path: string }> }>;
  tarball = { filename: join(work, info!.filename), size: info!.size, files: info!.files.map((file) => file.path) };

  consumer = join(work, 'consumer');
  mkdirSync(join(consumer, 'src'), { recursive: true });
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball.filename], consumer);
  // The third party's own dev tools, as already installed here: codegen, graphql and its document types.
  for (const name of ['@graphql-codegen', '@graphql-typed-document-node', 'graphql']) symlinkSync(join(MODULES, name), join(consumer, 'node_modules', name));

  writeFileSync(join(consumer, 'codegen.ts'), docsCodegenSnippet(server.origin));
  writeFileSync(join(consumer, 'src/queries.graphql'), CONSUMER_QUERIES);
  writeFileSync(join(consumer, 'src/app.ts'), CONSUMER_APP);
  writeFileSync(join(consumer, 'types-only.ts'), CONSUMER_TYPES_ONLY);
  for (const [file, config] of Object.entries(tsconfigs)) writeFileSync(join(consumer, file), JSON.stringify(config, null, 2));
  await node([CODEGEN, '--config', 'codegen.ts'], consumer);
}, 240_000);

afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the client package', () => {
  it(`packs to at most ${PACKED_LIMIT} bytes: built JavaScript and declarations, no sources, no dependencies`, () => {
    expect(tarball.size).toBeLessThanOrEqual(PACKED_LIMIT);
    expect(tarball.files).toContain('dist/index.js');
    expect(tarball.files).toContain('dist/index.d.ts');
    expect(tarball.files).toContain('dist/generated/documents.js');
    expect(tarball.files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md'].includes(file))).toEqual([]);
    expect(tarball.files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules/@event-calendar-api/client/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest['dependencies']).toBeUndefined();
    expect(manifest['peerDependencies']).toBeUndefined();
    expect(manifest['sideEffects']).toBe(false);
  });

  it('is what the service package exports as event-calendar-api/client, importable by plain Node', async () => {
    const { stdout } = await node(['--input-type=module', '-e', "const m = await import('event-calendar-api/client'); console.log(typeof m.createCalendarClient, typeof m.formatOslo)"], ROOT);
    expect(stdout.trim()).toBe('function function');
  });

  it.each(Object.keys(tsconfigs))('type-checks a consumer under %s (strict, exactOptionalPropertyTypes, no skipLibCheck)', async (config) => {
    if (config === 'tsconfig.nodenext.json') await compileConsumer();
    else await run(process.execPath, [TSC, '-p', config], consumer);
  });

  it('runs in Node: typed documents, helpers, errors, and a third-party document\'s second visitor is one GET hit', async () => {
    await compileConsumer();
    writeFileSync(join(consumer, 'main.mjs'), `import { run } from './out/app.js';\nconsole.log(JSON.stringify(await run(process.argv[2], 'Node')));\n`);
    const { stdout } = await node(['main.mjs', server.url], consumer);
    const summary = JSON.parse(stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({
      total: 8,
      firstTime: '20:00',
      firstKey: 'W-JAZZ@2026-03-26T19:00:00.000Z',
      firstPrice: '150–250\u00a0kr',
      labels: ['Concert'],
      slugs: ['kunstmuseet', 'nationaltheatret', 'sentrum-scene'].sort(),
      badPageCode: 'BAD_USER_INPUT',
      feed: `${server.origin}/events.ics?categories=CONCERT&lan=en`,
    });
    const [first, second] = summary['visitors'] as Array<Array<{ method: string; hash: string }>>;
    expect(first!.map((call) => call.method)).toEqual(['GET', 'POST']);
    expect(first![1]!.hash).toBe(first![0]!.hash);
    expect(second).toEqual([{ method: 'GET', hash: first![0]!.hash }]);
  });

  it(`bundles the runtime to at most ${RUNTIME_GZIP_LIMIT} bytes minified and gzipped, leaving what is not imported`, async () => {
    const sizes: Record<string, number> = {};
    for (const [name, contents] of Object.entries({
      runtime: `export { createCalendarClient, CalendarRequestError } from '@event-calendar-api/client';`,
      everything: `export * from '@event-calendar-api/client'; export * from '@event-calendar-api/client/documents';`,
      'one document': `export { CategoriesDocument } from '@event-calendar-api/client/documents';`,
    })) {
      const result = await build({ stdin: { contents, resolveDir: consumer, loader: 'js' }, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false });
      const code = result.outputFiles[0]!.contents;
      sizes[name] = gzipSync(code, { level: 9 }).byteLength;
      if (name === 'runtime') expect(Buffer.from(code).toString()).not.toMatch(/formatOslo|Europe\/Oslo|query Categories/);
      if (name === 'one document') expect(Buffer.from(code).toString()).not.toContain('query EventsPage');
    }
    console.info(`client bundle sizes (min+gzip bytes): ${JSON.stringify(sizes)}; packed ${tarball.size} bytes`);
    expect(sizes['runtime']).toBeLessThanOrEqual(RUNTIME_GZIP_LIMIT);
  });
});

describe.skipIf(!browserTests.run)('the client package in Chromium', () => {
  let browser: Browser;
  let bundle: string;

  beforeAll(async () => {
    browser = await launchChromium();
    await compileConsumer();
    const result = await build({
      stdin: { contents: `import { run } from './out/app.js'; globalThis.runConsumer = run;`, resolveDir: consumer, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
    });
    bundle = result.outputFiles[0]!.text;
  });
  afterAll(async () => browser?.close());

  // Page and API on hosts of their own, both answered by the test (the API by forwarding to the
  // service): a cross-origin page, as a third party's is, with no request leaving this machine.
  const API = 'https://api.calendar-consumer.test';

  /** A page on `origin` that loads the consumer's bundle; API requests go to the running service. */
  async function openPage(origin: string) {
    const page = await browser.newPage();
    const messages: string[] = [];
    const apiMethods: string[] = [];
    page.on('console', (message: ConsoleMessage) => messages.push(`${message.type()}: ${message.text()}`));
    await page.route(`${API}/**`, async (route) => {
      const request = route.request();
      apiMethods.push(request.method());
      const target = new URL(request.url());
      const response = await route.fetch({ url: `${server.origin}${target.pathname}${target.search}` });
      await route.fulfill({ response });
    });
    await page.route(`${origin}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/app.js') return route.fulfill({ contentType: 'text/javascript', body: bundle });
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>consumer</title><script type="module" src="/app.js"></script>' });
    });
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'runConsumer' in globalThis);
    const runConsumer = () =>
      page
        .evaluate(([endpoint]) => (globalThis as unknown as { runConsumer: (e: string, w: string) => Promise<unknown> }).runConsumer(endpoint!, 'Browser'), [
          `${API}/graphQL`,
        ])
        .catch((error: unknown) => {
          throw new Error(`${String(error)}\n${messages.join('\n')}`);
        });
    return { page, messages, apiMethods, runConsumer };
  }

  it('runs on an https page: a third-party document\'s second visitor is one GET hit', async () => {
    const { page, messages, runConsumer } = await openPage('https://www.calendar-consumer.test');
    expect(await page.evaluate(() => globalThis.isSecureContext && globalThis.crypto?.subtle !== undefined)).toBe(true);
    const summary = (await runConsumer()) as { total: number; firstTime: string; visitors: Array<Array<{ method: string; hash: string }>> };
    expect(summary.total).toBe(8);
    expect(summary.firstTime).toBe('20:00');
    const [first, second] = summary.visitors;
    expect(first!.map((call) => call.method)).toEqual(['GET', 'POST']);
    expect(second).toEqual([{ method: 'GET', hash: first![0]!.hash }]);
    expect(messages.filter((message) => message.startsWith('error'))).toEqual([]);
    await page.close();
  });

  it('works on a plain http page without WebCrypto, by POST, and says why once', async () => {
    const { page, messages, apiMethods, runConsumer } = await openPage('http://www.calendar-consumer.test');
    expect(await page.evaluate(() => globalThis.isSecureContext || globalThis.crypto?.subtle !== undefined)).toBe(false);
    const summary = (await runConsumer()) as { total: number; visitors: Array<Array<{ method: string }>> };
    expect(summary.total).toBe(8);
    expect(summary.visitors).toEqual([[{ method: 'POST' }], [{ method: 'POST' }]]);
    expect(apiMethods.filter((method) => method === 'GET')).toEqual([]);
    const warnings = messages.filter((message) => message.includes('Persisted GET queries are off'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: .*no WebCrypto/);
    await page.close();
  });
});
