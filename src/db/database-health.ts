import type { Logger } from '../logger.js';
import { describeDatabaseError } from './connection-errors.js';

/**
 * Episodes of database unavailability, so an outage is logged once when it starts and once when it
 * ends, however many requests and pool connections fail meanwhile.
 */
export class DatabaseHealth {
  private since: number | undefined;

  constructor(private readonly logger?: Logger) {}

  /** A connection or statement failed because the database cannot answer. */
  reportFailure(error: unknown): void {
    if (this.since !== undefined) return;
    this.since = Date.now();
    this.logger?.warn({ reason: describeDatabaseError(error) }, 'database unavailable: answering 503 until it is back');
  }

  /** A connection was made or a statement succeeded. */
  reportSuccess(): void {
    if (this.since === undefined) return;
    const seconds = Math.round((Date.now() - this.since) / 100) / 10;
    this.since = undefined;
    this.logger?.info({ outageSeconds: seconds }, 'database reachable again');
  }
}
