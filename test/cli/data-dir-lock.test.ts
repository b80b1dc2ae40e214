import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { unpackTemplate } from '../support/migrated-data-dir.js';
import { runCalendar, startServe, type ServeProcess } from './calendar-process.js';

/**
 * One process per embedded data directory, tested as an operator meets it: `calendar serve` holds
 * the directory, and every other command started on it is refused with one line and status 1. Each
 * directory starts as a migrated database (the run's template unpacked): what is tested is the lock,
 * not a first start.
 */
const SERVE_ENV = { PORT: '0', HOST: '127.0.0.1', DEMO_EVENTS: '5', LOG_LEVEL: 'silent' };

let dir: string;
let serving: ServeProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'calendar-lock-'));
  await writeFile(join(dir, 'calendar.json'), JSON.stringify({ categories: [{ id: 'QUIZ', name_nb: 'Quiz', name_en: 'Quiz', slug_nb: 'quiz', slug_en: 'quiz' }] }));
});
afterEach(async () => {
  if (serving && serving.child.exitCode === null && serving.child.signalCode === null) {
    serving.child.kill('SIGKILL');
    await serving.exited;
  }
  serving = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Holder {
  pid: number;
  since: string;
}

function lockOf(dataDir: string): Holder {
  return JSON.parse(readFileSync(join(dataDir, 'calendar.lock'), 'utf8')) as Holder;
}

/** The message a refused process prints, exactly. */
function refusal(dataDir: string, holder: Holder, command = 'calendar serve'): string {
  return (
    `calendar: The embedded database in ${dataDir} is in use by another process (${command}, pid ${holder.pid}, since ${holder.since}): ` +
    'stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.\n'
  );
}

describe('one process per embedded data directory', { timeout: 180_000 }, () => {
  it('refuses every other command while `calendar serve` holds the directory, with one line and status 1', async () => {
    const dataDir = await unpackTemplate(join(dir, 'served'));
    serving = startServe({ ...SERVE_ENV, CALENDAR_DATA_DIR: dataDir });
    const url = await serving.listening;
    const holder = lockOf(dataDir);
    expect(holder.pid).toBe(serving.child.pid);

    const others = [['serve'], ['migrate'], ['import', join(dir, 'calendar.json')], ['seed', '--events', '1'], ['export'], ['keys', 'list'], ['usage']];
    for (const args of others) {
      const run = await runCalendar(args, { ...SERVE_ENV, CALENDAR_DATA_DIR: dataDir });
      expect({ args, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ args, code: 1, stdout: '', stderr: refusal(dataDir, holder) });
    }

    // The holder was not disturbed: it still answers, and still holds the lock.
    const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ events { totalCount } }' }) });
    expect(await response.json()).toEqual({ data: { events: { totalCount: 5 } } });
    expect(lockOf(dataDir)).toEqual(holder);

    // A clean stop releases it.
    serving.child.kill('SIGTERM');
    expect((await serving.exited).code).toBe(0);
    expect(existsSync(join(dataDir, 'calendar.lock'))).toBe(false);
  });

  it('takes over at once the lock of a process killed with SIGKILL', async () => {
    const dataDir = await unpackTemplate(join(dir, 'killed'));
    serving = startServe({ ...SERVE_ENV, CALENDAR_DATA_DIR: dataDir });
    await serving.listening;
    serving.child.kill('SIGKILL');
    await serving.exited;
    // The dead process could not remove its lock.
    expect(lockOf(dataDir).pid).toBe(serving.child.pid);

    const started = Date.now();
    const run = await runCalendar(['migrate'], { ...SERVE_ENV, CALENDAR_DATA_DIR: dataDir });
    expect(run).toEqual({ code: 0, signal: null, stdout: 'The schema is up to date.\n', stderr: '' });
    // No waiting for a stale period: the pid is gone, so the lock is free (the run's own start-up aside).
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(existsSync(join(dataDir, 'calendar.lock'))).toBe(false);
  });

  it('takes over a lock whose pid now belongs to a process that started later (a reused pid)', async () => {
    const dataDir = await unpackTemplate(join(dir, 'reused'));
    // This test process runs, but it is not the one that took the lock: its start time differs.
    const stale = { pid: process.pid, host: hostname(), startTicks: 1, command: 'calendar serve', since: '2026-01-01T00:00:00.000Z' };
    await writeFile(join(dataDir, 'calendar.lock'), JSON.stringify(stale));
    const run = await runCalendar(['migrate'], { ...SERVE_ENV, CALENDAR_DATA_DIR: dataDir });
    expect(run).toEqual({ code: 0, signal: null, stdout: 'The schema is up to date.\n', stderr: '' });
  });

  it('refuses a lock taken on another host, naming the host and the file to remove if that process is gone', async () => {
    const dataDir = await unpackTemplate(join(dir, 'shared'));
    const lockFile = join(dataDir, 'calendar.lock');
    await writeFile(lockFile, JSON.stringify({ pid: 4242, host: 'other-host.example', command: 'calendar import', since: '2026-01-01T00:00:00.000Z' }));
    const run = await runCalendar(['migrate'], { ...SERVE_ENV, CALENDAR_DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `calendar: The embedded database in ${dataDir} is in use by a process on host other-host.example ` +
        `(calendar import, pid 4242, since 2026-01-01T00:00:00.000Z): stop it first; if it is gone, delete ${lockFile}.\n`,
    );
  });
});
