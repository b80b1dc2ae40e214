import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ExecutionResult } from 'graphql';
import type { RedisCircuit } from '../redis/redis-circuit.js';
import { requestError } from './respond.js';
import type { GraphQLParams } from './request-params.js';

/** The manifest codegen writes: `sha256:<hex>` → document text (the trusted operations in `queries/`). */
export const persistedDocumentsPath = new URL('../../generated/client/persisted-documents.json', import.meta.url);

export function loadPersistedDocuments(path: URL | string = persistedDocumentsPath): Map<string, string> {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const documents = new Map<string, string>();
  for (const [id, text] of Object.entries(manifest)) {
    const hash = normalizeHash(id);
    if (hash && typeof text === 'string') documents.set(hash, text);
  }
  return documents;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** `sha256:<hex>` or bare hex → lower-case hex; anything else → undefined. */
export function normalizeHash(value: string): string | undefined {
  const hex = value.trim().toLowerCase().replace(/^sha256:/, '');
  return HEX_SHA256.test(hex) ? hex : undefined;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

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
}

/**
 * Persisted queries by SHA-256 of the document text: the trusted manifest first, then documents
 * registered by clients (automatic persisted queries) in a bounded LRU, then Redis.
 */
export class PersistedQueryStore {
  private readonly registered = new Map<string, string>();
  private characters = 0;
  private readonly maxEntries: number;
  private readonly maxCharacters: number;
  private readonly prefix: string;

  constructor(private readonly options: PersistedQueryStoreOptions) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxCharacters = options.maxCharacters ?? 5_000_000;
    this.prefix = `${options.namespace ?? 'calendar'}:apq:`;
  }

  isTrusted(hash: string): boolean {
    return this.options.trusted.has(hash);
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

  async register(hash: string, text: string): Promise<void> {
    if (this.isTrusted(hash)) return;
    this.remember(hash, text);
    const redis = this.options.redis;
    if (!redis) return;
    await redis.call((client) => client.set(this.prefix + hash, text, 'EX', this.options.redisTtlSeconds ?? 86_400), undefined);
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

export type PersistedQueryOutcome = { ok: true; params: GraphQLParams } | { ok: false; error: ExecutionResult };

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
 * - Hash with text: the hash must be the text's SHA-256 (400 otherwise); the text is registered.
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
    await store.register(hash, params.query);
    return { ok: true, params };
  }
  const text = await store.lookup(hash);
  if (text === undefined) return fail('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
  return { ok: true, params: { ...params, query: text } };
}
