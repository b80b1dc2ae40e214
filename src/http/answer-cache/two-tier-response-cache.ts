import type { Logger } from '../../logger.js';
import type { RedisCircuit } from '../../redis/redis-circuit.js';
import { answerAge, isFresh, lifetimeMs, remainingLifetimeMs } from './answer-age.js';
import { MemoryAnswerStore } from './memory-answer-store.js';
import { RedisAnswerStore } from './redis-answer-store.js';
import { NO_RESPONSE_CACHE, type CacheableRequest, type Execution, type LookupOutcome, type ResponseCache, type ShareableAnswer } from './response-cache.js';
import type { StoredAnswer } from './stored-answer.js';

export interface TwoTierResponseCacheOptions {
  /** The data version a request starting now reads at: part of every key (a promise while it is being built). */
  dataVersion: () => string | Promise<string>;
  /** Where answers are shared between processes (Redis), behind its circuit breaker. @default none */
  shared?: RedisCircuit | undefined;
  /** Prefix of the Redis keys, so that services sharing a Redis do not share answers. @default 'calendar' */
  namespace?: string | undefined;
  /** Bytes the answers kept in this process may take together. @default 64 MiB */
  localBytes?: number | undefined;
  /** Larger answers are not kept, here or in Redis (they are still shared by concurrent requests). @default 1 MiB */
  maxAnswerBytes?: number | undefined;
  logger: Logger;
}

/**
 * The response cache, in front of the whole GraphQL pipeline (and the feed's rendering): a request
 * is looked up by a key made from its own parameters (no parsing, no hashing on a local hit) and the
 * calendar's data version, so an import makes every older answer unreachable on every node the
 * moment that node reads the new version. What it keeps is bytes with their entity tag: a hit writes
 * them as they are (stored-answer-writer.ts).
 *
 * - Memory (memory-answer-store.ts): each answer lives for its lifetime (answer-age.ts); concurrent
 *   misses of one key in this process wait for one execution.
 * - Redis (redis-answer-store.ts, when configured): read on a memory miss.
 * - Stale while revalidate: a stale answer (within its window) is served at once while one request
 *   per process refreshes it; with Redis, a lock lets one node recompute while the others pick up
 *   its result.
 */
export class TwoTierResponseCache implements ResponseCache {
  private readonly memory: MemoryAnswerStore;
  private readonly redis: RedisAnswerStore | undefined;
  private readonly refreshing = new Set<string>();
  private readonly maxAnswerBytes: number;

  constructor(private readonly options: TwoTierResponseCacheOptions) {
    this.memory = new MemoryAnswerStore(options.localBytes ?? 64 * 1024 * 1024);
    this.redis = options.shared ? new RedisAnswerStore(options.shared, options.namespace ?? 'calendar') : undefined;
    this.maxAnswerBytes = options.maxAnswerBytes ?? 1024 * 1024;
  }

  /**
   * Answers a request from this process, from an execution of it in flight here, or from Redis, in
   * that order; else executes it as the one execution of its key in this process (concurrent misses
   * of the key wait for it), keeps its shareable answer, and hands it to those waiting. A stale answer
   * is served at once while one request refreshes it (see {@link CacheableRequest.servesStale}).
   */
  async lookupOrExecute<T>(request: CacheableRequest<T>): Promise<LookupOutcome<T>> {
    // No await when the version is known (the hot path): a promise only while the read model is built.
    // Read once: both keys, and the answer's version, are of the same data version.
    const versionNow = this.options.dataVersion();
    const version = typeof versionNow === 'string' ? versionNow : await versionNow.catch(() => undefined);
    if (version === undefined) return NO_RESPONSE_CACHE.lookupOrExecute(request);
    const textKey = request.requestText === undefined ? undefined : `${version}\u0000text\u0000${request.requestText}`;
    const byText = textKey === undefined ? undefined : this.memory.get(textKey);
    if (byText && isFresh(byText, Date.now())) return { from: 'cache', answer: byText, lookup: 'hit', version };

    const cacheKey = request.cacheKey();
    if (cacheKey === undefined) return NO_RESPONSE_CACHE.lookupOrExecute(request);
    const key = `${version}\u0000${cacheKey}`;

    let found = this.memory.get(key) ?? (await this.memory.inFlight(key)) ?? (await this.fromRedis(key));
    // An execution another request started, or even finished, while this one asked Redis (its reply
    // said "miss" when the other's answer was not stored yet). Looked at with no await before
    // `executeOnce` below claims the key: misses whose Redis replies came in one read all get to this
    // line in the same turn, and would each start an execution if a turn passed in between.
    found ??= this.memory.get(key);
    const flight = found ? undefined : this.memory.inFlight(key);
    if (flight) found = await flight;
    const stale = found !== undefined && !isFresh(found, Date.now());
    if (found && (!stale || request.servesStale !== false)) {
      // Served at once while one request refreshes it in the background.
      if (stale) this.refresh(key, async () => (await request.execute(true)).shareable);
      this.keepUnderText(textKey, key, found);
      return { from: 'cache', answer: found, lookup: stale ? 'stale' : 'hit', version };
    }

    let executed: Execution<T> | undefined;
    const answer = await this.memory.executeOnce(key, async () => (executed = await request.execute(false)).shareable, (answer) => this.store(key, answer));
    this.keepUnderText(textKey, key, answer);
    return { from: 'execution', value: executed!.value, answer, lookup: 'miss', version };
  }

  /**
   * Keeps `answer` under its request text too, in this process only, while it is fresh; only an
   * answer that was kept under its key (not one too large, or of a root field never kept).
   */
  private keepUnderText(textKey: string | undefined, key: string, answer: StoredAnswer | undefined): void {
    if (textKey === undefined || answer === undefined || this.memory.get(key) !== answer) return;
    const now = Date.now();
    if (isFresh(answer, now)) this.memory.set(textKey, answer, answerAge(answer, now).remainingMs);
  }

  /** The answer Redis holds for the key, if any (kept in memory for what remains of its lifetime). */
  private async fromRedis(key: string): Promise<StoredAnswer | undefined> {
    const answer = await this.redis?.get(key);
    if (!answer) return undefined;
    const remainingMs = remainingLifetimeMs(answer, Date.now());
    if (remainingMs <= 0) return undefined;
    this.memory.set(key, answer, remainingMs);
    return answer;
  }

  /**
   * A stale answer was served: refresh it once (per process) in the background. With Redis, another
   * node may already hold a fresh one, or be computing it under the lock; only the lock holder
   * executes.
   */
  private refresh(key: string, execute: () => Promise<ShareableAnswer | undefined>): void {
    if (this.refreshing.has(key) || this.memory.inFlight(key)) return;
    this.refreshing.add(key);
    const run = async () => {
      if (this.redis) {
        const fresher = await this.fromRedis(key);
        if (fresher && isFresh(fresher, Date.now())) return;
        // Another node recomputes it; its answer reaches this node through Redis on a later stale hit.
        if (!(await this.redis.claimRefresh(key))) return;
      }
      await this.memory.executeOnce(key, execute, (answer) => this.store(key, answer));
    };
    run()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'refreshing a stale cached answer failed'))
      .finally(() => {
        // A refresh that found another node's lock may look again a second later, not at every hit.
        setTimeout(() => this.refreshing.delete(key), 1000).unref();
      });
  }

  /** Keeps an answer for its lifetime, in memory and in Redis, unless it is too large to keep. */
  private store(key: string, answer: StoredAnswer): void {
    if (answer.body.length > this.maxAnswerBytes) return;
    const lifeMs = lifetimeMs(answer.ttlMs);
    this.memory.set(key, answer, lifeMs);
    this.redis?.set(key, answer, lifeMs);
  }
}
