import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { clockFrom, metricsListenAddress, type Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/open-database.js';
import { prepareSchema } from './db/prepare-schema.js';
import { LATEST_MIGRATION } from './db/migrations/index.js';
import type { Readiness } from './http/health.js';
import { StartupError } from './startup-error.js';
import { createLogger, type Logger } from './logger.js';
import { buildServedSchema, type ServedSchema } from './schema/executable-schema.js';
import { createEnveloped } from './plugins/index.js';
import type { GetEnveloped } from './plugins/get-enveloped.js';
import { NO_RESPONSE_CACHE, type ResponseCache } from './http/answer-cache/response-cache.js';
import { ReadModel } from './read-model/read-model.js';
import { UsageRecorder } from './identity/usage-recorder.js';
import { createHttpServer } from './http/server.js';
import { shutdownHttpServer } from './http/shutdown-http-server.js';
import { listenOn } from './http/listen-on.js';
import { createMetricsServer } from './http/metrics-server.js';
import { declareDeprecatedCoordinates, localMetricsText, watchPools } from './telemetry/metrics.js';
import { clusterMetricsText } from './cluster/worker-metrics.js';
import { deprecatedCoordinates } from './schema/deprecated-uses.js';
import { listeningBaseUrl } from './http/listening-base-url.js';
import { connectRedis } from './redis/redis-circuit.js';
import { TwoTierResponseCache } from './http/answer-cache/two-tier-response-cache.js';
import { CallerBudgets } from './identity/caller-budgets.js';
import { CallerIdentity } from './identity/caller-identity.js';
import { RedisBuckets } from './identity/redis-buckets.js';
import { ClientAddresses } from './identity/client-address.js';
import { RESPONSE_TTL_MS, ResponsePolicies } from './http/response-policy.js';
import { PersistedQueryStore } from './http/persisted-queries.js';
import { loadPersistedDocuments } from './trusted-documents.js';
import { CdnPurger } from './cdn/cdn-purger.js';
import { purgeTargetsOf } from './cdn/purge-targets.js';
import { DEFAULT_DEMO_EVENTS } from './demo/demo-size.js';

export interface RunningService {
  url: string;
  server: Server;
  /** METRICS_PORT's listener, when this process has one (not in a cluster worker: its primary has). */
  metricsServer: Server | undefined;
  /** Where GET /metrics is answered: the API's address, METRICS_PORT's listener, or in a cluster worker its primary's. */
  metricsAddress: { host: string; port: number };
  database: DatabaseHandle;
  logger: Logger;
  /** Writes the usage counts gathered so far (they are also written every few seconds and on close). */
  flushUsage(): Promise<void>;
  /**
   * Serves `served` from the next request on (requests in flight finish on the schema they started with),
   * with a response cache of its own; present only with StartOptions.replaceableSchema (`npm run dev`).
   */
  replaceSchema?: (served: ServedSchema) => void;
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
  /** How often the read model looks at the data version besides LISTEN (tests of LISTEN alone raise it). @default 1000 */
  dataVersionPollMs?: number;
  /** How long a read-model snapshot is kept before the same version is read afresh (tests shorten it). @default a day */
  readModelRereadMs?: number;
  /**
   * After each full build of the read model, have V8 collect the one it replaced and give the memory back
   * (release-replaced-build.ts). In-process test servers turn it off: a full collection of the test runner's
   * heap after every server's first build would only slow the suite. @default true
   */
  releaseReplacedBuilds?: boolean;
  /** TTL of cached answers per root field, merged over the defaults (tests shorten them). @default RESPONSE_TTL_MS */
  responseTtlMs?: Readonly<Record<string, number>>;
  /** The CDN purger's retry window and first retry delay (tests shorten them). @default 10 minutes, 250 ms */
  cdnPurgeRetry?: { windowMs: number; firstDelayMs: number };
  /** Execute with graphql-jit (see docs/transport.md for the measurement). @default true */
  jit?: boolean;
  /** The schema can be replaced while the service runs (RunningService.replaceSchema): `npm run dev`. @default false */
  replaceableSchema?: boolean;
  /**
   * The trusted documents (`sha256` hex → text), read on every lookup: `npm run dev` refills this map when
   * a document of queries/ is saved. @default generated/persisted-documents.json, read at start
   */
  trustedDocuments?: Map<string, string>;
  /**
   * This process is a worker of `calendar serve`'s cluster (WORKERS > 1): /metrics is the whole
   * node's, added up by the primary, which also holds METRICS_PORT's listener. @default false
   */
  clusterWorker?: boolean;
}

/** Wiring only: config → database → schema → plugins → HTTP server. */
export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const clock = options.clock ?? clockFrom(config);
  const database =
    options.database ??
    (await openDatabase({
      url: config.DATABASE_URL,
      dataDir: config.CALENDAR_DATA_DIR,
      schema: config.DATABASE_SCHEMA,
      // MIGRATE=off never writes the schema, nor creates it (the serving role of docs/operating.md may not).
      createSchema: config.MIGRATE === 'auto',
      poolSize: config.DATABASE_POOL_SIZE,
      acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      waitMs: config.DATABASE_WAIT_SECONDS * 1000,
      logger,
      readUrls: config.DATABASE_READ_URL,
      listenUrl: config.DATABASE_LISTEN_URL,
    }));
  // MIGRATE=auto migrates (refusing a read-only database); off refuses a schema older than this code.
  await prepareSchema(database, { migrate: config.MIGRATE, servingRole: config.DATABASE_SERVING_ROLE }, logger);
  await seedOrSayEmpty(config, database, logger, clock, options.seedWhenEmpty ?? true);

  let served = buildServedSchema();
  // calendar_deprecated_uses_total shows each deprecated coordinate from the start, at 0 until used.
  declareDeprecatedCoordinates(deprecatedCoordinates(served.schema));
  // A new schema gets new cache keys: answers cached under an older shape are never served.
  const schemaHash = createHash('sha256').update(served.source).digest('hex').slice(0, 12);
  const namespace = options.cacheNamespace ?? `calendar:${database.schema}:${schemaHash}`;
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, logger) : undefined;
  const usage = new UsageRecorder({
    db: database.db,
    databaseHealth: database.health,
    logger,
    clock,
    flushIntervalMs: options.usageFlushIntervalMs,
  });

  // Reads (the read model, records, key lookups) go to the replicas when there are any; usage counts to the primary.
  const readModel = new ReadModel({
    db: database.readDb,
    clock,
    logger,
    listen: database.listenForDataVersions,
    // An import run in this process through this database (seeding, a test's) is seen at once.
    committedImports: database.committedImports,
    pollIntervalMs: options.dataVersionPollMs,
    rereadAfterMs: options.readModelRereadMs,
    layered: config.READ_MODEL_LAYERED === 'on',
    deltaMostEvents: config.READ_MODEL_DELTA_MOST_EVENTS,
    segmentEvents: config.READ_MODEL_SEGMENT_EVENTS ?? null,
    releaseReplacedBuilds: options.releaseReplacedBuilds ?? true,
  });
  const purger = cdnPurgerOf(config, database, logger, options.cdnPurgeRetry);
  // Each version this node serves: the CDN edges are purged of what it changed (by one node of all).
  if (purger) readModel.onVersion((version) => purger.versionServed(version));
  await readModel.start();
  // A read-only DATABASE_URL takes no writes: usage is not counted, rather than failing every flush.
  if (database.readOnly) logger.warn('the database of DATABASE_URL is read-only: usage counts are not recorded (point DATABASE_URL at the primary to count them)');
  // Who is calling, resolved once per request at the HTTP edge (for cache hits and executions alike).
  const callerIdentity = new CallerIdentity({
    db: database.readDb,
    logger,
    databaseHealth: database.health,
    cacheTtlMs: options.apiKeyCacheTtlMs,
    addresses: new ClientAddresses(config.TRUST_PROXY),
  });
  // Budgets per caller, only when configured (the spec: "Rate limit or quota: None" until announced).
  // With Redis, one bucket per caller for the whole fleet (each node's own while Redis is away).
  const budgets = new CallerBudgets({
    keyPerMinute: config.RATE_LIMIT_KEY,
    anonymousPerMinute: config.RATE_LIMIT_ANONYMOUS,
    shared: redis ? new RedisBuckets(redis, namespace) : undefined,
    logger,
  });
  // The response cache: keyed by the read model's data version, so an import is seen at once.
  // `keys`: the Redis namespace of its answers (a replaced schema's are kept apart from the ones before it).
  const newResponseCache = (keys = namespace) =>
    config.RESPONSE_CACHE === 'on' ? new TwoTierResponseCache({ dataVersion: () => readModel.requestVersion(), shared: redis, namespace: keys, logger }) : undefined;
  let responseCache = newResponseCache();
  let replacements = 0;
  // Demo picture URLs are absolute under this (docs/using-the-api.md#the-demo-calendars-pictures); the port is known once listening.
  let publicBaseUrl = config.PUBLIC_BASE_URL;
  const pipelineOf = (schema: ServedSchema['schema']) =>
    createEnveloped({
      schema,
      db: database.readDb,
      readModel,
      databaseHealth: database.health,
      logger,
      clock,
      eventLinkBase: config.PUBLIC_SITE_URL,
      publicBaseUrl: () => publicBaseUrl,
      jit: options.jit,
    });
  let getEnveloped = pipelineOf(served.schema);
  // `npm run dev` replaces the schema: the server then asks for the pipeline, the SDL and the response cache
  // of now on each request (one call more); a served process binds them once.
  const replaceable = options.replaceableSchema === true;
  const currentPipeline: GetEnveloped = replaceable ? (initialContext) => getEnveloped(initialContext) : getEnveloped;
  const currentResponseCache: ResponseCache | undefined =
    replaceable && responseCache ? { lookupOrExecute: (request) => (responseCache ?? NO_RESPONSE_CACHE).lookupOrExecute(request) } : responseCache;
  // GET /metrics: this process's registry; in a cluster worker the node's, which it asks the primary for (src/cluster/worker-metrics.ts).
  const metricsText = options.clusterWorker ? clusterMetricsText : localMetricsText;
  // METRICS_PORT: /metrics on a listener of its own and no longer on the API's port; in a cluster the
  // primary holds that listener (src/cluster/run-primary.ts).
  const metricsAddress = metricsListenAddress(config);
  const metricsServer = metricsAddress && !options.clusterWorker ? createMetricsServer({ metrics: metricsText, logger }) : undefined;
  // Set by close(): /ready answers 503 from then on, while requests are still answered (SHUTDOWN_DELAY_MS).
  let shuttingDown = false;
  const persistedQueries = new PersistedQueryStore({ trusted: options.trustedDocuments ?? loadPersistedDocuments(), redis, namespace });
  const server = createHttpServer({
    getEnveloped: currentPipeline,
    policies: new ResponsePolicies({ ttlPerRootField: options.responseTtlMs ? { ...RESPONSE_TTL_MS, ...options.responseTtlMs } : undefined }),
    persistedQueries,
    sharedCaches: {
      tagHeader: config.CDN_TAG_HEADER === 'none' ? undefined : config.CDN_TAG_HEADER,
      outdated: (version) => (version === undefined ? readModel.answersOutdated : readModel.knowsNewerThan(version)),
    },
    schemaSource: replaceable ? () => served.source : served.source,
    logger,
    responseCache: currentResponseCache,
    // GET /events.ics reads the same read model and records as the API (docs/feeds.md).
    icsFeed: { readModel, db: database.readDb, clock, eventLinkBase: config.PUBLIC_SITE_URL, databaseHealth: database.health },
    identity: callerIdentity,
    usage: database.readOnly ? undefined : usage,
    budgets: budgets.enabled ? budgets : undefined,
    checkReady: async () => {
      const state = await readiness(database, readModel);
      return shuttingDown ? { ...state, ready: false, reason: 'the service is shutting down' } : state;
    },
    metrics: metricsAddress ? undefined : metricsText,
    maxInFlight: config.MAX_IN_FLIGHT_REQUESTS,
    maxInFlightPerCaller: config.MAX_IN_FLIGHT_PER_CALLER,
    executionSlots: config.EXECUTION_SLOTS,
    executionTimeoutMs: config.REQUEST_TIMEOUT_MS,
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: config.HTTP_MAX_CONNECTIONS,
  });
  // The pool's connections in /metrics while this service runs (once it listens).
  let unwatchPools: (() => void) | undefined;
  /**
   * Stops what startService started, in reverse order: the listeners first (a request in flight gets
   * `drainMs` to finish; 0 after a failed start), then what requests use, the database last.
   */
  const shutdown = async (drainMs: number, metricsDrainMs: number, acceptForMs = 0) => {
    if (server.listening) await shutdownHttpServer(server, drainMs, acceptForMs);
    // After the API's: a scrape during the drain still sees it.
    if (metricsServer?.listening) await shutdownHttpServer(metricsServer, metricsDrainMs);
    // The last counts are written before the database goes away.
    await usage.close();
    await purger?.close();
    await readModel.close();
    // Gracefully when the service ran (its last writes are sent); a failed start just lets go.
    if (redis) await (drainMs > 0 ? redis.redis.quit().catch(() => redis.redis.disconnect()) : redis.redis.disconnect());
    unwatchPools?.();
    if (!options.database) await database.close();
  };
  try {
    await listenOn(server, config.HOST, config.PORT);
    if (metricsServer && metricsAddress) await listenOn(metricsServer, metricsAddress.host, metricsAddress.port, 'METRICS_PORT');
  } catch (error) {
    // Nothing else may keep the process alive: it exits with the one line of the error.
    await shutdown(0, 0);
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  publicBaseUrl ??= listeningBaseUrl(config.HOST, port);
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const url = `http://${host}:${port}/graphQL`;
  if (database.poolStats) unwatchPools = watchPools(database.poolStats);
  return {
    url,
    server,
    metricsServer,
    metricsAddress: !metricsAddress
      ? { host: config.HOST, port }
      : metricsServer
        ? { host: metricsAddress.host, port: (metricsServer.address() as AddressInfo).port }
        : metricsAddress,
    database,
    logger,
    flushUsage: () => usage.flush(),
    replaceSchema: replaceable
      ? (next) => {
          getEnveloped = pipelineOf(next.schema);
          // Answers of the replaced schema (its fields, its resolvers' code) are never served again, from this
          // process or from Redis (keys of their own: the SDL may be the same, the code not).
          replacements += 1;
          responseCache = newResponseCache(`${namespace}:replaced-${replacements}`);
          served = next;
          declareDeprecatedCoordinates(deprecatedCoordinates(next.schema));
        }
      : undefined,
    close: async () => {
      shuttingDown = true;
      await shutdown(5000, 1000, config.SHUTDOWN_DELAY_MS);
    },
  };
}

/**
 * An empty calendar at start: the embedded database (the quick start) gets the demo calendar, a
 * PostgreSQL only when DEMO_EVENTS asks for it; otherwise one line says how to load one.
 */
async function seedOrSayEmpty(config: Config, database: DatabaseHandle, logger: Logger, clock: () => Date, seedWhenEmpty: boolean): Promise<void> {
  if (!seedWhenEmpty) return;
  const demoEvents = config.DEMO_EVENTS ?? (config.DATABASE_URL ? 0 : DEFAULT_DEMO_EVENTS);
  // Never on a read-only database (a replica): it could not be written, and the primary seeds its own.
  if (demoEvents > 0 && !database.readOnly) {
    // Loaded only when asked for: the demo generator is large and tests never seed.
    const { seedDemoCalendarIfEmpty } = await import('./demo/seed-if-empty.js');
    const seeded = await seedDemoCalendarIfEmpty(database, { events: demoEvents, today: clock() }).catch((error: unknown) => {
      throw seedFailure(error);
    });
    if (seeded) logger.info({ events: seeded.events }, 'database was empty: seeded the demo calendar');
    return;
  }
  const anyEvent = await database.readDb.selectFrom('events').select('id').limit(1).executeTakeFirst();
  if (!anyEvent) {
    logger.info(
      'the calendar is empty: load one with `calendar import FILE` (docs/import-format.md); `calendar seed` or DEMO_EVENTS=N loads the demo calendar',
    );
  }
}

/** The CDN purger when the settings name somewhere to purge (docs/cdn.md#purging-on-import). */
function cdnPurgerOf(config: Config, database: DatabaseHandle, logger: Logger, retry: StartOptions['cdnPurgeRetry']): CdnPurger | undefined {
  const targets = purgeTargetsOf(config);
  if (targets.length === 0) return undefined;
  // Claims are writes: a read-only database has none, and the primary's nodes purge.
  if (database.readOnly) {
    logger.warn('the database of DATABASE_URL is read-only: this node does not purge the CDN (nodes on the primary do)');
    return undefined;
  }
  return new CdnPurger({ db: database.db, targets, logger, retryWindowMs: retry?.windowMs, firstRetryDelayMs: retry?.firstDelayMs });
}

/** /ready: the database answers within a second, its schema is not older than this code, and the read model is built. */
async function readiness(database: DatabaseHandle, readModel: ReadModel): Promise<Readiness> {
  const probe = await database.probe();
  if (!probe.reachable) return { ready: false, database: 'unreachable', schema: 'unknown', reason: 'the database does not answer' };
  const latest = probe.latestMigration;
  if (latest === undefined || latest < LATEST_MIGRATION) {
    return { ready: false, database: 'reachable', schema: 'behind', reason: 'the database schema is older than this code needs: run `calendar migrate`' };
  }
  const schemaState = latest === LATEST_MIGRATION ? 'current' : 'newer';
  if (!readModel.ready) return { ready: false, database: 'reachable', schema: schemaState, reason: 'the read model of the calendar is being built' };
  return { ready: true, database: 'reachable', schema: schemaState };
}

/**
 * A role that may not write the calendar (the serving role of docs/operating.md, "Database roles") cannot
 * seed the demo into an empty one: one line saying what to do, instead of a stack.
 */
function seedFailure(error: unknown): unknown {
  if ((error as { code?: unknown }).code !== '42501') return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StartupError(
    `The calendar holds no events, and the demo calendar cannot be seeded into it (${reason}: the role of DATABASE_URL may not ` +
      'write the calendar). Import the calendar first (`calendar import`, as the owning role), or unset DEMO_EVENTS to serve it empty.',
  );
}
