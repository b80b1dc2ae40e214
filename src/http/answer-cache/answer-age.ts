import type { StoredAnswer } from './stored-answer.js';

/**
 * The response cache's rules of time, each written once: how old an answer is, whether it is still
 * fresh, how long past its TTL it may be served while one request refreshes it, and so how long a
 * store keeps it.
 */

/** How an answer stands at a given moment. */
export interface AnswerAge {
  ageMs: number;
  /** What remains of its TTL; ≤ 0 once stale. */
  remainingMs: number;
}

export function answerAge(answer: StoredAnswer, now: number): AnswerAge {
  const ageMs = Math.max(0, now - answer.storedAt);
  return { ageMs, remainingMs: answer.ttlMs - ageMs };
}

/** Whether the answer is within its TTL: served as it is, never refreshed. */
export function isFresh(answer: StoredAnswer, now: number): boolean {
  return answerAge(answer, now).remainingMs > 0;
}

/** How long past its TTL an answer is still served while one request refreshes it: half its TTL. */
export function staleWindowMs(ttlMs: number): number {
  return Math.floor(ttlMs / 2);
}

/** How long a store keeps an answer from when it was computed: its TTL, then its stale window. */
export function lifetimeMs(ttlMs: number): number {
  return ttlMs + staleWindowMs(ttlMs);
}

/** What remains of the answer's lifetime ({@link lifetimeMs}); ≤ 0 once no store may serve it. */
export function remainingLifetimeMs(answer: StoredAnswer, now: number): number {
  return lifetimeMs(answer.ttlMs) - answerAge(answer, now).ageMs;
}
