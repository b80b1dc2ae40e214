import type { pino } from 'pino';

type Destination = ReturnType<typeof pino.destination>;

/** A batch is handed on once it holds this many characters (lines are ASCII JSON, so about as many bytes). */
const BATCH_CHARACTERS = 4096;
/** Longest a line waits in a batch on a quiet service. */
const BATCH_MS = 200;

/**
 * Log lines gathered into batches of ~4 KB before they reach pino's destination (sonic-boom), which
 * then writes each batch as it comes. Why not sonic-boom's own `minLength`: its `write` measures the
 * chunk it is still gathering (`Buffer.byteLength` of a string growing by `+=`) on every line, which
 * flattens that string each time: ~1–3 µs per line, the largest part of an access-log line's cost on
 * a cached answer (docs/performance.md). Here a line costs an array push; sonic-boom keeps what it
 * is good at (writes that never block the event loop, EAGAIN and partial writes, writing out at exit).
 */
export class LogBatches {
  private lines: string[] = [];
  private characters = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly destination: Destination) {
    this.timer = setInterval(() => this.handOn(), BATCH_MS).unref();
  }

  /** pino's stream interface: one serialized line, newline included. */
  write(line: string): boolean {
    this.lines.push(line);
    this.characters += line.length;
    if (this.characters >= BATCH_CHARACTERS) this.handOn();
    return true;
  }

  /** Writes out what is gathered, then calls back (pino's `logger.flush`). */
  flush(callback?: (error?: Error) => void): void {
    this.handOn();
    this.destination.flush(callback);
  }

  /** Writes out everything now, blocking (at exit). */
  flushSync(): void {
    this.handOn();
    this.destination.flushSync();
  }

  private handOn(): void {
    if (this.lines.length === 0) return;
    const batch = this.lines.join('');
    this.lines = [];
    this.characters = 0;
    this.destination.write(batch);
  }
}
