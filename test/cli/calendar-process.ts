import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_NODE_FLAGS } from '../support/node-flags.js';
import { recordPhase } from '../support/phase-timings.js';

/** The installed command itself (what `npx calendar` and `npm start` run). */
export const BIN = fileURLToPath(new URL('../../bin/calendar.js', import.meta.url));

export interface Run {
  /** Exit status; null when a signal ended the process. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a CLI run: the embedded database whatever the surrounding environment points
 * at (CI's second run sets DATABASE_URL and REDIS_URL), plus `env`.
 */
export function cliEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, DATABASE_SCHEMA: _schema, REDIS_URL: _redis, ...inherited } = process.env;
  return { ...inherited, ...env };
}

/** Another installation of the command (the packed release installed in a folder) and where it runs. */
export interface Installed {
  bin: string;
  cwd: string;
}

/** `node bin/calendar.js ...args` to its end, on the Node that runs the tests. */
export function runCalendar(args: readonly string[], env: Record<string, string>, installed?: Installed): Promise<Run> {
  const spawned = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [...TEST_NODE_FLAGS, installed?.bin ?? BIN, ...args], { env: cliEnv(env), timeout: 120_000, cwd: installed?.cwd }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      recordPhase('child process', performance.now() - spawned);
      resolve({ code, signal: error?.signal ?? null, stdout, stderr });
    });
  });
}

export interface ServeProcess {
  child: ChildProcess;
  /** The URL of the "listening on <url>" line; rejects when the process exits first. */
  listening: Promise<string>;
  exited: Promise<Run>;
}

/** `node bin/calendar.js serve` in the background, its output kept. */
export function startServe(env: Record<string, string>, installed?: Installed): ServeProcess {
  const spawned = performance.now();
  const child = spawn(process.execPath, [...TEST_NODE_FLAGS, installed?.bin ?? BIN, 'serve'], { env: cliEnv(env), cwd: installed?.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Run>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((run) => reject(new Error(`calendar serve exited (${run.code ?? run.signal}) before listening:\n${run.stderr}`)));
  });
  listening.then(() => recordPhase('child process', performance.now() - spawned), () => undefined);
  return { child, listening, exited };
}
