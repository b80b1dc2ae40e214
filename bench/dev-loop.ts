/**
 * The schema editor's loop (issue 53): from a save to the running service answering it.
 *
 * In a copy of the project (with a data directory of its own, seeded with the demo calendar on the first
 * start), this runs `npm run dev` (scripts/dev.mjs) and saves, N times each:
 * - a new field in the SDL together with its resolver (`type Venue`, Venue.ts), until a query of the field answers;
 * - a resolver-only change (Venue.postalCode's prefix), until the answer shows it;
 * - an SDL syntax error, until the dev output names schema.graphql (the service answering all along), then
 *   its fix, until the field is served again.
 * Each wait polls the service every 5 ms. Prints p50 and max of each.
 *
 * `--restart` measures the loop a contributor would script without it instead (the stand-in): each
 * save stops the service, runs `npm run codegen` and `npm run build`, and starts `calendar serve` again.
 *
 *   npx tsx bench/dev-loop.ts [--rounds 5] [--restart] [--no-typecheck]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1] ?? 5) || 5;
const restartLoop = args.includes('--restart');
const PORT = 4471;
const url = `http://localhost:${PORT}/graphQL`;
const project = path.join(tmpdir(), 'calendar-dev-loop-bench');
// What tsconfig.json includes too, so that the dev loop's typecheck sees the whole project as in a checkout.
const PROJECT_FILES = ['src', 'scripts', 'bin', 'test', 'bench', 'docs', 'schema.graphql', 'queries', 'codegen.ts', 'codegen', 'generated', 'packages/client/src', 'packages/client/package.json', 'package.json', 'tsconfig.json', 'vitest.config.ts'];

// The copy keeps its data directory between runs (the demo calendar is seeded once).
if (!existsSync(project)) mkdirSync(project);
for (const file of PROJECT_FILES) {
  rmSync(path.join(project, file), { recursive: true, force: true });
  cpSync(path.join(repoRoot, file), path.join(project, file), { recursive: true });
}
if (!existsSync(path.join(project, 'node_modules'))) symlinkSync(path.join(repoRoot, 'node_modules'), path.join(project, 'node_modules'));

let output = '';
let service: ChildProcess | undefined;
// The embedded database of the copy, as a contributor's `npm run dev` has it.
const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
const env = { ...inherited, PORT: String(PORT), LOG_LEVEL: 'warn' };

function start(): ChildProcess {
  const child = restartLoop
    ? spawn(process.execPath, ['bin/calendar.js', 'serve'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, ['scripts/dev.mjs', ...(args.includes('--no-typecheck') ? ['--no-typecheck'] : [])], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return child;
}

async function stopService(): Promise<void> {
  if (!service || service.exitCode !== null) return;
  const exited = new Promise((resolve) => service?.once('exit', resolve));
  service.kill('SIGINT');
  await exited;
}

async function answer(query: string): Promise<{ data?: { venues?: Record<string, unknown>[] } | null; errors?: unknown[] } | undefined> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return (await response.json()) as { data?: { venues?: Record<string, unknown>[] } | null; errors?: unknown[] };
  } catch {
    return undefined;
  }
}

async function descriptionOf(field: string): Promise<string | undefined> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __type(name: "Venue") { fields { name description } } }' }) }).catch(() => undefined);
  const body = (await response?.json()) as { data?: { __type: { fields: { name: string; description: string | null }[] } } } | undefined;
  return body?.data?.__type.fields.find((f) => f.name === field)?.description ?? undefined;
}

/** Milliseconds from `since` until `check` holds, polling every 5 ms (120 s at most). */
async function until(since: number, check: () => Promise<boolean> | boolean): Promise<number> {
  for (;;) {
    if (await check()) return performance.now() - since;
    if (performance.now() - since > 120_000) throw new Error('not within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Saves the files; with --restart, then runs the stand-in loop's steps. */
function save(files: Record<string, string>): number {
  const since = performance.now();
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(project, file), text);
  if (restartLoop) {
    void (async () => {
      await stopService();
      spawnSync('npx', ['graphql-codegen', '--config', 'codegen.ts'], { cwd: project, stdio: 'ignore' });
      spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: project, stdio: 'ignore' });
      service = start();
    })();
  }
  return since;
}

const read = (file: string) => readFileSync(path.join(project, file), 'utf8');
const sdl0 = read('schema.graphql');
const venue0 = read('src/schema/resolvers/Venue.ts');
const venueEnd = sdl0.indexOf('\n}', sdl0.indexOf('type Venue {'));
const sdlWith = (fields: string) => `${sdl0.slice(0, venueEnd)}\n${fields}${sdl0.slice(venueEnd)}`;
const venueWith = (resolvers: string, prefix = '') =>
  venue0
    .replace('export const Venue = { ...venueFields } satisfies VenueResolvers;', `export const Venue = {\n  ...venueFields,\n${resolvers}} satisfies VenueResolvers;`)
    .replace('  ...renamedFieldResolvers(VENUE_FIELDS),\n', `  ...renamedFieldResolvers(VENUE_FIELDS),\n  postalCode: (v) => (v.postal_code == null ? null : '${prefix}' + v.postal_code),\n`);

const started = performance.now();
if (restartLoop) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: project, stdio: 'ignore' });
service = start();
await until(started, async () => (await answer('{ venues { name } }'))?.data?.venues !== undefined);
console.log(`${restartLoop ? 'calendar serve (stand-in loop)' : 'npm run dev'}: answering ${((performance.now() - started) / 1000).toFixed(1)} s after the command`);
// Let the first typecheck of the dev loop finish: each save is then met by an incremental one, as in a session.
if (!restartLoop && !args.includes('--no-typecheck')) await until(performance.now(), () => /typecheck: /.test(output));

const timings: Record<string, number[]> = { 'field + resolver': [], 'resolver only': [], 'syntax error reported': [], 'fix served': [] };
let fields = '';
let resolvers = '';
for (let round = 1; round <= rounds; round++) {
  const field = `benchField${round}`;
  fields += `  "Bench ${round}."\n  ${field}: String\n`;
  resolvers += `  ${field}: (v) => 'r${round}-' + v.slug,\n`;
  const sdl = sdlWith(fields);
  let since = save({ 'schema.graphql': sdl, 'src/schema/resolvers/Venue.ts': venueWith(resolvers, `p${round}-`) });
  timings['field + resolver']?.push(await until(since, async () => String((await answer(`{ venues { ${field} } }`))?.data?.venues?.[0]?.[field]).startsWith(`r${round}-`)));

  since = save({ 'src/schema/resolvers/Venue.ts': venueWith(resolvers, `q${round}-`) });
  timings['resolver only']?.push(
    await until(since, async () => {
      const venues = (await answer('{ venues { postalCode } }'))?.data?.venues ?? [];
      return venues.some((v) => String(v['postalCode']).startsWith(`q${round}-`));
    }),
  );

  if (!restartLoop) {
    const mark = output.length;
    since = save({ 'schema.graphql': sdl.replace(`  ${field}: String\n`, `  ${field}: String(\n`) });
    timings['syntax error reported']?.push(await until(since, () => /schema\.graphql:\d+:\d+: Syntax Error/.test(output.slice(mark))));
    if ((await answer(`{ venues { ${field} } }`))?.data?.venues === undefined) throw new Error('the service stopped answering after a syntax error');
    // The fix changes the field's description too: served when introspection shows it.
    since = save({ 'schema.graphql': sdl.replace(`"Bench ${round}."`, `"Bench ${round}, fixed."`) });
    timings['fix served']?.push(await until(since, async () => (await descriptionOf(field)) === `Bench ${round}, fixed.`));
  }
}
process.on('exit', (code) => {
  // A failed run leaves no service behind (the next would find its port taken).
  service?.kill('SIGINT');
  if (code !== 0) console.error(output.split('\n').filter((line) => line.startsWith('dev: ') || line.startsWith('  ')).slice(-30).join('\n'));
});
// The dev loop's typecheck after a save that breaks a type (a resolver answering a number for a String), and
// after its fix: seconds from the save to tsc's report (tsc --watch is incremental after its first run).
const typecheckRounds: Record<string, number[]> = { 'type error reported': [], 'fix reported clean': [] };
if (!restartLoop && !args.includes('--no-typecheck')) {
  const venueNow = read('src/schema/resolvers/Venue.ts');
  for (let round = 1; round <= rounds; round++) {
    let mark = output.length;
    let since = save({ 'src/schema/resolvers/Venue.ts': venueNow.replace(`benchField1: (v) => 'r1-' + v.slug`, `benchField1: (v) => ${round}`) });
    typecheckRounds['type error reported']?.push(await until(since, () => /typecheck: [1-9]\d* errors? \(/.test(output.slice(mark))));
    mark = output.length;
    since = save({ 'src/schema/resolvers/Venue.ts': venueNow });
    typecheckRounds['fix reported clean']?.push(await until(since, () => /typecheck: no errors \(/.test(output.slice(mark))));
  }
}
await stopService();
Object.assign(timings, typecheckRounds);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
console.log(`| save (${rounds} each) | p50 (ms) | max (ms) |\n|---|---|---|`);
for (const [name, values] of Object.entries(timings)) {
  if (values.length > 0) console.log(`| ${name} | ${Math.round(median(values))} | ${Math.round(Math.max(...values))} |`);
}
// The dev loop's own typecheck (tsc --watch beside it): how long after a save it reported.
for (const [line] of output.matchAll(/^dev: typecheck: \w+ errors? \(.*\)$/gm)) console.log(line);
