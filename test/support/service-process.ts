import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_NODE_FLAGS } from './node-flags.js';
import { recordPhase } from './phase-timings.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/calendar.js', import.meta.url));

/** `calendar serve` as a real process (what an operator runs), with its output kept for assertions. */
export interface ServiceProcess {
  child: ChildProcess;
  /** Resolves with the URL it prints once it listens; rejects when it exits first. */
  listening: Promise<string>;
  /** Everything written to stderr so far (JSON log lines, or a start-up failure). */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | string>;
}

/**
 * `node [TEST_NODE_FLAGS] [nodeArgs] bin/calendar.js serve` (or, `direct`, `bin/calendar.js serve`: its
 * shebang) with `env` over this process's environment (its database settings and allocator settings left
 * out: a test says what the process is launched with).
 */
export function startServiceProcess(env: Record<string, string>, options: { nodeArgs?: readonly string[]; direct?: boolean } = {}): ServiceProcess {
  const { DATABASE_URL: _url, REDIS_URL: _redis, DATABASE_SCHEMA: _schema, MALLOC_MMAP_THRESHOLD_: _threshold, GLIBC_TUNABLES: _tunables, ...inherited } = process.env;
  const [command, args] = options.direct ? [BIN, ['serve']] : [process.execPath, [...TEST_NODE_FLAGS, ...(options.nodeArgs ?? []), BIN, 'serve']];
  const spawned = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`the service exited (${code}) before listening:\n${stderr}`)));
  });
  listening.then(() => recordPhase('child process', performance.now() - spawned), () => undefined);
  return {
    child,
    listening,
    stderr: () => stderr,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The JSON log lines of a process's stderr with the given message prefix. */
export function logLines(stderr: string, messageStart: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => typeof entry['msg'] === 'string' && entry['msg'].startsWith(messageStart));
}
