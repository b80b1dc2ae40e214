import type { BudgetTicket } from '../identity/caller-budgets.js';

/**
 * The caller's budget in the RateLimit header fields of draft-ietf-httpapi-ratelimit-headers
 * (structured fields: a policy item named after the caller class), on every answer to a caller
 * that has a budget, cache hits and 304s included: `RateLimit-Policy: "anonymous";q=600;w=60`
 * (points per minute) and `RateLimit: "anonymous";r=540;t=6` (points left; seconds until the
 * bucket is full again). A hit's figures are this process's latest knowledge of the bucket.
 */
export function rateLimitHeaders(ticket: BudgetTicket): Record<string, string> {
  const { name, perMinute } = ticket.policy;
  const standing = ticket.standing();
  return { 'RateLimit-Policy': `"${name}";q=${perMinute};w=60`, RateLimit: `"${name}";r=${standing.remaining};t=${standing.resetSeconds}` };
}
