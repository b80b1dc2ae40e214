import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { recordPhase } from './phase-timings.js';

/**
 * CPU a test file used, for `npm run test:timings` (phase `cpu`): this worker process's user and
 * system time plus that of the processes it started and waited for (`calendar`, npm, tsc; Linux's
 * /proc/self/stat counts those when they are reaped), from the file's first hook to its last. Its wall
 * time less this is time the file waited (sleeps, timers, a server's answer), which another worker
 * could have used. Nothing is read where /proc is missing or no phase file is kept.
 */
const TICKS_PER_SECOND = 100;

function cpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces): utime, stime, cutime, cstime are 14–17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, at) => sum + Number(fields[at]), 0);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

if (process.env['TEST_PHASES_FILE']) {
  let started: number | undefined;
  beforeAll(() => {
    started = cpuMs();
  });
  afterAll(() => {
    const ended = cpuMs();
    if (started !== undefined && ended !== undefined) recordPhase('cpu', ended - started);
  });
}
