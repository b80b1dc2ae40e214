import { pino, type Logger } from 'pino';
import { LogBatches } from './log-batches.js';

export type { Logger };

/** Process-wide: the buffered stderr destinations of this process, written out when it exits. */
const unflushed = new Set<LogBatches>();

/**
 * JSON logs to stderr (stdout stays for CLI output). Buffered: lines are written together once 4 KB
 * have gathered, and at least every 200 ms, so the access log costs a system call per few dozen
 * requests rather than one each (a write per line was 6 % of a cached answer's CPU), and a line an
 * array push (log-batches.ts). Whatever is still buffered when the process exits is written then.
 */
export function createLogger(level: string = 'info'): Logger {
  // minLength 0: each batch is written as it comes (LogBatches gathers the lines).
  const destination = new LogBatches(pino.destination({ dest: 2, sync: false, minLength: 0 }));
  if (unflushed.size === 0) process.once('exit', flushAll);
  unflushed.add(destination);
  return pino({ level, base: undefined }, destination);
}

function flushAll(): void {
  for (const destination of unflushed) {
    try {
      destination.flushSync();
    } catch {
      // stderr is gone (a closed pipe): nothing more can be written anyway.
    }
  }
  unflushed.clear();
}
