import { bodyTag } from '../caching-headers.js';

/**
 * One shareable answer: the exact bytes of `{"data":...}` (nothing per caller), as written to the
 * wire, with what a cache and a writer need to know of it. The one model of the response cache: the
 * stores keep it, the writer (stored-answer-writer.ts) writes it, its age is answer-age.ts's.
 */
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

/** What an answer says of itself besides its bytes. */
export interface AnswerFacts {
  ttlMs: number;
  operation: string | undefined;
  cdnTags: readonly string[];
  deprecatedUses?: readonly string[] | undefined;
  /** @default now */
  storedAt?: number | undefined;
}

/**
 * A stored answer whose tag is computed when first asked for: a GET's entity tag, the shared cache's
 * entry. An answer written to a POST and never asked for again needs none (a SHA-256 of the body, a
 * third of what a small answer's bytes cost: docs/performance.md, "A leaner pipeline").
 */
class LazilyTaggedAnswer implements StoredAnswer {
  #tag: string | undefined;
  readonly storedAt: number;
  readonly ttlMs: number;
  readonly operation: string | undefined;
  readonly cdnTags: readonly string[];
  readonly deprecatedUses: readonly string[] | undefined;

  constructor(
    readonly body: Buffer,
    tag: string | undefined,
    facts: AnswerFacts,
  ) {
    this.#tag = tag;
    this.storedAt = facts.storedAt ?? Date.now();
    this.ttlMs = facts.ttlMs;
    this.operation = facts.operation;
    this.cdnTags = facts.cdnTags;
    this.deprecatedUses = facts.deprecatedUses;
  }

  get tag(): string {
    return (this.#tag ??= bodyTag(this.body));
  }
}

/** The shareable answer of an execution: its text, stamped now. */
export function storedAnswer(body: string, ttlMs: number, operation: string | undefined, cdnTags: readonly string[]): StoredAnswer {
  return new LazilyTaggedAnswer(Buffer.from(body), undefined, { ttlMs, operation, cdnTags });
}

/** The same, of bytes whose tag may be known already (hashed as they were written: answer-bytes.ts, or read from Redis). */
export function storedAnswerOfBytes(bytes: { body: Buffer; tag?: string | undefined }, facts: AnswerFacts): StoredAnswer {
  return new LazilyTaggedAnswer(bytes.body, bytes.tag, facts);
}
