/**
 * Load shedding: at most `max` GraphQL executions run at once. Beyond that a request is answered
 * with a 503 at once instead of queueing without bound behind the database pool, so an overload
 * costs the extra callers a retry, not everyone a timeout.
 */
export class InFlightLimit {
  private running = 0;

  constructor(readonly max: number) {}

  /** Takes a slot; false when all are taken. */
  tryEnter(): boolean {
    if (this.running >= this.max) return false;
    this.running += 1;
    return true;
  }

  leave(): void {
    this.running -= 1;
  }
}
