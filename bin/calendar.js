#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node --max-semi-space-size=16 --no-allocation-site-pretenuring
// The `calendar` command, and what `npm start` and `npm run calendar` run: the compiled JavaScript in
// dist/ (`npm run build`; `npm ci` and `npm pack` build it), with no TypeScript tool at run time
// (docs/runtime.md says why).
// The shebang gives `npx calendar` and `./bin/calendar.js` serve's V8 flags (src/cli/serve-v8-flags.ts) and
// its allocator setting (src/cli/malloc-settings.ts: `env` sets it before node starts); `node bin/calendar.js`
// gives neither, and `calendar serve` then says so.
import { existsSync } from 'node:fs';
import { exitOnUnsupportedNode } from './node-version-check.js';

// First: on an older Node, one line that says which is needed, not a failure later.
exitOnUnsupportedNode();

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('calendar: dist/ is not built: run `npm run build` (npm ci does it) in the checkout\n');
  process.exit(1);
}
// Stack traces name the TypeScript files and lines (dist/ carries source maps); mapping costs only
// when a trace is printed.
process.setSourceMapsEnabled(true);
await import(main.href);
