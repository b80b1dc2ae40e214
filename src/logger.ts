import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs to stderr (stdout stays for CLI output). */
export function createLogger(level: string = 'info'): Logger {
  return pino({ level, base: undefined }, pino.destination(2));
}
