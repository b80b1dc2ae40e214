// `npm run dev`: the service on the embedded database with the demo calendar (as `npm start` runs it), taking
// in each save of schema.graphql, queries/, src/ and codegen.ts (docs/regenerate.md, "The dev loop").
// This launcher builds dist/ (`npm run build`), compiles the dev host (scripts/dev/host.ts, with codegen.ts
// in it) and runs it; when the host asks for a restart (exit status 75: a change the running service
// cannot take in), it compiles and runs it again. Plain JavaScript, as scripts/build.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { NODE_TARGET } from './server-build-options.mjs';

const RESTART_EXIT_CODE = 75;
const root = fileURLToPath(new URL('..', import.meta.url));
const host = join(root, 'node_modules/.cache/calendar-dev/host.mjs');
const hostArguments = process.argv.slice(2);

// A terminal's Ctrl-C reaches the host too (the whole process group); a signal sent to this process alone is
// passed on. Either way the host stops the service and exits, and this process with it.
let running;
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => running?.kill(signal));

for (;;) {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  await build({
    entryPoints: [join(root, 'scripts/dev/host.ts')],
    outfile: host,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: NODE_TARGET,
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  const status = await new Promise((resolve) => {
    running = spawn(process.execPath, ['--enable-source-maps', host, ...hostArguments], { cwd: root, stdio: 'inherit' });
    running.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  if (status !== RESTART_EXIT_CODE) process.exit(status);
}
