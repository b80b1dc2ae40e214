import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../logger.js';
import type { RedisCircuit } from '../redis/redis-circuit.js';
import { bodyTag } from './caching-headers.js';
import { countCacheLookup } from '../telemetry/metrics.js';

/** One shareable answer: the exact bytes of `{"data":...}` (nothing per caller), as written to the wire. */
export interface StoredAnswer {
  readonly body: Buffer;
  /** Strong entity tag of the body, without quotes; each media type adds its own suffix. */
  readonly tag: string;
  /** When it was computed (ms since 1970). */
  readonly storedAt: number;
  /** How long it is fresh from `storedAt`. */
  readonly ttlMs: number;
  /** Name of the operation that produced it (for the access log line and metrics of a hit). */
  readonly operation?: string | undefined;
  /** What an import can change under it, for CDNs to purge by (domain/answer-tags.ts). */
  readonly cdnTags: readonly string[];
  /**
   * The deprecated schema coordinates the request that produced it used (schema/deprecated-uses.ts):
   * every request it answers asked the same (the same document and variables), so a hit counts them
   * without parsing anything.
   */
  readonly deprecatedUses?: readonly string[] | undefined;
}

/**
 * A stored answer whose tag is computed when first asked for: a GET's entity tag, the shared cache's
 * entry. An answer written to a POST and never asked for again needs none (a SHA-256 of the body, a
 * third of what a small answer's bytes cost: docs/performance.md, "A leaner pipeline").
 */
class Answer implements StoredAnswer {
  #tag: string | undefined;

  constructor(
    readonly body: Buffer,
    tag: string | undefined,
    readonly storedAt: number,
    readonly ttlMs: number,
    readonly operation: string | undefined,
    readonly cdnTags: readonly string[],
    readonly deprecatedUses?: readonly string[] | undefined,
  ) {
    this.#tag = tag;
  }

  get tag(): string {
    return (this.#tag ??= bodyTag(this.body));
  }
}

/** The shareable answer of an execution: its bytes, stamped now. */
export function storedAnswer(body: string, ttlMs: number, operation: string | undefined, cdnTags: readonly string[]): StoredAnswer {
  return new Answer(Buffer.from(body), undefined, Date.now(), ttlMs, operation, cdnTags);
}

/** The same, of bytes whose tag may be known already (hashed as they were written: answer-bytes.ts). */
export function storedAnswerOfBytes(
  bytes: { body: Buffer; tag?: string | undefined },
  ttlMs: number,
  operation: string | undefined,
  cdnTags: readonly string[],
  deprecatedUses?: readonly string[],
): StoredAnswer {
  return new Answer(bytes.body, bytes.tag, Date.now(), ttlMs, operation, cdnTags, deprecatedUses);
}

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

/** How long past its TTL an answer is still served while one request refreshes it: half its TTL. */
export function staleWindowMs(ttlMs: number): number {
  return Math.floor(ttlMs / 2);
}

export interface AnswerCacheOptions {
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

/** What a route's run gives: its own value, and the answer every caller may share, when there is one. */
export interface Ran<T> {
  value: T;
  /** The shareable answer, and whether it may be kept (in this process and in Redis) or only shared by concurrent requests. */
  shareable?: { answer: StoredAnswer; keep: boolean } | undefined;
}

/** How a lookup was answered. */
export type Answered<T> =
  /** From the cache: a kept answer (fresh, or stale while one request refreshes it), or another request's execution just done. */
  | { from: 'cache'; answer: StoredAnswer; stale: boolean; version: string }
  /**
   * This request ran: its own value, and the shareable answer it gave, if any. `version`: the data
   * version it was looked up at (undefined without a response cache); a request that started over on
   * a newer one (DataVersionMoved) answers from that newer one.
   */
  | { from: 'run'; value: T; answer: StoredAnswer | undefined; version?: string | undefined };

/** One request, as a route hands it to {@link AnswerCache.lookupOrRun}. */
export interface AnswerLookup<T> {
  /**
   * Everything the answer depends on besides the data version, starting with a word naming the kind
   * of answer (`graphql`, `ics`), so kinds never share keys; undefined when the answer may not be
   * shared. Called only when `requestText` found nothing, so a hit by text decodes nothing.
   */
  meaning(): string | undefined;
  /**
   * The request's exact text (the query string of a GET), when it has one: a fresh answer is kept
   * under it too, so the next identical URL is answered without its parameters being decoded (the
   * same bytes give the same answer). A stale one is looked up by meaning, which can refresh it.
   */
  requestText?: string | undefined;
  /** Runs the request: `background` when it refreshes a stale answer for nobody in particular. */
  run(background: boolean): Promise<Ran<T>>;
  /** Whether a stale answer may be served while it is refreshed. @default true */
  servesStale?: boolean | undefined;
}

/** The response cache as routes see it: one operation. */
export interface Answers {
  lookupOrRun<T>(lookup: AnswerLookup<T>): Promise<Answered<T>>;
}

/** No response cache (RESPONSE_CACHE=off): every request runs; its shareable answer is still written as such. */
export const UNCACHED_ANSWERS: Answers = {
  async lookupOrRun<T>(lookup: AnswerLookup<T>): Promise<Answered<T>> {
    const ran = await lookup.run(false);
    return { from: 'run', value: ran.value, answer: ran.shareable?.answer };
  },
};

/**
 * The response cache, in front of the whole GraphQL pipeline (and the feed's rendering): a request
 * is looked up by a key made from its own parameters (no parsing, no hashing on a local hit) and the
 * calendar's data version, so an import makes every older answer unreachable on every node the
 * moment that node reads the new version. What it keeps is bytes with their entity tag: a hit writes
 * them as they are (stored-answer-writer.ts).
 *
 * - Local: an LRU bounded by bytes; each answer lives for its TTL plus a stale window.
 * - Shared (Redis, when configured): compact entries (`storedAt ttl tag` line + body) with a TTL of
 *   their own, read on a local miss; a failing Redis is a miss, never a failed request.
 * - Single flight: concurrent misses of one key in this process wait for one execution.
 * - Stale while revalidate: a stale answer (within its window) is served at once while one request
 *   per process refreshes it; with Redis, a lock lets one node recompute while the others pick up
 *   its result.
 */
export class AnswerCache implements Answers {
  private readonly kept: LRUCache<string, StoredAnswer>;
  private readonly flights = new Map<string, Promise<StoredAnswer | undefined>>();
  private readonly refreshing = new Set<string>();
  private readonly maxAnswerBytes: number;
  private readonly namespace: string;

  constructor(private readonly options: AnswerCacheOptions) {
    this.kept = new LRUCache({ maxSize: options.localBytes ?? 64 * 1024 * 1024, sizeCalculation: (answer) => answer.body.length + 200 });
    this.maxAnswerBytes = options.maxAnswerBytes ?? 1024 * 1024;
    this.namespace = options.namespace ?? 'calendar';
  }

  /**
   * Answers a request from this process, from an execution of it in flight here, or from Redis, in
   * that order; else runs it as the one execution of its key in this process (concurrent misses of
   * the key wait for it), keeps its shareable answer, and hands it to those waiting. A stale answer
   * is served at once while one request refreshes it (see {@link AnswerLookup.servesStale}).
   */
  async lookupOrRun<T>(lookup: AnswerLookup<T>): Promise<Answered<T>> {
    // No await when the version is known (the hot path): a promise only while the read model is built.
    // Read once: both keys, and the answer's version, are of the same data version.
    const versionNow = this.options.dataVersion();
    const version = typeof versionNow === 'string' ? versionNow : await versionNow.catch(() => undefined);
    if (version === undefined) return UNCACHED_ANSWERS.lookupOrRun(lookup);
    const textKey = lookup.requestText === undefined ? undefined : `${version}\u0000text\u0000${lookup.requestText}`;
    const byText = textKey === undefined ? undefined : this.kept.get(textKey);
    if (byText && answerAge(byText, Date.now()).remainingMs > 0) return { from: 'cache', answer: byText, stale: false, version };

    const meaning = lookup.meaning();
    if (meaning === undefined) return UNCACHED_ANSWERS.lookupOrRun(lookup);
    const key = `${version}\u0000${meaning}`;

    let found = this.kept.get(key) ?? (await this.flights.get(key)) ?? (await this.shared(key));
    // An execution another request started, or even finished, while this one asked Redis (its reply
    // said "miss" when the other's answer was not stored yet). Looked at with no await before
    // `single` below claims the key: misses whose Redis replies came in one read all get to this line
    // in the same turn, and would each start an execution if a turn passed in between.
    found ??= this.kept.get(key);
    const flight = found ? undefined : this.flights.get(key);
    if (flight) found = await flight;
    const stale = found !== undefined && answerAge(found, Date.now()).remainingMs <= 0;
    if (found && (!stale || lookup.servesStale !== false)) {
      // Served at once while one request refreshes it in the background.
      if (stale) this.refresh(key, async () => (await lookup.run(true)).shareable);
      this.aliasIfKept(textKey, key, found);
      return { from: 'cache', answer: found, stale, version };
    }

    countCacheLookup('miss');
    let ran: Ran<T> | undefined;
    const answer = await this.single(key, async () => (ran = await lookup.run(false)).shareable);
    this.aliasIfKept(textKey, key, answer);
    return { from: 'run', value: ran!.value, answer, version };
  }

  /**
   * Keeps `answer` under its request text too, in this process only, while it is fresh; only an
   * answer that was kept under its meaning (not one too large, or of a root field never kept).
   */
  private aliasIfKept(textKey: string | undefined, key: string, answer: StoredAnswer | undefined): void {
    if (textKey === undefined || answer === undefined || this.kept.get(key) !== answer) return;
    const freshMs = answerAge(answer, Date.now()).remainingMs;
    if (freshMs > 0) this.kept.set(textKey, answer, { ttl: freshMs });
  }

  /** The answer Redis holds for the key, if any (kept locally for what remains of its life). */
  private async shared(key: string): Promise<StoredAnswer | undefined> {
    const circuit = this.options.shared;
    if (!circuit) return undefined;
    const value = await circuit.call((redis) => redis.getBuffer(this.redisKey(key)), null);
    const answer = value ? decodeShared(value) : undefined;
    if (!answer) return undefined;
    const lifeMs = answer.ttlMs + staleWindowMs(answer.ttlMs) - Math.max(0, Date.now() - answer.storedAt);
    if (lifeMs <= 0) return undefined;
    this.kept.set(key, answer, { ttl: lifeMs });
    return answer;
  }

  /**
   * Runs `execute` as the one execution of this key in this process: concurrent requests of the key
   * wait for its answer. `execute` gives the shareable answer, or undefined when there is none
   * (errors, a notice-only answer); `keep` says whether it may be stored.
   */
  private async single(key: string, execute: () => Promise<{ answer: StoredAnswer; keep: boolean } | undefined>): Promise<StoredAnswer | undefined> {
    let settle!: (answer: StoredAnswer | undefined) => void;
    const flight = new Promise<StoredAnswer | undefined>((resolve) => (settle = resolve));
    this.flights.set(key, flight);
    try {
      const outcome = await execute();
      if (outcome?.keep) this.keep(key, outcome.answer);
      settle(outcome?.answer);
      return outcome?.answer;
    } catch (error) {
      settle(undefined);
      throw error;
    } finally {
      this.flights.delete(key);
    }
  }

  /**
   * A stale answer was served: refresh it once (per process) in the background. With Redis, another
   * node may already hold a fresh one, or be computing it under the lock; only the lock holder runs
   * `execute`.
   */
  private refresh(key: string, execute: () => Promise<{ answer: StoredAnswer; keep: boolean } | undefined>): void {
    if (this.refreshing.has(key) || this.flights.has(key)) return;
    this.refreshing.add(key);
    const run = async () => {
      const circuit = this.options.shared;
      if (circuit) {
        const fresher = await this.shared(key);
        if (fresher && answerAge(fresher, Date.now()).remainingMs > 0) return;
        const redisKey = this.redisKey(key);
        const locked = await circuit.call((redis) => redis.set(`${redisKey}:refresh`, '1', 'PX', 10_000, 'NX'), 'OK' as const);
        // Another node recomputes it; its answer reaches this node through Redis on a later stale hit.
        if (locked !== 'OK') return;
      }
      await this.single(key, execute);
    };
    run()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'refreshing a stale cached answer failed'))
      .finally(() => {
        // A refresh that found another node's lock may look again a second later, not at every hit.
        setTimeout(() => this.refreshing.delete(key), 1000).unref();
      });
  }

  private keep(key: string, answer: StoredAnswer): void {
    if (answer.body.length > this.maxAnswerBytes) return;
    const lifeMs = answer.ttlMs + staleWindowMs(answer.ttlMs);
    this.kept.set(key, answer, { ttl: lifeMs });
    const circuit = this.options.shared;
    if (!circuit) return;
    void circuit.call((redis) => redis.set(this.redisKey(key), encodeShared(answer), 'PX', lifeMs), undefined);
  }

  /** Redis keys are bounded: the request part (documents, variables) is hashed; the version stays readable. */
  private redisKey(key: string): string {
    const split = key.indexOf('\u0000');
    const digest = createHash('sha256').update(key.slice(split + 1)).digest('base64url').slice(0, 32);
    return `${this.namespace}:rc:${key.slice(0, split)}:${digest}`;
  }
}

/**
 * `<storedAt> <ttlMs> <tag> <operation or -> <CDN tags, comma-separated, or -> <deprecated coordinates,
 * comma-separated, or ->\n<body>`: a few bytes of bookkeeping in front of the answer's own (CDN tags and
 * schema coordinates hold no space, comma or newline). A node of an older version reads the first five
 * fields and ignores the last; an entry without it counts no deprecated use.
 */
function encodeShared(answer: StoredAnswer): Buffer {
  const cdnTags = answer.cdnTags.length > 0 ? answer.cdnTags.join(',') : '-';
  const deprecated = answer.deprecatedUses?.length ? answer.deprecatedUses.join(',') : '-';
  return Buffer.concat([Buffer.from(`${answer.storedAt} ${answer.ttlMs} ${answer.tag} ${answer.operation ?? '-'} ${cdnTags} ${deprecated}\n`), answer.body]);
}

function decodeShared(value: Buffer): StoredAnswer | undefined {
  const newline = value.indexOf(10);
  if (newline < 0) return undefined;
  const [storedAt, ttlMs, tag, operation, cdnTags, deprecated] = value.subarray(0, newline).toString().split(' ');
  const stamp = Number(storedAt);
  const ttl = Number(ttlMs);
  if (!Number.isFinite(stamp) || !Number.isFinite(ttl) || !tag) return undefined;
  return new Answer(
    value.subarray(newline + 1),
    tag,
    stamp,
    ttl,
    operation && operation !== '-' ? operation : undefined,
    cdnTags && cdnTags !== '-' ? cdnTags.split(',') : [],
    deprecated && deprecated !== '-' ? deprecated.split(',') : undefined,
  );
}
