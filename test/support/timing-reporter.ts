import { readFileSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import type { Phase } from './phase-timings.js';

/** One test file of a run, as `scripts/test-timings.ts` reports it. */
export interface FileTiming {
  file: string;
  /** Project (tier) it ran in. */
  project: string;
  tests: { passed: number; failed: number; skipped: number };
  /** Start of its import to the end of its last hook (ms). */
  wallMs: number;
  /** Importing the file and everything it imports (ms). */
  importMs: number;
  /** Its tests alone (ms), hooks left out. */
  testsMs: number;
  /** Its hooks (beforeAll, afterEach, ...): duration of tests and hooks minus the tests (ms). */
  hooksMs: number;
  /** What its support modules timed (test/support/phase-timings.ts), by phase (ms). */
  phases: Partial<Record<Phase, number>>;
  /** How many times each phase ran. */
  phaseCounts: Partial<Record<Phase, number>>;
  /** When the reporter heard the file start and end, ms after the run started: when files ran side by side, and when none ran. */
  startedMs: number;
  endedMs: number;
}

/**
 * A Vitest reporter writing one FileTiming per test file to TEST_TIMINGS_FILE at the end of a run,
 * with the phases the support modules appended to TEST_PHASES_FILE summed per file.
 */
export default class TimingReporter implements Reporter {
  private readonly files: FileTiming[] = [];
  private readonly runStarted = performance.now();
  private readonly started = new Map<string, number>();

  onTestModuleQueued(module: TestModule): void {
    this.started.set(module.moduleId, performance.now() - this.runStarted);
  }

  onTestModuleEnd(module: TestModule): void {
    const diagnostic = module.diagnostic();
    const tests = { passed: 0, failed: 0, skipped: 0 };
    let testsMs = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') tests.passed++;
      else if (state === 'failed') tests.failed++;
      else tests.skipped++;
      testsMs += test.diagnostic()?.duration ?? 0;
    }
    this.files.push({
      file: module.relativeModuleId,
      project: module.project.name,
      tests,
      wallMs: Math.round(diagnostic.prepareDuration + diagnostic.collectDuration + diagnostic.duration),
      importMs: Math.round(diagnostic.collectDuration),
      testsMs: Math.round(testsMs),
      hooksMs: Math.round(Math.max(0, diagnostic.duration - testsMs)),
      phases: {},
      phaseCounts: {},
      startedMs: Math.round(this.started.get(module.moduleId) ?? 0),
      endedMs: Math.round(performance.now() - this.runStarted),
    });
  }

  onTestRunEnd(): void {
    const out = process.env['TEST_TIMINGS_FILE'];
    if (!out) return;
    const byFile = new Map(this.files.map((timing) => [timing.file, timing]));
    const phasesFile = process.env['TEST_PHASES_FILE'];
    const lines = phasesFile ? readLines(phasesFile) : [];
    for (const line of lines) {
      const { file, phase, ms } = JSON.parse(line) as { file: string; phase: Phase; ms: number };
      const timing = byFile.get(file);
      if (!timing) continue;
      timing.phases[phase] = (timing.phases[phase] ?? 0) + ms;
      timing.phaseCounts[phase] = (timing.phaseCounts[phase] ?? 0) + 1;
    }
    writeFileSync(out, `${JSON.stringify(this.files, null, 1)}\n`);
  }
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}
