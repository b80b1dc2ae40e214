import { defineConfig } from 'vitest/config';
import { createRequire } from 'node:module';
import { exitOnUnsupportedNode } from './bin/node-version-check.js';

// Before any test: on an older Node, one line that says which is needed, not failures ten minutes later.
exitOnUnsupportedNode();

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 must load once: its CJS and ESM builds would otherwise both appear ("another realm").
    alias: { graphql: require.resolve('graphql/index.js').replace(/index\.js$/, 'index.js') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // dist/ from the sources under test: the process tests run it (test/support/build-before-tests.ts).
    globalSetup: ['test/support/build-before-tests.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // PGlite instances are memory hungry at start; two workers fit the 2-core machine.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
