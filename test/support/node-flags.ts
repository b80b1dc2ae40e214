/**
 * The Node flags of every process the tests run on the embedded database: Vitest's workers
 * (vitest.config.ts, `execArgv`) and the `calendar` processes the tests start.
 *
 * `--liftoff-only`: V8 compiles PGlite's WebAssembly (a 9 MB module) with its baseline compiler only.
 * By default each new process and thread also tiers the hot part of it up with TurboFan in the
 * background, which on this suite's short-lived processes costs more CPU than the faster code saves
 * (`calendar migrate` on a migrated data directory: 3.4 s → 1.9 s wall, 4.0 → 2.2 s of CPU; docs/testing.md). What the
 * processes do is unchanged: only how V8 compiles the database's code.
 */
export const TEST_NODE_FLAGS: readonly string[] = ['--liftoff-only'];
