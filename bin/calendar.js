#!/usr/bin/env -S node --max-semi-space-size=16 --no-allocation-site-pretenuring
// The `calendar` command, and what `npm start` and `npm run calendar` run: the TypeScript sources
// through tsx's loader, in this one process, with no build step (docs/runtime.md says why).
// The shebang gives `npx calendar` and `./bin/calendar.js` serve's V8 flags (src/cli/serve-v8-flags.ts);
// `node bin/calendar.js` gives none, and `calendar serve` then says so.
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { exitOnUnsupportedNode } from './node-version-check.js';

// First, before tsx: on an older Node, one line that says which is needed, not a failure later.
exitOnUnsupportedNode();
const { register } = await import('tsx/esm/api');

// tsx keeps the JavaScript it made in $TMPDIR/tsx-<uid> and cannot start where it may not create
// that folder (a read-only container): there it transforms afresh at every start instead.
try {
  accessSync(tmpdir(), constants.W_OK);
} catch {
  process.env.TSX_DISABLE_CACHE ??= '1';
}

// `tsconfig: false`: tsx would otherwise apply tsconfig.json's `paths` at run time, and the entry
// that shows `tsc` graphql-helix's types (`dist/index.d.ts`) would make Node load that declaration
// file as the module: with tsx's ESM hook alone it has no exports ("does not provide an export
// named processRequest"), and Node 24 refuses to strip types under node_modules. Without it,
// packages resolve the way Node and the tests (Vitest) resolve them. The JavaScript tsx emits for
// src/ is the same with or without tsconfig.json (compared file by file: docs/runtime.md).
register({ tsconfig: false });
await import('../src/cli/main.ts');
