import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDataDir, type MigratedDataDir } from '../support/migrated-data-dir.js';
import { recordPhase } from '../support/phase-timings.js';
import { until } from '../support/until.js';

/*
 * `npm run dev` as a contributor runs it, in a copy of the project (its saves never touch the repository):
 * the service on the embedded database, each save taken in by the running process.
 */

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** What the dev loop reads and writes: the sources, the SDL, the documents, codegen and its outputs, the scripts. */
const PROJECT_FILES = ['src', 'scripts', 'schema.graphql', 'queries', 'codegen.ts', 'codegen', 'generated', 'packages/client/src', 'packages/client/package.json', 'package.json', 'tsconfig.json'];

let project: string;
let dataDir: MigratedDataDir;
let dev: ChildProcess;
let output = '';
let url: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The dev output's lines from `from` on that match `pattern`: waits for the first. */
function lineAfter(from: number, pattern: RegExp, ms = 30_000): Promise<string> {
  return until(ms, () => output.slice(from).split('\n').find((line) => pattern.test(line)));
}

/** Saves `file` of the copy changed by `change` (which must change it); returns where the output stood. */
function save(file: string, change: (text: string) => string): number {
  const full = path.join(project, file);
  const before = readFileSync(full, 'utf8');
  const after = change(before);
  expect(after).not.toBe(before);
  const mark = output.length;
  writeFileSync(full, after);
  return mark;
}

async function query(text: string): Promise<{ data?: Record<string, unknown> | null; errors?: { message: string }[] }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: text }) });
  return (await response.json()) as { data?: Record<string, unknown> | null; errors?: { message: string }[] };
}

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'calendar-dev-'));
  for (const file of PROJECT_FILES) cpSync(path.join(repoRoot, file), path.join(project, file), { recursive: true });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(project, 'node_modules'));
  dataDir = await migratedDataDir();
  const port = await freePort();
  const { DATABASE_URL: _url, REDIS_URL: _redis, DATABASE_SCHEMA: _schema, ...inherited } = process.env;
  const started = performance.now();
  dev = spawn(process.execPath, ['scripts/dev.mjs', '--no-typecheck'], {
    cwd: project,
    env: { ...inherited, PORT: String(port), CALENDAR_DATA_DIR: dataDir.path, DEMO_EVENTS: '40', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const serving = await lineAfter(0, /^dev: serving /, 90_000);
  recordPhase('child process', performance.now() - started);
  url = /serving (\S+)/.exec(serving)?.[1] ?? '';
}, 120_000);

afterAll(async () => {
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    dev.kill('SIGINT');
    await exited;
  }
  await dataDir?.remove();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('npm run dev: the running service takes in each save', () => {
  it('serves the demo calendar on the embedded database, and says where', async () => {
    expect(url).toMatch(/^http:\/\/localhost:\d+\/graphQL$/);
    const { data } = await query('{ venues { name postalCode } }');
    expect((data?.venues as unknown[]).length).toBeGreaterThan(0);
  });

  it('serves a resolver saved, within the same process', async () => {
    const mark = save('src/schema/resolvers/Venue.ts', (text) => text.replace('  ...renamedFieldResolvers(VENUE_FIELDS),\n', '  ...renamedFieldResolvers(VENUE_FIELDS),\n  postalCode: (v) => (v.postal_code == null ? null : `NO-${v.postal_code}`),\n'));
    expect(await lineAfter(mark, /Venue\.ts: served in \d+ ms/)).toMatch(/\(\d+ modules reloaded\)/);
    const { data } = await query('{ venues { postalCode } }');
    const codes = (data?.venues as { postalCode: string | null }[]).map((v) => v.postalCode).filter((code) => code !== null);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.every((code) => code.startsWith('NO-'))).toBe(true);
    expect(output.match(/^dev: serving /gm)).toHaveLength(1);
  });

  it('serves a field saved in the SDL with its resolver, and regenerates the typed outputs', async () => {
    const sdl = readFileSync(path.join(project, 'schema.graphql'), 'utf8');
    const venueEnd = sdl.indexOf('\n}', sdl.indexOf('type Venue {'));
    const mark = output.length;
    writeFileSync(path.join(project, 'schema.graphql'), `${sdl.slice(0, venueEnd)}\n  "A map link, or null."\n  mapUrl: String${sdl.slice(venueEnd)}`);
    save('src/schema/resolvers/Venue.ts', (text) =>
      text.replace('export const Venue = { ...venueFields } satisfies VenueResolvers;', 'export const Venue = {\n  ...venueFields,\n  mapUrl: (v) => (v.latitude == null ? null : `https://map.example/${v.slug}`),\n} satisfies VenueResolvers;'),
    );
    // Two saves, served one after the other: the field may answer null until its resolver's save is in.
    const mapped = async () => {
      const venues = (await query('{ venues { slug mapUrl } }')).data?.venues as { slug: string; mapUrl: string | null }[] | undefined;
      return venues?.some((v) => v.mapUrl === `https://map.example/${v.slug}`) ? true : undefined;
    };
    expect(await until(10_000, mapped)).toBe(true);
    await lineAfter(mark, /^dev: codegen: 4 outputs in \d+ ms/);
    expect(readFileSync(path.join(project, 'generated/resolvers-types.ts'), 'utf8')).toContain('mapUrl?: Resolver<');
  });

  it('names the line of an SDL syntax error, goes on serving the last good schema, and serves the fix', async () => {
    const good = readFileSync(path.join(project, 'schema.graphql'), 'utf8');
    const broken = save('schema.graphql', (text) => text.replace('  mapUrl: String\n', '  mapUrl: String(\n'));
    const line = good.slice(0, good.indexOf('  mapUrl: String\n')).split('\n').length;
    expect(await lineAfter(broken, /^ {2}schema\.graphql:\d+:\d+: /)).toBe(`  schema.graphql:${line}:17: Syntax Error: Expected Name, found "(".`);
    expect((await query('{ venues { mapUrl } }')).data?.venues).toBeDefined();
    const unknownType = save('schema.graphql', (text) => text.replace('  mapUrl: String(\n', '  mapUrl: Strin\n'));
    expect(await lineAfter(unknownType, /^ {2}schema\.graphql:/)).toBe(`  schema.graphql:${line}:11: Unknown type "Strin". Did you mean "String"?`);
    const fixed = output.length;
    writeFileSync(path.join(project, 'schema.graphql'), good);
    await lineAfter(fixed, /^dev: schema\.graphql: served in \d+ ms/);
    expect((await query('{ venues { mapUrl } }')).errors).toBeUndefined();
  });

  it('goes on serving when a saved resolver fails to compile or to load, naming the file and line', async () => {
    const good = readFileSync(path.join(project, 'src/schema/resolvers/Venue.ts'), 'utf8');
    const lines = good.split('\n').length;
    const syntax = save('src/schema/resolvers/Venue.ts', (text) => `${text}const broken = ;\n`);
    expect(await lineAfter(syntax, /^ {2}src\/schema\/resolvers\/Venue\.ts:/)).toBe(`  src/schema/resolvers/Venue.ts:${lines}:16: Unexpected ";"`);
    const throwing = save('src/schema/resolvers/Venue.ts', () => `${good}throw new Error('venue resolvers fail to load');\n`);
    expect(await lineAfter(throwing, /^ {2}src\/schema\/resolvers\/Venue\.ts:/)).toMatch(new RegExp(`^  src/schema/resolvers/Venue\\.ts:${lines}:\\d+: venue resolvers fail to load$`));
    expect((await query('{ venues { mapUrl } }')).data?.venues).toBeDefined();
    const fixed = output.length;
    writeFileSync(path.join(project, 'src/schema/resolvers/Venue.ts'), good);
    await lineAfter(fixed, /Venue\.ts: served in \d+ ms/);
  });

  it('serves a document saved in queries/ as a trusted persisted query, and the client types follow', async () => {
    const mark = output.length;
    writeFileSync(path.join(project, 'queries/dev-probe.graphql'), 'query DevProbe {\n  venues {\n    slug\n  }\n}\n');
    await lineAfter(mark, /dev-probe\.graphql: served in \d+ ms/);
    const manifest = JSON.parse(readFileSync(path.join(project, 'generated/persisted-documents.json'), 'utf8')) as Record<string, string>;
    const [hash] = Object.entries(manifest).find(([, text]) => text.startsWith('query DevProbe')) ?? [];
    expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash?.replace('sha256:', '') } });
    const response = await fetch(`${url}?operationName=DevProbe&extensions=${encodeURIComponent(extensions)}`, { headers: { 'Service-Require-Preflight': 'true' } });
    const body = (await response.json()) as { data?: { venues: unknown[] } };
    expect(body.data?.venues.length).toBeGreaterThan(0);
    expect(readFileSync(path.join(project, 'packages/client/src/generated/documents.ts'), 'utf8')).toContain('export const DevProbeDocument');
  });

  it('restarts for a change to code the running service holds, and serves again', async () => {
    const mark = save('src/read-model/read-model.ts', (text) => `${text}\n// saved by the dev-loop test\n`);
    expect(await lineAfter(mark, /^dev: src\/read-model\/read-model\.ts: reaches .*: restarting$/)).toBeTruthy();
    await lineAfter(mark, /^dev: serving /, 60_000);
    expect((await query('{ venues { mapUrl } }')).data?.venues).toBeDefined();
  });
});
