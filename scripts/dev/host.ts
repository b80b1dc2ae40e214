import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { watch } from 'chokidar';
import { parse, type GraphQLError } from 'graphql';
import { validateSDL } from 'graphql/validation/validate.js';
import type * as AppModule from '../../src/app.js';
import type * as ConfigModule from '../../src/config.js';
import type * as SchemaModule from '../../src/schema/executable-schema.js';
import type * as TrustedDocumentsModule from '../../src/trusted-documents.js';
import { ModuleGenerations } from './module-generations.js';
import { compileSources } from './compile-sources.js';
import { regenerate } from './regenerate.js';
import { startTypecheck } from './typecheck.js';
import { RESTART_EXIT_CODE } from './restart-exit-code.js';
import { isServerSource } from '../server-build-options.mjs';

/*
 * The dev host (`npm run dev`, started by scripts/dev.mjs): the service from dist/ on the embedded
 * database with the demo calendar, as `npm start` runs it, with its schema replaced in this process on
 * each save. A save of schema.graphql builds the schema from the new SDL; a save under src/ compiles
 * the file, and when every module it reaches is part of the schema's code (resolvers and what only they
 * use) imports those modules again and builds the schema with them; a change that reaches code the
 * running service holds (the read model, the database, HTTP) restarts the host. A save in queries/
 * regenerates the trusted documents, served at once. Whatever fails leaves the last good schema served.
 */

const root = process.cwd();
const dist = path.join(root, 'dist') + path.sep;
const schemaFile = path.join(root, 'schema.graphql');
const schemaEntry = path.join(dist, 'schema/executable-schema.js');
const codegenFile = path.join(root, 'codegen.ts');
const relative = (file: string) => path.relative(root, file);
/** The files whose saves the host takes in. */
const watchedFile = (file: string) =>
  file === schemaFile || file === codegenFile || isServerSource(relative(file)) || (relative(file).startsWith(`queries${path.sep}`) && file.endsWith('.graphql'));
const generations = new ModuleGenerations(dist);
/** The source file of a dist/ module, as the contributor knows it. */
const sourceOf = (module: string) => path.join('src', path.relative(dist, module)).replace(/\.js$/, '.ts');
const say = (line: string): void => void process.stdout.write(`dev: ${line}\n`);

const distModule = <T>(file: string) => import(pathToFileURL(path.join(dist, file)).href) as Promise<T>;
const { readConfig } = await distModule<typeof ConfigModule>('config.js');
const { startService } = await distModule<typeof AppModule>('app.js');
const { loadPersistedDocuments } = await distModule<typeof TrustedDocumentsModule>('trusted-documents.js');

const started = performance.now();
const trustedDocuments = loadPersistedDocuments();
const service = await startService(readConfig(), { replaceableSchema: true, trustedDocuments });
const { replaceSchema } = service;
if (!replaceSchema) throw new Error('the service was started without a replaceable schema');
const serve: (served: SchemaModule.ServedSchema) => void = replaceSchema;
/** Where the schema's code is imported from now: the first instance, until a save reaches it. */
let schemaModuleUrl = pathToFileURL(schemaEntry).href;

const typecheck = process.argv.includes('--no-typecheck') ? undefined : startTypecheck(root, say);

// Saves come in bursts (several files, or an editor's write, rename and touch): gathered for a moment,
// applied one batch at a time.
const pending = new Set<string>();
let timer: NodeJS.Timeout | undefined;
let applying = Promise.resolve();
function saw(file: string): void {
  pending.add(file);
  timer ??= setTimeout(() => {
    timer = undefined;
    const batch = [...pending];
    pending.clear();
    applying = applying.then(() => apply(batch)).catch((error: unknown) => say(`failed: ${failure(error)}`));
  }, 20);
}

// chokidar: one watch per folder, and an editor's save by rename (write a copy, replace the file) is one change.
// awaitWriteFinish: a file is reported once it has stopped changing for 25 ms, so that two writes in a row (a
// save, then a formatter's) are one change; without it chokidar drops a second change within 50 ms of the first.
const watcher = watch([schemaFile, codegenFile, path.join(root, 'src'), path.join(root, 'queries')], {
  ignoreInitial: true,
  awaitWriteFinish: { stabilityThreshold: 25, pollInterval: 5 },
  ignored: (file, stats) => stats?.isFile() === true && !watchedFile(file),
});
watcher.on('all', (_event, file) => {
  if (watchedFile(file)) saw(file);
});

let stopping = false;
async function stop(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  typecheck?.stop();
  await watcher.close();
  await service.close();
  process.exit(exitCode);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
// Said once the watches are in place: a save made after this line is never missed (chokidar's first scan of
// src/ takes a moment, longer on a busy machine, and a save before it ends is not reported).
await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
say(`serving ${service.url} (${service.database.driver}, ready in ${Math.round(performance.now() - started)} ms); watching schema.graphql, queries/, src/, codegen.ts`);

/** `schema.graphql:line:column: message` for each error of the SDL (syntax, then the SDL's own rules); none: it is valid. */
function sdlErrors(source: string): string[] {
  const place = (error: GraphQLError) => {
    const at = error.locations?.[0];
    return `${relative(schemaFile)}${at ? `:${at.line}:${at.column}` : ''}: ${error.message}`;
  };
  try {
    return validateSDL(parse(source)).map(place);
  } catch (error) {
    return [place(error as GraphQLError)];
  }
}

/** What a failed import or schema build says, with the first place in the project's files its stack names. */
function failure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const frame = error.stack?.split('\n').find((line) => line.includes(root) && !line.includes('node_modules'));
  const where = frame?.match(/\(?((?:file:\/\/)?\/[^()]+:\d+:\d+)\)?\s*$/)?.[1]?.replace('file://', '').replace(/\?generation=\d+/, '');
  return where ? `${relative(where)}: ${error.message}` : error.message;
}

/** One batch of saved files, applied in order: sources compiled, the schema built and served, codegen. */
async function apply(saved: readonly string[]): Promise<void> {
  const since = performance.now();
  const names = saved.map(relative).join(', ');
  const sdlSaved = saved.includes(schemaFile);
  const documentsSaved = saved.some((file) => relative(file).startsWith(`queries${path.sep}`) && file.endsWith('.graphql'));
  const sources = saved.filter((file) => isServerSource(relative(file)));
  if (saved.includes(codegenFile)) {
    say(`${names}: codegen.ts changed: restarting`);
    return stop(RESTART_EXIT_CODE);
  }

  let reloaded: Set<string> | undefined;
  if (sources.length > 0) {
    const compiled = await compileSources(root, sources);
    if (compiled.errors.length > 0) {
      say(`${names}: not served (the last good version is):\n  ${compiled.errors.join('\n  ')}`);
      return;
    }
    const reach = generations.reach(compiled.modules, schemaEntry);
    if (reach.reachesPast) {
      say(`${names}: reaches ${sourceOf(reach.reachesPast)}, which the running service holds: restarting`);
      return stop(RESTART_EXIT_CODE);
    }
    if (reach.modules.size > 0) reloaded = reach.modules;
  }

  if (sdlSaved || reloaded) {
    const source = await readFile(schemaFile, 'utf8');
    const errors = sdlErrors(source);
    if (errors.length > 0) {
      say(`${names}: not served (the last good schema is):\n  ${errors.join('\n  ')}`);
      return;
    }
    const moduleUrl = reloaded ? generations.advance(reloaded, schemaEntry) : schemaModuleUrl;
    try {
      const { buildServedSchema } = (await import(moduleUrl)) as typeof SchemaModule;
      serve(buildServedSchema(source));
      schemaModuleUrl = moduleUrl;
    } catch (error) {
      say(`${names}: not served (the last good schema is):\n  ${failure(error)}`);
      return;
    }
  }

  if (documentsSaved && !sdlSaved) {
    try {
      await regenerate(root, 'documents');
    } catch (error) {
      say(`${names}: documents not regenerated (the last good ones are served):\n  ${failure(error)}`);
      return;
    }
    refillTrustedDocuments();
  }
  say(`${names}: served in ${Math.round(performance.now() - since)} ms${reloaded ? ` (${reloaded.size} modules reloaded)` : ''}`);

  if (sdlSaved) {
    // After serving: the typed outputs (resolver types, the client's documents) follow for typecheck and the client.
    try {
      const regenerated = await regenerate(root, 'schema');
      refillTrustedDocuments();
      say(`codegen: ${regenerated.outputs.length} outputs in ${regenerated.ms} ms`);
    } catch (error) {
      say(`codegen failed:\n  ${failure(error)}`);
    }
  }
  typecheck?.saved(since);
}

function refillTrustedDocuments(): void {
  const documents = loadPersistedDocuments();
  trustedDocuments.clear();
  for (const [hash, text] of documents) trustedDocuments.set(hash, text);
}
