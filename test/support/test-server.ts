import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SelectQueryNode, TableNode, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { startService, type RunningService, type StartOptions } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import type { Logger } from '../../src/logger.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { createTestDatabase } from './test-database.js';
import { timedPhase } from './phase-timings.js';

export interface TestServer {
  /** `http://127.0.0.1:<port>/graphQL` */
  url: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  service: RunningService;
  database: DatabaseHandle;
  cacheNamespace: string;
  /** SQL statements the service has sent to the database so far, its data-version poll left out. */
  queryCount(): number;
  close(): Promise<void>;
}

export interface TestServerOptions
  extends Pick<StartOptions, 'apiKeyCacheTtlMs' | 'usageFlushIntervalMs' | 'jit' | 'dataVersionPollMs' | 'responseTtlMs' | 'readModelRereadMs' | 'cdnPurgeRetry' | 'replaceableSchema' | 'trustedDocuments'> {
  /** Import file loaded before the server starts. */
  calendar?: unknown;
  /** "Now" of the service. @default the wall clock */
  clock?: () => Date;
  /** `redis://…` for the shared cache and persisted queries. @default process.env.REDIS_URL (unset: in memory) */
  redisUrl?: string;
  /** Cache key prefix; two servers given the same one share Redis entries. @default a random one */
  cacheNamespace?: string;
  /** Serve this database instead of a fresh one (a second server over the same data). */
  database?: DatabaseHandle;
  /** Where the service logs. @default nowhere (LOG_LEVEL silent) */
  logger?: Logger;
  /** Further settings, as environment variables (`CDN_TAG_HEADER`, ...). */
  env?: Record<string, string>;
}

/**
 * Counts the statements sent through the Kysely instance it is attached to, but the read model's
 * data-version poll (`select version from calendar_state`, on a timer): a test that counts what one
 * request sent must not depend on whether the poll fell inside its window.
 */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (!isDataVersionPoll(args.node)) this.count += 1;
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

function isDataVersionPoll(node: RootOperationNode): boolean {
  if (!SelectQueryNode.is(node) || node.joins || node.where || node.from?.froms.length !== 1) return false;
  const from = node.from.froms[0]!;
  return TableNode.is(from) && from.table.identifier.name === 'calendar_state';
}

/**
 * The whole service on a free port over a fresh database (PGlite, or a new schema on the
 * PostgreSQL of DATABASE_URL), with its own cache namespace so test files never share answers.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase());
  try {
    return await startOn(database, ownDatabase, options);
  } catch (error) {
    // A service that does not start (a setting it refuses, say) leaves no schema behind on PostgreSQL.
    if (ownDatabase) await database.close();
    throw error;
  }
}

async function startOn(database: DatabaseHandle, ownDatabase: boolean, options: TestServerOptions): Promise<TestServer> {
  if (options.calendar) await timedPhase('calendar import', () => importCalendar(database, options.calendar));
  const redisUrl = options.redisUrl ?? process.env['REDIS_URL'];
  const cacheNamespace = options.cacheNamespace ?? `test:${randomBytes(6).toString('hex')}`;
  const counter = new QueryCounter();
  const countedDb = database.db.withPlugin(counter);
  // Reads go to `readDb` (the same database here, unless it has replicas): counted too.
  const counted: DatabaseHandle = { ...database, db: countedDb, readDb: database.readDb === database.db ? countedDb : database.readDb.withPlugin(counter) };
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    // The suites run with full builds too: READ_MODEL_LAYERED=off in the environment of vitest.
    ...(process.env['READ_MODEL_LAYERED'] ? { READ_MODEL_LAYERED: process.env['READ_MODEL_LAYERED'] } : {}),
    ...options.env,
  });
  const service = await timedPhase('service start', () => startService(config, {
    database: counted,
    seedWhenEmpty: false,
    clock: options.clock,
    cacheNamespace,
    apiKeyCacheTtlMs: options.apiKeyCacheTtlMs,
    usageFlushIntervalMs: options.usageFlushIntervalMs,
    jit: options.jit,
    dataVersionPollMs: options.dataVersionPollMs,
    responseTtlMs: options.responseTtlMs,
    readModelRereadMs: options.readModelRereadMs,
    // The suite's own heap is not the service's: the collections are tested in read-model and serve processes.
    releaseReplacedBuilds: false,
    cdnPurgeRetry: options.cdnPurgeRetry,
    replaceableSchema: options.replaceableSchema,
    trustedDocuments: options.trustedDocuments,
    logger: options.logger,
  }));
  return {
    url: service.url,
    origin: new URL(service.url).origin,
    service,
    database,
    cacheNamespace,
    queryCount: () => counter.count,
    close: async () => {
      await service.close();
      if (ownDatabase) await database.close();
      // Persisted queries live for days in Redis: leave nothing behind.
      if (redisUrl && !options.cacheNamespace) await deleteRedisKeys(redisUrl, `${cacheNamespace}:*`);
    },
  };
}

async function deleteRedisKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(pattern);
    if (keys.length > 0) await redis.del(keys);
  } catch {
    // Redis gone: nothing to clean.
  } finally {
    redis.disconnect();
  }
}

/** Whether something answers on host:port (Redis for the cache tests). */
export async function isReachable(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  /** Parsed body (undefined for an empty one). */
  body: GraphQLBody;
}

export interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  extensions?: Record<string, unknown>;
}

async function toJson(response: Response): Promise<JsonResponse> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as GraphQLBody) };
}

/** POST /graphQL with a JSON body. */
export async function postGraphQL(url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> {
  return toJson(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }));
}

/** GET /graphQL with URL parameters (objects are JSON-encoded) and the CSRF header unless told otherwise. */
export async function getGraphQL(
  url: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = { 'service-require-preflight': 'true' },
): Promise<JsonResponse> {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) target.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return toJson(await fetch(target, { headers }));
}
