import { LRUCache } from 'lru-cache';
import type { ShareableAnswer } from './response-cache.js';
import type { StoredAnswer } from './stored-answer.js';

/**
 * The answers kept in this process: an LRU bounded by bytes, each entry for a time of its own, and
 * the executions in flight by key (single flight: concurrent misses of one key wait for one).
 */
export class MemoryAnswerStore {
  private readonly kept: LRUCache<string, StoredAnswer>;
  private readonly flights = new Map<string, Promise<StoredAnswer | undefined>>();

  constructor(maxBytes: number) {
    // 200: what an entry costs beyond its bytes (the key, the answer object, the LRU's own). Its
    // bytes are its body and its compressed forms (answer-forms.ts), recounted as forms are made.
    this.kept = new LRUCache({ maxSize: maxBytes, sizeCalculation: (answer) => answer.keptBytes + 200 });
  }

  get(key: string): StoredAnswer | undefined {
    return this.kept.get(key);
  }

  set(key: string, answer: StoredAnswer, ttlMs: number): void {
    this.kept.set(key, answer, { ttl: ttlMs });
    answer.watchSize(key, () => this.recount(key, answer));
  }

  /** A form was added to the answer kept under `key`: counted in the byte bound (evicting others if need be). */
  private recount(key: string, answer: StoredAnswer): void {
    if (this.kept.peek(key) !== answer) return;
    const ttl = this.kept.getRemainingTTL(key);
    // The LRU counts a value's size when it is set anew, not when the same value is set again.
    this.kept.delete(key);
    if (ttl > 0) this.kept.set(key, answer, { ttl });
  }

  /** The execution of the key in flight in this process, if any. */
  inFlight(key: string): Promise<StoredAnswer | undefined> | undefined {
    return this.flights.get(key);
  }

  /**
   * Runs `execute` as the one execution of this key in this process: concurrent requests of the key
   * wait for its answer. `execute` gives the shareable answer, or undefined when there is none
   * (errors, a notice-only answer); `keep` stores one that may be kept, before those waiting get it,
   * so that no request comes between and finds neither.
   */
  async executeOnce(
    key: string,
    execute: () => Promise<ShareableAnswer | undefined>,
    keep: (answer: StoredAnswer) => void,
  ): Promise<StoredAnswer | undefined> {
    let settle!: (answer: StoredAnswer | undefined) => void;
    this.flights.set(key, new Promise<StoredAnswer | undefined>((resolve) => (settle = resolve)));
    try {
      const shareable = await execute();
      if (shareable?.keep) keep(shareable.answer);
      settle(shareable?.answer);
      return shareable?.answer;
    } catch (error) {
      settle(undefined);
      throw error;
    } finally {
      this.flights.delete(key);
    }
  }
}
