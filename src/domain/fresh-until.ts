/**
 * The latest instant one response stays right at, for the response's cache lifetime: resolvers that
 * answer something bound to a moment (a `Filter.when` preset's window) lower it to that moment, and
 * whoever caches the response (the response cache, `Cache-Control: max-age`) reads `instant()` after
 * execution and keeps the answer no longer. Unset: nothing in the response asked for a bound.
 */
export class FreshUntil {
  private earliest = Number.POSITIVE_INFINITY;

  /** The response is not fresh past `instant` (the earliest of all the bounds given wins). */
  lower(instant: Date): void {
    const ms = instant.getTime();
    if (ms < this.earliest) this.earliest = ms;
  }

  /** The bound, or null when none was given. */
  instant(): Date | null {
    return Number.isFinite(this.earliest) ? new Date(this.earliest) : null;
  }
}
