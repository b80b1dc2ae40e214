import type { Plugin } from '@envelop/core';
import { createInMemoryCache, defaultBuildResponseCacheKey, useResponseCache, type Cache } from '@envelop/response-cache';
import type { ExecutionResult } from 'graphql';
import type { Logger } from '../logger.js';

const MINUTE = 60_000;

/**
 * How long an answer may be reused, per schema coordinate; an operation gets the smallest TTL of
 * the fields it selects. The catalogues change when an importer runs; everything with events is
 * relative to "now" (upcoming, ongoing, promoted dates), so it is kept short.
 */
export const RESPONSE_TTL_MS: Readonly<Record<string, number>> = {
  'Query.categories': 60 * MINUTE,
  'Query.venues': 60 * MINUTE,
  'Query.organizers': 60 * MINUTE,
  'Query.events': 30_000,
  'Query.eventByID': 30_000,
  'Query.eventBySlug': 30_000,
  'Query.eventsBySlugs': 30_000,
  'Query.eventByTitle': 30_000,
  'Query.allUpcomingSuperEvents': 30_000,
  'Query.allUpcomingEventsInArea': 30_000,
};

/** TTL of an operation that selects none of the fields above (`{ __typename }`, `__type`). */
export const DEFAULT_RESPONSE_TTL_MS = 30_000;

/** How fresh the answer of one request is; see {@link responseCacheFreshness}. */
export interface CachedFreshness {
  ttlMs: number;
  ageMs: number;
}

const freshnessByContext = new WeakMap<object, CachedFreshness>();

/**
 * Freshness of the answer given to the request whose context this is, when it is in the cache:
 * stored by this request (age 0) or served from it. The HTTP layer turns it into Cache-Control.
 */
export function responseCacheFreshness(context: object): CachedFreshness | undefined {
  return freshnessByContext.get(context);
}

/** Kept next to each cached result: when it was stored and for how long (Redis or memory). */
const STAMP = '__calendarCache';
interface Stamp {
  storedAt: number;
  ttlMs: number;
}

export interface SharedResponseCacheOptions {
  /** Where answers are shared between processes: Redis when REDIS_URL is set. @default none (this process only) */
  store?: Cache | undefined;
  /** Answers kept in this process, in front of the shared store. @default 1000 */
  localEntries?: number;
  /** Prefix of every cache key, so that services sharing a Redis do not share answers. @default 'calendar' */
  namespace?: string;
  /** @default RESPONSE_TTL_MS */
  ttlPerSchemaCoordinate?: Record<string, number>;
  /** @default DEFAULT_RESPONSE_TTL_MS */
  defaultTtlMs?: number;
  logger: Logger;
}

/**
 * Envelop's response cache with one shared session: nothing per caller may enter a cached answer
 * (the key notice is added by a plugin after this one). The store is wrapped so that
 * - each answer carries a stamp, so a hit tells the HTTP layer how much of the TTL remains;
 * - no entity index is written: there are no mutations to invalidate by, and the Redis store's
 *   per-type sets would otherwise grow without a TTL;
 * - a failing store (Redis down) is a miss, never a failed request;
 * - answers are also kept in this process (an LRU, each for what remains of its TTL), in front of the
 *   shared store: a hit costs no round trip, and an outage of the shared store leaves the hot
 *   answers served as before.
 */
export function useSharedResponseCache(options: SharedResponseCacheOptions): Plugin {
  const local = createInMemoryCache({ max: options.localEntries ?? 1000 });
  const shared = options.store;
  const namespace = options.namespace ?? 'calendar';
  const logger = options.logger;
  const warn = (error: unknown, action: string) => logger.warn({ err: error }, `response cache ${action} failed; answering without the cache`);

  const storeFor = (context: object): Cache => ({
    async get(key) {
      let entry: ExecutionResult | null | undefined = await local.get(key);
      const fromShared = !entry;
      if (!entry && shared) {
        try {
          entry = await shared.get(key);
        } catch (error) {
          warn(error, 'read');
          return null;
        }
      }
      if (!entry) return null;
      const { [STAMP]: stamp, ...extensions } = (entry.extensions ?? {}) as Record<string, unknown>;
      const { storedAt, ttlMs } = (stamp ?? {}) as Partial<Stamp>;
      if (typeof storedAt === 'number' && typeof ttlMs === 'number') {
        const ageMs = Math.max(0, Date.now() - storedAt);
        freshnessByContext.set(context, { ttlMs, ageMs });
        // Kept here too, for what remains of its TTL: never longer than the shared entry lives.
        if (fromShared && ttlMs - ageMs > 0) void local.set(key, entry, [], ttlMs - ageMs);
      }
      const { extensions: _dropped, ...rest } = entry;
      return Object.keys(extensions).length > 0 ? { ...rest, extensions } : rest;
    },
    set(key, result, _entities, ttl) {
      if (!Number.isFinite(ttl) || ttl <= 0) return;
      const stamp: Stamp = { storedAt: Date.now(), ttlMs: ttl };
      freshnessByContext.set(context, { ttlMs: ttl, ageMs: 0 });
      const stamped: ExecutionResult = { ...result, extensions: { ...result.extensions, [STAMP]: stamp } };
      // Not awaited by the response cache: a rejection here must not become an unhandled one.
      void local.set(key, stamped, [], ttl);
      if (!shared) return;
      return Promise.resolve()
        .then(() => shared.set(key, stamped, [], ttl))
        .catch((error: unknown) => warn(error, 'write'));
    },
    invalidate() {
      // Read-only API: nothing invalidates; entries expire by TTL.
    },
  });

  return useResponseCache({
    cache: storeFor,
    // One shared cache for everyone: answers hold nothing per caller.
    session: () => null,
    ttl: options.defaultTtlMs ?? DEFAULT_RESPONSE_TTL_MS,
    ttlPerSchemaCoordinate: { ...(options.ttlPerSchemaCoordinate ?? RESPONSE_TTL_MS) },
    buildResponseCacheKey: async (params) => `${namespace}:rc:${await defaultBuildResponseCacheKey(params)}`,
    // The default logs a warning for every answer with errors; such answers are simply not cached.
    shouldCacheResult: ({ result }) => !result.errors,
    // Never let NODE_ENV=development add cache metadata to shared answers.
    includeExtensionMetadata: false,
  });
}
