import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { expect } from 'vitest';

/**
 * What a test file's fixed costs are spent on, for `scripts/test-timings.ts`: each phase a support
 * module times (an embedded database opened, a child process started, ...) is appended as one JSON
 * line to TEST_PHASES_FILE, with the file it ran for. Without TEST_PHASES_FILE it only runs `work`.
 */
export type Phase =
  | 'database open'
  | 'template unpack'
  | 'database migrate'
  | 'database emptied'
  | 'calendar import'
  | 'service start'
  | 'child process'
  | 'browser'
  | 'varnish'
  | 'postgres cluster'
  | 'redis server'
  | 'wait'
  /** CPU of the worker and the processes it waited for (test/support/file-cpu.ts), not a step of the file. */
  | 'cpu';

const phasesFile = process.env['TEST_PHASES_FILE'];

export async function timedPhase<T>(phase: Phase, work: () => Promise<T>): Promise<T> {
  if (!phasesFile) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    recordPhase(phase, performance.now() - started);
  }
}

/** Records a phase measured by its caller (a process whose end is an event, not a promise of ours). */
export function recordPhase(phase: Phase, ms: number): void {
  if (!phasesFile) return;
  const testPath = expect.getState().testPath;
  const file = testPath ? relative(process.cwd(), testPath) : 'unknown';
  appendFileSync(phasesFile, `${JSON.stringify({ file, phase, ms: Math.round(ms) })}\n`);
}
