/**
 * Where a test run's time goes, per file: `npm run test:timings -- [options] [-- vitest arguments]`.
 *
 * Runs `vitest run` (all projects unless told otherwise) with test/support/timing-reporter.ts and the
 * phase log of test/support/phase-timings.ts, then prints one Markdown row per file: tests, wall time,
 * import, hooks, tests, and the phases its support modules timed (embedded database opened and
 * migrated, calendars imported, services and child processes started, browsers, Varnish, PostgreSQL
 * clusters, waits). The run's whole wall time is the last line.
 *
 *   --out FILE       keep the run as JSON (default: a temp file)
 *   --compare FILE   a run kept before: adds per-file test counts and wall times before/after
 *   --table FILE     print the table of a kept run without running anything
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileTiming } from '../test/support/timing-reporter.js';
import type { Phase } from '../test/support/phase-timings.js';

interface Run {
  wallMs: number;
  exitCode: number;
  files: FileTiming[];
}

const PHASES: Phase[] = ['database open', 'template unpack', 'database migrate', 'database emptied', 'calendar import', 'service start', 'child process', 'browser', 'varnish', 'postgres cluster', 'redis server', 'wait', 'cpu'];

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

function run(vitestArgs: string[], out: string): Run {
  const dir = mkdtempSync(join(tmpdir(), 'test-timings-'));
  const timings = join(dir, 'files.json');
  const started = performance.now();
  const result = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=./test/support/timing-reporter.ts', ...vitestArgs], {
    stdio: 'inherit',
    env: { ...process.env, TEST_TIMINGS_FILE: timings, TEST_PHASES_FILE: join(dir, 'phases.jsonl') },
  });
  const wallMs = Math.round(performance.now() - started);
  let files: FileTiming[] = [];
  try {
    files = JSON.parse(readFileSync(timings, 'utf8')) as FileTiming[];
  } catch {
    // The run ended before its reporter wrote (a crash): the table says so by being empty.
  }
  const kept: Run = { wallMs, exitCode: result.status ?? 1, files };
  writeFileSync(out, `${JSON.stringify(kept, null, 1)}\n`);
  return kept;
}

const seconds = (ms: number | undefined) => (ms ? (ms / 1000).toFixed(1) : '');
const count = (timing: FileTiming) => timing.tests.passed + timing.tests.failed + timing.tests.skipped;

function table(current: Run, before?: Run): string {
  const previous = new Map(before?.files.map((timing) => [timing.file, timing]));
  const header = ['file', 'tests', ...(before ? ['tests before', 'wall before (s)'] : []), 'wall (s)', 'import', 'hooks', 'tests (s)', ...PHASES];
  const rows = [...current.files].sort((a, b) => b.wallMs - a.wallMs);
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const timing of rows) {
    const old = previous.get(timing.file);
    const phases = PHASES.map((phase) => {
      const ms = timing.phases[phase];
      return ms ? `${seconds(ms)} (${timing.phaseCounts[phase]}×)` : '';
    });
    const skipped = timing.tests.skipped ? ` (${timing.tests.skipped} skipped)` : '';
    const failed = timing.tests.failed ? ` **${timing.tests.failed} failed**` : '';
    lines.push(
      `| ${timing.file} | ${count(timing)}${skipped}${failed} | ${before ? `${old ? count(old) : '—'} | ${seconds(old?.wallMs)} | ` : ''}${seconds(timing.wallMs)} | ${seconds(timing.importMs)} | ${seconds(timing.hooksMs)} | ${seconds(timing.testsMs)} | ${phases.join(' | ')} |`,
    );
  }
  for (const old of before?.files ?? []) {
    if (!current.files.some((timing) => timing.file === old.file)) lines.push(`| ${old.file} | **missing** | ${count(old)} | ${seconds(old.wallMs)} |`);
  }
  const sum = (files: FileTiming[], pick: (timing: FileTiming) => number) => files.reduce((total, timing) => total + pick(timing), 0);
  const totals = PHASES.map((phase) => seconds(sum(current.files, (timing) => timing.phases[phase] ?? 0)));
  lines.push(
    `| **all ${current.files.length} files** | ${sum(current.files, count)} | ${before ? `${sum(before.files, count)} | ${seconds(sum(before.files, (t) => t.wallMs))} | ` : ''}${seconds(sum(current.files, (t) => t.wallMs))} | ${seconds(sum(current.files, (t) => t.importMs))} | ${seconds(sum(current.files, (t) => t.hooksMs))} | ${seconds(sum(current.files, (t) => t.testsMs))} | ${totals.join(' | ')} |`,
  );
  lines.push('', `Whole run: ${seconds(current.wallMs)} s wall${before ? ` (before: ${seconds(before.wallMs)} s)` : ''}; per-file times add up over the workers running side by side.`);
  const running = inFlight(current);
  if (running) lines.push(`Files running side by side, share of the run's wall time: ${running}.`);
  const cpuMs = sum(current.files, (timing) => timing.phases.cpu ?? 0);
  const waitedMs = sum(current.files, (timing) => Math.max(0, timing.wallMs - (timing.phases.cpu ?? timing.wallMs)));
  if (cpuMs > 0) lines.push(`CPU of the files (workers and the processes they waited for): ${seconds(cpuMs)} s; files waiting (wall less CPU, summed): ${seconds(waitedMs)} s.`);
  return lines.join('\n');
}

/** How long 0, 1, 2, ... files were running at once (from the reporter's start and end of each file). */
function inFlight(current: Run): string | undefined {
  const edges = current.files.flatMap((timing) => (timing.endedMs ? [[timing.startedMs, 1], [timing.endedMs, -1]] : [])).sort((a, b) => a[0]! - b[0]! || b[1]! - a[1]!);
  if (edges.length === 0) return undefined;
  const spent = new Map<number, number>();
  let at = 0;
  let count = 0;
  for (const [time, step] of edges) {
    spent.set(count, (spent.get(count) ?? 0) + (time! - at));
    at = time!;
    count += step!;
  }
  spent.set(0, (spent.get(0) ?? 0) + Math.max(0, current.wallMs - at));
  return [...spent.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([files, ms]) => `${files}: ${seconds(ms) || '0.0'} s`)
    .join(', ');
}

const args = process.argv.slice(2);
const separator = args.indexOf('--');
const own = separator >= 0 ? args.slice(0, separator) : args;
const vitestArgs = separator >= 0 ? args.slice(separator + 1) : [];
const compare = option(own, '--compare');
const before = compare ? (JSON.parse(readFileSync(compare, 'utf8')) as Run) : undefined;
const kept = option(own, '--table');
const current = kept ? (JSON.parse(readFileSync(kept, 'utf8')) as Run) : run(vitestArgs, option(own, '--out') ?? join(mkdtempSync(join(tmpdir(), 'test-timings-')), 'run.json'));
console.log(table(current, before));
process.exitCode = kept ? 0 : current.exitCode;
