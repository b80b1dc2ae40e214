import { linkSync, mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { StartupError } from '../startup-error.js';

/**
 * One process per embedded data directory. PGlite is a single-user PostgreSQL: two processes that
 * open the same files (a second `serve`, an `import` while the service runs) each believe they own
 * them, and the data ends up corrupt. PGlite itself takes no lock, so we do, before it opens.
 *
 * Like PostgreSQL's `postmaster.pid`, the lock is a file naming its holder's pid, and a lock whose
 * process is gone (kill -9, a crash, a power cut) is taken over at once. proper-lockfile was
 * considered and not used: it judges staleness by a heartbeat mtime, so a restart after kill -9 is
 * refused for its stale period (5 s at least), and a main thread busy for longer than that (a large
 * import being validated) lets a second process in or aborts ours as "compromised".
 */

/** What the lock file says about its holder. */
interface LockHolder {
  pid: number;
  host: string;
  /** Start time of the process in clock ticks since boot (Linux), to tell a reused pid apart. */
  startTicks?: number | undefined;
  /** What it runs, for the message: `calendar serve`. */
  command: string;
  /** When it took the lock (ISO 8601). */
  since: string;
}

export interface DataDirLock {
  /** The lock file. */
  path: string;
  /** Removes the lock file (if it is still ours). Idempotent. */
  release(): void;
}

export const LOCK_FILE_NAME = 'calendar.lock';

/** A takeover in progress that is older than this was abandoned by a process that died in it. */
const ABANDONED_TAKEOVER_MS = 10_000;

/** Process-wide, as the lock files are: directories this process holds (a second open from it is refused as well). */
const held = new Set<string>();

/**
 * Takes the lock of `dataDir` (created when missing), or throws a StartupError naming the process
 * that holds it. A lock left by a process that no longer runs on this machine is taken over.
 */
export function lockDataDir(dataDir: string, command = `calendar ${process.argv.slice(2, 3).join(' ')}`.trim()): DataDirLock {
  const dir = resolve(dataDir);
  if (held.has(dir)) throw new StartupError(`The embedded database in ${dir} is already open in this process.`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE_NAME);
  const mine: LockHolder = { pid: process.pid, host: hostname(), startTicks: startTicksOf(process.pid), command, since: new Date().toISOString() };

  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(path, mine)) {
      held.add(dir);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        held.delete(dir);
        process.off('exit', release);
        // Never remove a lock another process took over meanwhile.
        const current = readHolder(path);
        if (current !== 'missing' && current !== 'unreadable' && sameHolder(current, mine)) removeIfPresent(path);
      };
      // A process that ends without closing the database (process.exit after a failure) still
      // leaves the directory free; after kill -9 the next process finds the pid gone instead.
      process.on('exit', release);
      return { path, release };
    }
    const holder = readHolder(path);
    if (holder === 'missing') continue;
    if (holder === 'unreadable' || isRunning(holder)) throw inUse(dir, path, holder);
    if (!takeOver(path, holder)) sleep(50 + attempt * 50);
  }
  const holder = readHolder(path);
  throw inUse(dir, path, holder === 'missing' ? 'unreadable' : holder);
}

/** Creates the lock file with its content in one step: link() fails if it exists, so nobody reads it half written. */
function tryCreate(path: string, holder: LockHolder): boolean {
  const draft = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(draft, `${JSON.stringify(holder)}\n`, { flag: 'wx' });
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    removeIfPresent(draft);
  }
}

function readHolder(path: string): LockHolder | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string' || typeof value.since !== 'string') return 'unreadable';
    return { pid: value.pid, host: value.host, startTicks: value.startTicks, command: String(value.command ?? ''), since: value.since };
  } catch {
    return 'unreadable';
  }
}

function sameHolder(a: LockHolder, b: LockHolder): boolean {
  return a.pid === b.pid && a.host === b.host && a.since === b.since;
}

/**
 * Whether the holder may still run. On another host we cannot tell, so it counts as running. Our
 * own pid is a previous run of ours (a container restarted with the same pid), since this process
 * holds no lock on the directory. A live pid that started at another time was reused.
 */
function isRunning(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, under another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const ticks = startTicksOf(holder.pid);
  return holder.startTicks === undefined || ticks === undefined || ticks === holder.startTicks;
}

/**
 * Removes a stale lock. Two processes may find the same stale lock at once: only the one that
 * creates the takeover directory (mkdir is atomic) removes it, after reading it again, so a lock
 * another process has just taken is never removed. Returns false when another takeover is running.
 */
function takeOver(path: string, stale: LockHolder): boolean {
  const mutex = `${path}.takeover`;
  try {
    mkdirSync(mutex);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (ageMs(mutex) > ABANDONED_TAKEOVER_MS) removeDirIfPresent(mutex);
    return false;
  }
  try {
    const current = readHolder(path);
    if (current !== 'missing' && current !== 'unreadable' && sameHolder(current, stale)) removeIfPresent(path);
  } finally {
    removeDirIfPresent(mutex);
  }
  return true;
}

function inUse(dir: string, path: string, holder: LockHolder | 'unreadable'): StartupError {
  if (holder === 'unreadable') {
    return new StartupError(`The embedded database in ${dir} is locked by ${path}, which cannot be read: if no calendar process uses the directory, delete that file.`);
  }
  const what = `${holder.command ? `${holder.command}, ` : ''}pid ${holder.pid}, since ${holder.since}`;
  // On another host we cannot see whether it still runs: the operator can.
  if (holder.host !== hostname()) {
    return new StartupError(`The embedded database in ${dir} is in use by a process on host ${holder.host} (${what}): stop it first; if it is gone, delete ${path}.`);
  }
  return new StartupError(
    `The embedded database in ${dir} is in use by another process (${what}): ` +
      'stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.',
  );
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. Linux only. */
function startTicksOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function removeDirIfPresent(path: string): void {
  try {
    rmdirSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A short synchronous pause between attempts (start-up only). */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
