import type { ExecutionResult } from 'graphql';
import type { RedisCircuit } from '../redis/redis-circuit.js';
import { requestError } from './respond.js';
import type { GraphQLParams } from './request-params.js';
import { normalizeHash, sha256Hex } from '../trusted-documents.js';

/**
 * Registers a document in Redis within two caps, atomically. KEYS: the index (sorted set, hash →
 * registration time in µs by Redis' clock, kept strictly increasing so that order is exact), the
 * sizes (hash → bytes, plus the total under `#bytes`) and the document's key. ARGV: hash, text, TTL
 * in seconds, most documents, most bytes, document key prefix. Entries whose TTL has passed are
 * dropped first; then the least recently registered until both caps hold. Returns the number of
 * documents evicted for the caps. The keys of evicted documents are derived from the prefix, so
 * this needs one Redis (not a Cluster), as the service uses.
 */
const REGISTER_SCRIPT = `
local index, sizes, key = KEYS[1], KEYS[2], KEYS[3]
local hash, text, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local maxEntries, maxBytes, prefix = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local last = redis.call('ZRANGE', index, -1, -1, 'WITHSCORES')[2]
if last and tonumber(last) >= now then now = tonumber(last) + 1 end
local function drop(member)
  local size = redis.call('HGET', sizes, member)
  if size then
    redis.call('HINCRBY', sizes, '#bytes', -tonumber(size))
    redis.call('HDEL', sizes, member)
  end
  redis.call('ZREM', index, member)
  redis.call('DEL', prefix .. member)
end
for _, member in ipairs(redis.call('ZRANGEBYSCORE', index, '-inf', now - ttl * 1000000)) do drop(member) end
drop(hash)
redis.call('SET', key, text, 'EX', ttl)
redis.call('ZADD', index, now, hash)
redis.call('HSET', sizes, hash, #text)
redis.call('HINCRBY', sizes, '#bytes', #text)
local evicted = 0
while redis.call('ZCARD', index) > maxEntries or tonumber(redis.call('HGET', sizes, '#bytes')) > maxBytes do
  local oldest = redis.call('ZRANGE', index, 0, 0)[1]
  if oldest == hash then break end
  drop(oldest)
  evicted = evicted + 1
end
redis.call('EXPIRE', index, ttl)
redis.call('EXPIRE', sizes, ttl)
return evicted
`;

export interface PersistedQueryStoreOptions {
  /** Trusted documents by hex hash (from {@link loadPersistedDocuments}). */
  trusted: Map<string, string>;
  /** Registered (automatic) documents kept in memory. @default 1000 */
  maxEntries?: number;
  /** Upper bound on the characters held in memory by registered documents. @default 5_000_000 */
  maxCharacters?: number;
  /** Shared store across instances, when REDIS_URL is set. @default undefined */
  redis?: RedisCircuit | undefined;
  /** Redis key prefix. @default 'calendar' */
  namespace?: string;
  /**
   * Lifetime of a registered document in Redis, renewed when registered again. Kept to a day: any
   * caller can register documents, and a client that still uses one registers it again after a miss.
   * @default 86400
   */
  redisTtlSeconds?: number;
  /**
   * Registered documents kept in Redis, across all instances; past it the least recently registered
   * go. Anyone may register documents, so Redis holds a bounded number of them, not whatever a
   * script sends in a day. @default 10000
   */
  redisMaxEntries?: number;
  /** Bytes of registered document text kept in Redis, across all instances. @default 16 MiB */
  redisMaxBytes?: number;
}

/**
 * Persisted queries by SHA-256 of the document text: the trusted manifest first, then documents
 * registered by clients (automatic persisted queries) in a bounded LRU, then Redis (bounded too).
 */
export class PersistedQueryStore {
  private readonly registered = new Map<string, string>();
  private characters = 0;
  private readonly maxEntries: number;
  private readonly maxCharacters: number;
  private readonly prefix: string;
  private readonly redisMaxEntries: number;
  private readonly redisMaxBytes: number;

  constructor(private readonly options: PersistedQueryStoreOptions) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxCharacters = options.maxCharacters ?? 5_000_000;
    this.prefix = `${options.namespace ?? 'calendar'}:apq:`;
    this.redisMaxEntries = options.redisMaxEntries ?? 10_000;
    this.redisMaxBytes = options.redisMaxBytes ?? 16 * 1024 * 1024;
  }

  isTrusted(hash: string): boolean {
    return this.options.trusted.has(hash);
  }

  /** Registered documents held in this process now. */
  get localSize(): { entries: number; characters: number } {
    return { entries: this.registered.size, characters: this.characters };
  }

  async lookup(hash: string): Promise<string | undefined> {
    const trusted = this.options.trusted.get(hash);
    if (trusted !== undefined) return trusted;
    const local = this.registered.get(hash);
    if (local !== undefined) {
      // Map order is insertion order: re-inserting marks the entry as most recently used.
      this.registered.delete(hash);
      this.registered.set(hash, local);
      return local;
    }
    const redis = this.options.redis;
    if (!redis) return undefined;
    const shared = await redis.call((client) => client.get(this.prefix + hash), null);
    // Content-addressed: a value whose hash differs was not written by us; ignore it.
    if (shared == null || sha256Hex(shared) !== hash) return undefined;
    this.remember(hash, shared);
    return shared;
  }

  /** Keeps a document the caller has checked (its hash is the SHA-256 of `text`). */
  async register(hash: string, text: string): Promise<void> {
    if (this.isTrusted(hash)) return;
    this.remember(hash, text);
    const redis = this.options.redis;
    if (!redis || Buffer.byteLength(text) > this.redisMaxBytes) return;
    const ttl = this.options.redisTtlSeconds ?? 86_400;
    const keys = [`${this.prefix}#index`, `${this.prefix}#sizes`, this.prefix + hash];
    await redis.call(
      (client) => client.eval(REGISTER_SCRIPT, keys.length, ...keys, hash, text, ttl, this.redisMaxEntries, this.redisMaxBytes, this.prefix),
      undefined,
    );
  }

  private remember(hash: string, text: string): void {
    if (text.length > this.maxCharacters) return;
    const previous = this.registered.get(hash);
    if (previous !== undefined) {
      this.registered.delete(hash);
      this.characters -= previous.length;
    }
    this.registered.set(hash, text);
    this.characters += text.length;
    for (const [oldest, value] of this.registered) {
      if (this.registered.size <= this.maxEntries && this.characters <= this.maxCharacters) break;
      this.registered.delete(oldest);
      this.characters -= value.length;
    }
  }
}

/**
 * The request's parameters with the document text in place, and the hash it named, normalised
 * (lower-case hex), read here once for whoever needs it after (traces, registering). `registers` is
 * true when the request brought a new document with its hash: the caller keeps it under `hash` once
 * the document has run (parsed and validated), so text that is not a valid operation is never stored.
 */
export type PersistedQueryOutcome =
  | { ok: true; params: GraphQLParams; hash?: string | undefined; registers?: boolean | undefined }
  | { ok: false; error: ExecutionResult };

/** A bad reference is a 400; an unknown hash is 200, so clients of the persisted-query protocol retry with the text. */
const fail = (message: string, code: 'BAD_REQUEST' | 'PERSISTED_QUERY_NOT_FOUND'): PersistedQueryOutcome => ({
  ok: false,
  error: requestError(message, code, code === 'BAD_REQUEST' ? 400 : 200),
});

/**
 * Replaces a persisted-query reference by its document text.
 *
 * - `extensions.persistedQuery = { version: 1, sha256Hash }` (the Apollo protocol) or `documentId`
 *   (GraphQL over HTTP persisted documents), with or without the `sha256:` prefix.
 * - Hash without text: the trusted or registered document runs; unknown → `PersistedQueryNotFound`
 *   (status 200, so clients retry with the text).
 * - Hash with text: the hash must be the text's SHA-256 (400 otherwise); the text is to be registered.
 * - Neither: the request is left as it is (arbitrary queries stay allowed: this is a public API).
 */
export async function resolvePersistedQuery(params: GraphQLParams, store: PersistedQueryStore): Promise<PersistedQueryOutcome> {
  const persisted = params.extensions?.['persistedQuery'];
  let reference: string | undefined;
  if (persisted !== undefined && persisted !== null) {
    if (typeof persisted !== 'object' || Array.isArray(persisted)) return fail('extensions.persistedQuery must be an object.', 'BAD_REQUEST');
    const { version, sha256Hash } = persisted as Record<string, unknown>;
    if (version !== 1) return fail('Unsupported persisted query version: only version 1 is supported.', 'BAD_REQUEST');
    if (typeof sha256Hash !== 'string') return fail('extensions.persistedQuery.sha256Hash must be a string.', 'BAD_REQUEST');
    reference = sha256Hash;
  } else if (params.documentId !== undefined) {
    reference = params.documentId;
  }
  if (reference === undefined) return { ok: true, params };

  const hash = normalizeHash(reference);
  if (!hash) return fail('A persisted query hash is 64 hexadecimal digits (SHA-256), optionally prefixed with "sha256:".', 'BAD_REQUEST');

  if (params.query !== undefined) {
    if (sha256Hex(params.query) !== hash) return fail('provided sha does not match query', 'BAD_REQUEST');
    return { ok: true, params, hash, registers: true };
  }
  const text = await store.lookup(hash);
  if (text === undefined) return fail('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
  return { ok: true, params: { ...params, query: text }, hash };
}
