import type { BudgetTicket } from '../identity/caller-budgets.js';
import type { RequestCaller } from '../identity/request-caller.js';

/**
 * What the HTTP edge hands the pipeline for one request, as its initial context: decided before
 * execution, read by plugins, never written back. Nothing flows the other way through the context:
 * what the HTTP layer needs after execution comes back in the execution's outcome (execute-graphql.ts).
 */
export interface EdgeContext {
  /** Who is calling: resolved once per request (the key's identity, notice and usage labels). */
  caller: RequestCaller;
  /** The request's id (X-Request-Id), for the log lines of failures it meets. */
  requestId?: string | undefined;
  /** The persisted-query hash the request named, if any (trace attributes). */
  persistedHash?: string | undefined;
  /**
   * The caller's budget, when one applies (RATE_LIMIT_KEY, RATE_LIMIT_ANONYMOUS): useBudgets charges
   * it before execution. The HTTP edge made it and reads its charge back for the RateLimit headers.
   */
  budget?: BudgetTicket | undefined;
}
