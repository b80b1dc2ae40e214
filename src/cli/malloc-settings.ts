import { readFileSync } from 'node:fs';

/**
 * The allocator setting `calendar serve` should run with on glibc, given in its environment where the
 * process is launched (glibc reads it once, before any JavaScript runs): `npm start`, bin/calendar.js's
 * shebang, the container image, the systemd unit and the Kubernetes manifest set it; a primary of
 * WORKERS > 1 passes it to its workers when it lacks it (their environment is made by the primary).
 *
 * `MALLOC_MMAP_THRESHOLD_=131072`: every block of 128 KiB or more is a mapping of its own, returned to
 * the system when freed. glibc's default starts there too but slides: each time a mapped block is freed,
 * the threshold rises to its size (up to 32 MiB), and from then on such blocks come from the heap and
 * their pages stay with the process when freed. A read model's columns are such blocks (2.3 M dates at
 * 1 000 000 events: 18 MB per Float64 column); once one full build had replaced another, the next
 * compaction's columns came from the heap, and the RSS stayed 1.3x steady after the replaced build was
 * collected, where with the threshold fixed it came back within 3 % (docs/performance.md, "Compaction's
 * memory"). Fixing it also stops glibc's trim threshold from sliding with it: freed heap tops go back.
 */
export const SERVE_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** The glibc tunable the variable is an alias of (GLIBC_TUNABLES=glibc.malloc.mmap_threshold=N sets it too). */
const MMAP_THRESHOLD_TUNABLE = /(?:^|:)glibc\.malloc\.mmap_threshold=(\d+)/;

/** The mmap threshold this environment fixes (bytes), or null when it leaves glibc's sliding default. */
export function mmapThresholdOf(env: NodeJS.ProcessEnv = process.env): number | null {
  const tunable = MMAP_THRESHOLD_TUNABLE.exec(env['GLIBC_TUNABLES'] ?? '');
  if (tunable) return Number(tunable[1]);
  const value = env['MALLOC_MMAP_THRESHOLD_'];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

let glibc: boolean | undefined;

/** Whether this process's C library is glibc (musl, as on Alpine, has no such setting). */
export function runsOnGlibc(): boolean {
  if (glibc === undefined) {
    try {
      glibc = process.platform === 'linux' && /\/libc\.so\.6\b/.test(readFileSync('/proc/self/maps', 'utf8'));
    } catch {
      glibc = false;
    }
  }
  return glibc;
}

/** Whether this environment leaves glibc's threshold sliding (never off glibc). */
function lacksThreshold(env: NodeJS.ProcessEnv, onGlibc: boolean): boolean {
  return onGlibc && mmapThresholdOf(env) === null;
}

/** The `NAME=value` settings of SERVE_MALLOC_ENV this environment lacks (none off glibc, or with its own threshold). */
export function missingMallocSettings(env: NodeJS.ProcessEnv = process.env, onGlibc: boolean = runsOnGlibc()): string[] {
  return lacksThreshold(env, onGlibc) ? Object.entries(SERVE_MALLOC_ENV).map(([name, value]) => `${name}=${value}`) : [];
}

/** More environment for a cluster worker: serve's allocator setting when the primary's lacks it. */
export function workerMallocEnv(env: NodeJS.ProcessEnv = process.env, onGlibc: boolean = runsOnGlibc()): Record<string, string> {
  return lacksThreshold(env, onGlibc) ? { ...SERVE_MALLOC_ENV } : {};
}

/** The one line a `calendar serve` started without the setting logs at start. */
export function missingMallocSettingsWarning(missing: readonly string[]): string {
  const settings = missing.join(' ');
  return (
    `started without ${settings} in its environment: glibc keeps the memory a replaced read-model build frees ` +
    `(after a compaction the RSS stays up to a third above steady); set it where the process is launched ` +
    `(${settings} node … bin/calendar.js serve), as npm start and ./bin/calendar.js do (docs/operating.md, "Node flags")`
  );
}
