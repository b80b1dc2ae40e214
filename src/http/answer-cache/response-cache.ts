import type { StoredAnswer } from './stored-answer.js';

/** An execution's answer every caller may share, and whether it may be kept (in this process and in Redis) or only shared by concurrent requests. */
export interface ShareableAnswer {
  answer: StoredAnswer;
  keep: boolean;
}

/** What a route's execution gives: its own value, and the answer every caller may share, when there is one. */
export interface Execution<T> {
  value: T;
  shareable?: ShareableAnswer | undefined;
}

/**
 * What the cache found, for its metrics (counted where the answer is written, which alone knows a
 * 304: stored-answer-writer.ts): a fresh answer, a stale one served while it is refreshed, or nothing
 * under the request's key. Absent when the request was not looked up (no key, no cache).
 */
export type LookupKind = 'hit' | 'stale' | 'miss';

/** How a request was answered. */
export type LookupOutcome<T> =
  /** From the cache: a kept answer (fresh, or stale while one request refreshes it), or another request's execution just done. */
  | { from: 'cache'; answer: StoredAnswer; lookup: 'hit' | 'stale'; version: string }
  /**
   * This request executed: its own value, and the shareable answer it gave, if any. `version`: the
   * data version it was looked up at (undefined without a response cache).
   */
  | { from: 'execution'; value: T; answer: StoredAnswer | undefined; lookup?: 'miss' | undefined; version?: string | undefined };

/** One request, as a route hands it to {@link ResponseCache.lookupOrExecute}. */
export interface CacheableRequest<T> {
  /**
   * Everything the answer depends on besides the data version, starting with a word naming the kind
   * of answer (`graphql`, `ics`), so kinds never share keys; undefined when the answer may not be
   * shared. Called only when `requestText` found nothing, so a hit by text decodes nothing.
   */
  cacheKey(): string | undefined;
  /**
   * The request's exact text (the query string of a GET), when it has one: a fresh answer is kept
   * under it too, so the next identical URL is answered without its parameters being decoded (the
   * same bytes give the same answer). A stale one is looked up by its key, which can refresh it.
   */
  requestText?: string | undefined;
  /** Executes the request: `background` when it refreshes a stale answer for nobody in particular. */
  execute(background: boolean): Promise<Execution<T>>;
  /** Whether a stale answer may be served while it is refreshed. @default true */
  servesStale?: boolean | undefined;
}

/** The response cache as routes see it: one operation, which calls back at most once to execute. */
export interface ResponseCache {
  lookupOrExecute<T>(request: CacheableRequest<T>): Promise<LookupOutcome<T>>;
}

/** No response cache (RESPONSE_CACHE=off): every request executes; its shareable answer is still written as such. */
export const NO_RESPONSE_CACHE: ResponseCache = {
  async lookupOrExecute<T>(request: CacheableRequest<T>): Promise<LookupOutcome<T>> {
    const executed = await request.execute(false);
    return { from: 'execution', value: executed.value, answer: executed.shareable?.answer };
  },
};
