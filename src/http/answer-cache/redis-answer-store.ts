import { createHash } from 'node:crypto';
import type { RedisCircuit } from '../../redis/redis-circuit.js';
import { COMPRESSION_MIN_BYTES } from '../content-coding.js';
import { decodeAnswer, encodeAnswer } from './redis-answer-codec.js';
import type { StoredAnswer } from './stored-answer.js';

/**
 * The answers shared between processes: compact entries (redis-answer-codec.ts) with a TTL of their
 * own, behind the Redis circuit breaker: a failing Redis is a miss, never a failed request.
 */
export class RedisAnswerStore {
  constructor(
    private readonly circuit: RedisCircuit,
    /** Prefix of the keys, so that services sharing a Redis do not share answers. */
    private readonly namespace: string,
  ) {}

  async get(key: string): Promise<StoredAnswer | undefined> {
    const value = await this.circuit.call((redis) => redis.getBuffer(this.redisKey(key)), null);
    return value ? decodeAnswer(value) : undefined;
  }

  /** Writes the entry in the background: with the answer's brotli form (made now if need be) when it is large enough to have one. */
  set(key: string, answer: StoredAnswer, lifetimeMs: number): void {
    const write = (entry: Buffer) => void this.circuit.call((redis) => redis.set(this.redisKey(key), entry, 'PX', lifetimeMs), undefined);
    if (answer.body.length < COMPRESSION_MIN_BYTES) return write(encodeAnswer(answer));
    answer.encode('br').then(
      (form) => write(encodeAnswer(answer, form)),
      () => write(encodeAnswer(answer)),
    );
  }

  /** Claims the refresh of the key's stale answer for 10 s: false when another node holds it. */
  async claimRefresh(key: string): Promise<boolean> {
    const locked = await this.circuit.call((redis) => redis.set(`${this.redisKey(key)}:refresh`, '1', 'PX', 10_000, 'NX'), 'OK' as const);
    return locked === 'OK';
  }

  /** Redis keys are bounded: the request part (documents, variables) is hashed; the version stays readable. */
  private redisKey(key: string): string {
    const split = key.indexOf('\u0000');
    const digest = createHash('sha256').update(key.slice(split + 1)).digest('base64url').slice(0, 32);
    // `rc2`: entries with a form field (redis-answer-codec.ts), which nodes reading `rc` entries cannot read.
    return `${this.namespace}:rc2:${key.slice(0, split)}:${digest}`;
  }
}
