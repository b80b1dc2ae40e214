import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

export interface Typecheck {
  /** A batch of saves was applied at `at` (performance.now()): the next check that starts after it says how long after it came. */
  saved(at: number): void;
  stop(): void;
}

/**
 * `tsc --noEmit --watch` beside the dev host (the project's tsconfig, incremental between saves), at a
 * lower priority than the service: its errors as tsc prints them (`file(line,col): error TS…`), then one
 * line per check with how many, how long the check took, and how long after the last save it came.
 */
export function startTypecheck(root: string, say: (line: string) => void): Typecheck {
  const tsc = createRequire(`${root}/package.json`).resolve('typescript/bin/tsc');
  const child = spawn(process.execPath, [tsc, '--noEmit', '--watch', '--preserveWatchOutput', '--pretty', 'false'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.pid !== undefined) setPriority(child.pid, 10);
  let lastSave: number | undefined;
  let checkStarted = performance.now();
  let checkedSave: number | undefined;
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    if (/error TS\d+/.test(line)) return say(`typecheck: ${line}`);
    if (/File change detected\. Starting incremental compilation/.test(line)) {
      checkStarted = performance.now();
      checkedSave = lastSave;
      return;
    }
    const found = line.match(/Found (\d+) errors?\. Watching for file changes\./);
    if (!found) return;
    const now = performance.now();
    const count = Number(found[1]);
    const result = count === 0 ? 'no errors' : `${count} error${count === 1 ? '' : 's'}`;
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    const after = checkedSave === undefined ? 'the start' : 'the save';
    say(`typecheck: ${result} (checked in ${seconds(now - checkStarted)} s, ${seconds(now - (checkedSave ?? checkStarted))} s after ${after})`);
  });
  return {
    saved(at) {
      lastSave = at;
    },
    stop() {
      child.kill();
    },
  };
}
