import { defineConfig } from 'vitest/config';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { exitOnUnsupportedNode } from './bin/node-version-check.js';
import { TEST_NODE_FLAGS } from './test/support/node-flags.js';
import SlowFilesFirst from './test/support/slow-files-first.js';

// Before any test: on an older Node, one line that says which is needed, not failures ten minutes later.
exitOnUnsupportedNode();

const require = createRequire(import.meta.url);

/**
 * The fast tier (`npm run test:unit`): files that need no database (embedded or server), browser,
 * child process, thread or network, so they run in seconds on every save. test/support/unit-tier.ts
 * fails a file here that reaches for one of those; a new file belongs to the integration tier until
 * it is listed here.
 */
const UNIT_TESTS = [
  'test/domain/**/*.test.ts',
  'test/client/card-price.test.ts',
  'test/client/category-labels.test.ts',
  'test/client/cover-image.test.ts',
  'test/client/create-calendar-client.test.ts',
  'test/client/event-end.test.ts',
  'test/client/format-oslo.test.ts',
  'test/client/occurrence-key.test.ts',
  'test/client/parse-service-timestamp.test.ts',
  'test/client/price-display.test.ts',
  'test/cluster/restart-backoff.test.ts',
  'test/demo/demo-picture-path.test.ts',
  'test/feeds/ics-text.test.ts',
  'test/http/answer-bytes.test.ts',
  'test/http/fair-executions-deadline.test.ts',
  'test/read-model/large-answers.test.ts',
  'test/read-model/snapshot-change-log.test.ts',
  'test/request-target.test.ts',
  'test/route-table.test.ts',
  'test/schema/deprecated-uses.test.ts',
  'test/schema/field-coverage.test.ts',
];

/**
 * Integration files that need a process of their own, as every file had before workers ran file after
 * file: test/http/metrics.test.ts asserts what /metrics holds in a process that never had Redis, and
 * which Redis gauge a service's own connection sets, in a registry the process keeps for all its services.
 */
const OWN_PROCESS_TESTS = ['test/http/metrics.test.ts'];

export default defineConfig({
  resolve: {
    // graphql 16 must load once: its CJS and ESM builds would otherwise both appear ("another realm").
    alias: { graphql: require.resolve('graphql/index.js').replace(/index\.js$/, 'index.js') },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Three workers on two cores: the integration tier waits for a third of its time (child processes,
    // Varnish, browsers, npm, PostgreSQL servers of its own), which a third worker fills. Measured on this
    // 2-core machine (docs/testing.md): 320.6 s against 341.0 s for two on the embedded database, 320.9 s
    // against 338.6–351.7 s on PostgreSQL + Redis.
    // (A number: Vitest caps a percentage such as '150%' at the cores there are.)
    maxWorkers: Math.ceil(availableParallelism() * 1.5),
    // --liftoff-only (test/support/node-flags.ts says why).
    execArgv: [...TEST_NODE_FLAGS],
    // A worker process runs file after file (no test file mocks a module): each file's imports and the
    // embedded databases of test-database.ts are then made once per worker, not once per file.
    isolate: false,
    reporters: ['default'],
    // The CPU each file used, when `npm run test:timings` asks (test/support/file-cpu.ts).
    setupFiles: ['test/support/file-cpu.ts'],
    // The slowest files start first, with or without the durations of a last run (a fresh checkout).
    sequence: { sequencer: SlowFilesFirst },
    // `npm run test:coverage`: V8's coverage of src/ as the test processes run it (the `calendar`
    // processes the tests start run dist/ and are not counted).
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary', 'json-summary'] },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          setupFiles: ['test/support/unit-tier.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT_TESTS, ...OWN_PROCESS_TESTS],
          // dist/ from the sources under test: the process tests run it (test/support/build-before-tests.ts);
          // the migrated embedded database every test file's database starts from (embedded-template.ts).
          globalSetup: ['test/support/integration-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-own-process',
          include: OWN_PROCESS_TESTS,
          isolate: true,
          // The same setup (made once: it sees that the run has it already).
          globalSetup: ['test/support/integration-setup.ts'],
        },
      },
    ],
  },
});
