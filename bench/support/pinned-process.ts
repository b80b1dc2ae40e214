import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVE_V8_FLAGS } from '../../src/cli/serve-v8-flags.js';

/** A server process the benchmarks load: pinned to one CPU, so the load generator has the other. */
export interface PinnedProcess {
  child: ChildProcess;
  /** The first match of the readiness pattern in stdout (a URL). */
  url: string;
  /** What it has written so far (stderr, then stdout). */
  log: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts `node <args>` under `taskset -c <cpu>` (or unpinned) and resolves once stdout matches `ready` (its first
 * group is the URL); rejects with the process's stderr when it exits first.
 */
export function startPinned(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; cpu?: number | 'any'; ready?: RegExp } = {},
): Promise<PinnedProcess> {
  // stderr goes to a file, not a pipe: the benchmark blocks in wrk (execFileSync) for seconds at a
  // time, and a pipe nobody drains would stall a service that logs every request.
  const errDir = mkdtempSync(path.join(tmpdir(), 'bench-stderr-'));
  const errPath = path.join(errDir, 'stderr.log');
  const errFd = openSync(errPath, 'w');
  // `cpu: 'any'`: not pinned (a service of several workers that should have every core).
  const command = options.cpu === 'any' ? [process.execPath, ...args] : ['taskset', '-c', String(options.cpu ?? 0), process.execPath, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', errFd],
  });
  closeSync(errFd);
  const ready = options.ready ?? /listening on (\S+)/;
  let out = '';
  /** The first 256 KiB of stderr: the start-up lines (a service logging every request writes hundreds of megabytes). */
  const err = () => {
    const fd = openSync(errPath, 'r');
    try {
      const buffer = Buffer.alloc(262_144);
      return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString();
    } finally {
      closeSync(fd);
    }
  };
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match?.[1]) {
        resolve({
          child,
          url: match[1],
          log: () => err() + out,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }).then(() => rmSync(errDir, { recursive: true, force: true })),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${err().slice(-3000)}`)));
  });
}

/** `NAME=value` words (a BENCH_*_ENV variable) as an environment. */
export function environmentWords(text: string | undefined): Record<string, string> {
  return Object.fromEntries((text ?? '').split(/\s+/).filter(Boolean).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]));
}

/**
 * `calendar serve` of the checkout in `cwd`, on a free port of 127.0.0.1, pinned to CPU 0 (or `cpu`), with the V8
 * flags `npm start` gives it (src/cli/serve-v8-flags.ts). BENCH_SERVICE_V8_FLAGS replaces them, to
 * measure another setting (`--max-semi-space-size=0`: V8's own sizing; `''`: none, which a checkout
 * from before d6e5063 runs with as it did then, and a later one replaces with its own).
 * BENCH_SERVICE_ENV adds `NAME=value` words to its environment alone (not the bench's, nor wrk's): to measure
 * an allocator setting, say (`MALLOC_MMAP_THRESHOLD_=131072`).
 */
export function startPinnedService(cwd: string, env: Record<string, string>, cpu: number | 'any' = 0): Promise<PinnedProcess> {
  const flags = process.env['BENCH_SERVICE_V8_FLAGS']?.split(/\s+/).filter(Boolean) ?? SERVE_V8_FLAGS;
  const extra = environmentWords(process.env['BENCH_SERVICE_ENV']);
  return startPinned([...flags, 'bin/calendar.js', 'serve'], { cwd, cpu, env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', MAX_IN_FLIGHT_REQUESTS: '1000', ...env, ...extra } });
}

/** Waits until the service's /ready answers 200 (the read model is built; at 1M events that takes a while). */
export async function ready(service: PinnedProcess): Promise<void> {
  const origin = new URL(service.url).origin;
  for (;;) {
    const response = await fetch(`${origin}/ready`).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
