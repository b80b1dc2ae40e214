import { pino, type Logger } from 'pino';
import { Writable } from 'node:stream';

/** A logger at info whose JSON lines are kept, parsed, in `lines` (what a test reads a component's log lines from). */
export function collectedLog(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info', base: undefined }, new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) }));
  return { logger, lines };
}
