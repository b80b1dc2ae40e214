import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createRedisCache, type RedisCacheParameter } from '@envelop/response-cache-redis';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { clockFrom, type Config } from './config.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db/open-database.js';
import { createLogger, type Logger } from './logger.js';
import { buildExecutableSchema, loadSchemaSource } from './schema/executable-schema.js';
import { createEnveloped } from './plugins/index.js';
import { UsageRecorder } from './plugins/use-usage-counts.js';
import { createHttpServer } from './http/server.js';
import { loadPersistedDocuments, PersistedQueryStore } from './http/persisted-queries.js';

export interface RunningService {
  url: string;
  server: Server;
  database: DatabaseHandle;
  logger: Logger;
  /** Writes the usage counts gathered so far (they are also written every few seconds and on close). */
  flushUsage(): Promise<void>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Use this database instead of opening one from the config (tests). */
  database?: DatabaseHandle;
  /** Seed the demo calendar when the database holds no events. @default true */
  seedWhenEmpty?: boolean;
  logger?: Logger;
  clock?: () => Date;
  /** Prefix of response-cache and persisted-query keys in Redis. @default `calendar:<DATABASE_SCHEMA>:<schema hash>` */
  cacheNamespace?: string;
  /** TTL of the in-process API key cache. @default 60000 */
  apiKeyCacheTtlMs?: number;
  /** How often usage counts are written. @default 5000 */
  usageFlushIntervalMs?: number;
  /** Execute with graphql-jit (see docs/transport.md for the measurement). @default true */
  jit?: boolean;
}

/** Wiring only: config → database → schema → plugins → HTTP server. */
export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const clock = options.clock ?? clockFrom(config);
  const database =
    options.database ??
    (await openDatabase({ url: config.DATABASE_URL, dataDir: config.CALENDAR_DATA_DIR, schema: config.DATABASE_SCHEMA }));
  await migrateToLatest(database.db);
  if (options.seedWhenEmpty ?? true) {
    // Loaded only when asked for: the demo generator is large and tests never seed.
    const { seedDemoCalendarIfEmpty } = await import('./import/seed-if-empty.js');
    const seeded = await seedDemoCalendarIfEmpty(database.db, { events: config.DEMO_EVENTS, today: clock() });
    if (seeded) logger.info({ events: seeded.events }, 'database was empty: seeded the demo calendar');
  }

  const schemaSource = loadSchemaSource();
  const schema = buildExecutableSchema(schemaSource);
  // A new schema gets new cache keys: answers cached under an older shape are never served.
  const schemaHash = createHash('sha256').update(schemaSource).digest('hex').slice(0, 12);
  const namespace = options.cacheNamespace ?? `calendar:${database.schema}:${schemaHash}`;
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, logger) : undefined;
  const usage = new UsageRecorder({ db: database.db, logger, clock, flushIntervalMs: options.usageFlushIntervalMs });

  const getEnveloped = createEnveloped({
    schema,
    db: database.db,
    logger,
    clock,
    eventLinkBase: config.PUBLIC_SITE_URL,
    // @envelop/response-cache-redis is typed against ioredis 5; ioredis 6 has the same commands.
    responseCache: { namespace, store: redis ? createRedisCache({ redis: redis as unknown as RedisCacheParameter['redis'] }) : undefined },
    usage,
    apiKeyCacheTtlMs: options.apiKeyCacheTtlMs,
    jit: options.jit,
  });
  const persistedQueries = new PersistedQueryStore({ trusted: loadPersistedDocuments(), redis, namespace, logger });
  const server = createHttpServer({
    getEnveloped,
    persistedQueries,
    schemaSource,
    logger,
    checkReady: async () => {
      await sql`select 1`.execute(database.db);
      return true;
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const url = `http://${host}:${port}/graphQL`;
  return {
    url,
    server,
    database,
    logger,
    flushUsage: () => usage.flush(),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timeout = setTimeout(() => server.closeAllConnections(), 5000).unref();
      await closed;
      clearTimeout(timeout);
      // The last counts are written before the database goes away.
      await usage.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
      if (!options.database) await database.close();
    },
  };
}

/**
 * Redis for the response cache and persisted queries. A cache must never take the API down: short
 * timeouts, one retry, and a start without Redis (logged) when it does not answer.
 */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: 500, connectTimeout: 2000 });
  let reported = false;
  redis.on('error', (error: unknown) => {
    if (!reported) logger.warn({ err: error }, 'Redis unavailable: answering without the shared cache until it is back');
    reported = true;
  });
  redis.on('ready', () => {
    reported = false;
  });
  await redis.connect().catch(() => undefined);
  return redis;
}
