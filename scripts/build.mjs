// `npm run build`: what production runs, made ahead of time (docs/runtime.md).
// - src/**/*.ts (the browser widget aside) -> dist/**/*.js, one file each, with source maps: the same
//   module graph as src/, so paths relative to a module (schema.graphql, generated/) hold in both;
// - src/db/pglite-worker.js copied beside them (a worker thread Node starts from its own file);
// - the widget bundled for browsers -> dist/widget/widget.js (served at /widget/widget.js);
// - with --client (what `prepare` asks, so `npm ci` leaves everything built): the typed client package too.
// Plain JavaScript, so it runs with no TypeScript loader. esbuild is a devDependency: in an
// installation without it (`npm install --omit=dev` of the packed release, which ships dist/), this
// says so and leaves the dist/ that is there, or fails when there is none.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, globSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isServerSource, serverBuildOptions } from './server-build-options.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
/** The files that are not TypeScript but run from dist/ beside the compiled ones. */
const COPIED = ['db/pglite-worker.js'];
/** The widget's entry: browser code, bundled on its own, never run by Node. */
const WIDGET_ENTRY = join(root, 'src/client/widget/main.ts');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  if (existsSync(join(dist, 'cli/main.js'))) {
    console.log('build: esbuild is not installed (a production install): the dist/ that is here stays as it is');
    process.exit(0);
  }
  console.error('build: esbuild is not installed and there is no dist/: install the dev dependencies (npm ci) and run npm run build');
  process.exit(1);
}

const started = performance.now();
rmSync(dist, { recursive: true, force: true });

const serverEntries = globSync('src/**/*.ts', { cwd: root })
  .filter(isServerSource)
  .map((path) => join(root, path));

await esbuild.build(serverBuildOptions(root, serverEntries));

for (const file of COPIED) {
  const target = join(dist, file);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(root, 'src', file), target);
}

await esbuild.build({
  entryPoints: [WIDGET_ENTRY],
  outfile: join(dist, 'widget/widget.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  legalComments: 'none',
  logLevel: 'warning',
});

console.log(`build: ${serverEntries.length} modules and the widget in dist/ (${Math.round(performance.now() - started)} ms)`);

if (process.argv.includes('--client')) {
  const { status } = spawnSync('npm', ['run', 'build', '--silent', '--workspace=@event-calendar-api/client'], { cwd: root, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
