import type { Plugin } from '@envelop/core';
import { defaultBuildResponseCacheKey, useResponseCache, type Cache } from '@envelop/response-cache';
import { LRUCache } from 'lru-cache';
import { Kind, type DocumentNode, type ExecutionResult, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { selectedFieldNames } from '../schema/selected-fields.js';
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
  /** Bytes (of JSON) those answers may take together. @default 64 MiB */
  localBytes?: number;
  /** Larger answers (of JSON) are not kept at all, here or shared. @default 1 MiB */
  maxAnswerBytes?: number;
  /** Prefix of every cache key, so that services sharing a Redis do not share answers. @default 'calendar' */
  namespace?: string;
  /** @default RESPONSE_TTL_MS */
  ttlPerSchemaCoordinate?: Record<string, number>;
  /** @default DEFAULT_RESPONSE_TTL_MS */
  defaultTtlMs?: number;
  /**
   * The data version answers are read at (the read model's): part of every key, so that once a node
   * reads a new version none of its answers of an older one is served, from memory or Redis.
   */
  dataVersion?: (() => string | null) | undefined;
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
  // Bounded by bytes as well as entries: one whole-world `allUpcomingEventsInArea` answer is megabytes.
  const local = new LRUCache<string, { result: ExecutionResult }>({ max: options.localEntries ?? 1000, maxSize: options.localBytes ?? 64 * 1024 * 1024 });
  const keepLocally = (key: string, result: ExecutionResult, bytes: number, ttl: number) => {
    local.set(key, { result }, { ttl, size: Math.max(1, bytes) });
  };
  const maxAnswerBytes = options.maxAnswerBytes ?? 1024 * 1024;
  const shared = options.store;
  const namespace = options.namespace ?? 'calendar';
  const logger = options.logger;
  const warn = (error: unknown, action: string) => logger.warn({ err: error }, `response cache ${action} failed; answering without the cache`);

  const storeFor = (context: object): Cache => ({
    async get(key) {
      let entry: ExecutionResult | null | undefined = local.get(key)?.result;
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
        if (fromShared && ttlMs - ageMs > 0) keepLocally(key, entry, JSON.stringify(entry).length, ttlMs - ageMs);
      }
      const { extensions: _dropped, ...rest } = entry;
      return Object.keys(extensions).length > 0 ? { ...rest, extensions } : rest;
    },
    set(key, result, _entities, ttl) {
      if (!Number.isFinite(ttl) || ttl <= 0) return;
      const stamp: Stamp = { storedAt: Date.now(), ttlMs: ttl };
      const stamped: ExecutionResult = { ...result, extensions: { ...result.extensions, [STAMP]: stamp } };
      // Recomputing a huge answer costs less than holding many of them (and each box is its own key).
      const bytes = JSON.stringify(stamped).length;
      if (bytes > maxAnswerBytes) return;
      freshnessByContext.set(context, { ttlMs: ttl, ageMs: 0 });
      keepLocally(key, stamped, bytes, ttl);
      if (!shared) return;
      return Promise.resolve()
        .then(() => shared.set(key, stamped, [], ttl))
        .catch((error: unknown) => warn(error, 'write'));
    },
    invalidate() {
      // Read-only API: nothing invalidates; entries expire by TTL.
    },
  });

  const ttls = { ...(options.ttlPerSchemaCoordinate ?? RESPONSE_TTL_MS) };
  const defaultTtl = options.defaultTtlMs ?? DEFAULT_RESPONSE_TTL_MS;
  // Marks the requests whose operation selects a root field kept out of the cache; their answers
  // are still fresh for the field's TTL, so that a CDN may keep them (see UNCACHED_ROOT_FIELDS).
  const uncached = new WeakSet<object>();
  const marker: Plugin = {
    onExecute({ args }) {
      const fields = uncachedRootFields(args.document, args.operationName ?? undefined);
      if (fields.length === 0) return;
      uncached.add(args.contextValue as object);
      freshnessByContext.set(args.contextValue as object, { ttlMs: Math.min(...fields.map((f) => ttls[`Query.${f}`] ?? defaultTtl)), ageMs: 0 });
    },
  };
  const cache = useResponseCache({
    enabled: (context) => !uncached.has(context),
    cache: storeFor,
    // One shared cache for everyone: answers hold nothing per caller.
    session: () => null,
    ttl: defaultTtl,
    ttlPerSchemaCoordinate: ttls,
    buildResponseCacheKey: async (params) => `${namespace}:rc:${options.dataVersion?.() ?? '-'}:${await defaultBuildResponseCacheKey(params)}`,
    // The default logs a warning for every answer with errors; such answers are simply not cached.
    shouldCacheResult: ({ result }) => !result.errors,
    // Never let NODE_ENV=development add cache metadata to shared answers.
    includeExtensionMetadata: false,
  });
  return {
    onPluginInit({ addPlugin }) {
      // In this order: the marker's onExecute runs before the cache's.
      addPlugin(marker);
      addPlugin(cache);
    },
  };
}

/**
 * Root fields whose answers are never kept: their size grows with the calendar (a whole-world box
 * is megabytes), and the response cache's walk over such an answer (it copies every object to strip
 * its bookkeeping fields) costs more than recomputing it, and holding many would take gigabytes.
 */
export const UNCACHED_ROOT_FIELDS: ReadonlySet<string> = new Set(['allUpcomingEventsInArea']);

/** The uncached root fields the executed operation selects (fragments on Query included). */
function uncachedRootFields(document: DocumentNode, operationName: string | undefined): string[] {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (operationName === undefined || d.name?.value === operationName),
  );
  if (!operation) return [];
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  return [...selectedFieldNames([operation.selectionSet], fragments)].filter((name) => UNCACHED_ROOT_FIELDS.has(name));
}
