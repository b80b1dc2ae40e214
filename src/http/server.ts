import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { GetEnveloped } from '../plugins/get-enveloped.js';
import { answerPreflight, CORS_HEADERS } from './cors.js';
import { ServiceResponse } from './service-response.js';
import { GraphQLRoute } from './graphql-route.js';
import { NO_RESPONSE_CACHE, type ResponseCache } from './answer-cache/response-cache.js';
import type { CallerBudgets } from '../identity/caller-budgets.js';
import type { CallerIdentity } from '../identity/caller-identity.js';
import type { UsageRecorder } from '../identity/usage-recorder.js';
import { ResponsePolicies } from './response-policy.js';
import { DeprecatedUses } from '../schema/deprecated-uses.js';
import type { SharedCaches } from './shared-caches.js';
import { sendHealth, sendReadiness, type Readiness } from './health.js';
import { sendMetrics, type MetricsSource } from './metrics-route.js';
import { FairExecutions } from './fair-executions.js';
import { DEFAULT_EXECUTION_SLOTS } from '../config.js';
import { watchExecutionQueue } from '../telemetry/metrics.js';
import { prefersHtml } from './negotiate.js';
import type { PersistedQueryStore } from './persisted-queries.js';
import { sendMethodNotAllowed, sendRequestError } from './respond.js';
import { sendSandboxAsset, sendSandboxPage } from './sandbox.js';
import { handleWidget } from './widget-route.js';
import { handleIcsFeed, type IcsFeedOptions } from './ics-feed-route.js';
import { sendDemoPicture } from './demo-pictures.js';
import { createLatestSchemaFileHandler, createSchemaFileHandler } from './schema-file.js';
import { SCHEMA_FILE_PATH } from '../route-table.js';
import { observeRequests } from '../telemetry/observe-requests.js';
import type { RequestRecord } from '../telemetry/request-log.js';

export interface HttpServerOptions {
  getEnveloped: GetEnveloped;
  persistedQueries: PersistedQueryStore;
  /** The SDL the executable schema was built from, published at /schema.graphql (a function: the SDL of now, when the schema can be replaced). */
  schemaSource: string | (() => string);
  logger: Logger;
  /** Whether the service can answer now (for /ready); must itself answer within about a second. */
  checkReady: () => Promise<Readiness>;
  /** What GET /metrics answers on this server. @default none: /metrics is no route here (404), METRICS_PORT's listener serves it */
  metrics?: MetricsSource | undefined;
  /** Largest accepted request body in bytes. @default 102400 */
  maxBodyBytes?: number | undefined;
  /** GraphQL executions running and waiting for their turn; more are answered 503 at once. @default 200 */
  maxInFlight?: number | undefined;
  /** Executions running and waiting of one caller (a key, or an address); more are answered 429. @default maxInFlight (no limit of its own) */
  maxInFlightPerCaller?: number | undefined;
  /** Executions at once; the others wait in per-caller queues served in turn. @default DEFAULT_EXECUTION_SLOTS (2) */
  executionSlots?: number | undefined;
  /** Longest a GraphQL execution may take before its request is answered 503. @default 6000 */
  executionTimeoutMs?: number | undefined;
  /** Longest a client may take to send a whole request; headers get at most 10 s of it. @default 30000 */
  requestTimeoutMs?: number | undefined;
  /** Idle time before a kept-alive connection is closed. @default 5000 */
  keepAliveTimeoutMs?: number | undefined;
  /** Open connections at most; more are refused. @default 10000 */
  maxConnections?: number | undefined;
  /** The response cache, in front of the GraphQL pipeline and the feed. @default NO_RESPONSE_CACHE (every request executes) */
  responseCache?: ResponseCache | undefined;
  /** What public answers tell CDNs (tags, outdated answers). @default no tags, never outdated */
  sharedCaches?: SharedCaches | undefined;
  /** How long answers may be shared, from the executed document. @default RESPONSE_TTL_MS per root field */
  policies?: ResponsePolicies | undefined;
  /** What GET /events.ics reads (docs/feeds.md); the response cache is `responseCache`. @default none (no feed route) */
  icsFeed?: Omit<IcsFeedOptions, 'responseCache'> | undefined;
  /** Resolves the caller of each request, once, at the edge. */
  identity: CallerIdentity;
  /** Counts requests per caller, and their uses of deprecated coordinates. @default none */
  usage?: UsageRecorder | undefined;
  /** Finds the deprecated parts of the schema each executed operation used (usage and /metrics count them). @default one of its own */
  deprecations?: DeprecatedUses | undefined;
  /** Budgets per caller, charged for GraphQL executions. @default none (the spec's "no rate limit") */
  budgets?: CallerBudgets | undefined;
}

/**
 * HTTP: HEAD is allowed wherever GET is (monitors and CDNs use it). Routes answer it as GET; Node
 * leaves out the body of a response to HEAD and keeps its status and headers.
 */
const isGetOrHead = (req: IncomingMessage) => req.method === 'GET' || req.method === 'HEAD';

/** Routes requests; each concern lives in its own module. */
export function createHttpServer(options: HttpServerOptions): Server {
  const sendSchemaFile =
    typeof options.schemaSource === 'string' ? createSchemaFileHandler(options.schemaSource) : createLatestSchemaFileHandler(options.schemaSource);
  const executionTimeoutMs = options.executionTimeoutMs ?? 6000;
  const executions = new FairExecutions({
    slots: options.executionSlots ?? DEFAULT_EXECUTION_SLOTS,
    maxWaitingAndRunning: options.maxInFlight ?? 200,
    maxPerCaller: options.maxInFlightPerCaller ?? options.maxInFlight ?? 200,
    maxWaitMs: executionTimeoutMs,
  });

  const responseCache = options.responseCache ?? NO_RESPONSE_CACHE;
  // A feed's caller, for its share of executions: its address, or its key.
  const shareOf = (req: IncomingMessage) => options.identity.callerOf({ headers: req.headers, socketAddress: req.socket.remoteAddress });
  // Its per-server parts bound once, here: a request brings only itself.
  const graphQLRoute = new GraphQLRoute({
    getEnveloped: options.getEnveloped,
    persistedQueries: options.persistedQueries,
    logger: options.logger,
    maxBodyBytes: options.maxBodyBytes,
    executions,
    executionTimeoutMs,
    responseCache,
    policies: options.policies ?? new ResponsePolicies(),
    sharedCaches: options.sharedCaches,
    identity: options.identity,
    usage: options.usage,
    deprecations: options.deprecations ?? new DeprecatedUses(),
    budgets: options.budgets,
  });
  const metrics = options.metrics;
  const notFound = (req: IncomingMessage, res: ServerResponse, path: string) =>
    sendRequestError(res, `No route for ${req.method} ${path}. The API is at /graphQL (GET or POST); the schema at ${SCHEMA_FILE_PATH}.`, 'NOT_FOUND', 404);

  const route = async (req: IncomingMessage, res: ServiceResponse, record: RequestRecord) => {
    // On every answer, written with the route's headers in one go (service-response.ts).
    res.everyAnswer = { ...CORS_HEADERS, 'X-Request-Id': record.id };
    const target = record.target;
    const path = target.path;
    if (req.method === 'OPTIONS') return answerPreflight(req, res);

    switch (target.route?.name) {
      case 'graphql':
        if (isGetOrHead(req) && prefersHtml(req)) return sendSandboxPage(res);
        if (!isGetOrHead(req) && req.method !== 'POST') return sendMethodNotAllowed(res, 'GET, HEAD, POST, OPTIONS');
        return graphQLRoute.handle(req, res, target, record);
      case 'schema':
        return isGetOrHead(req) ? sendSchemaFile(req, res) : sendMethodNotAllowed(res, 'GET, HEAD, OPTIONS');
      case 'health':
        return isGetOrHead(req) ? sendHealth(res) : sendMethodNotAllowed(res, 'GET, HEAD, OPTIONS');
      case 'ready':
        return isGetOrHead(req) ? sendReadiness(res, options.checkReady) : sendMethodNotAllowed(res, 'GET, HEAD, OPTIONS');
      case 'metrics':
        if (!metrics) break;
        return isGetOrHead(req) ? sendMetrics(res, options.logger, metrics) : sendMethodNotAllowed(res, 'GET, HEAD, OPTIONS');
      case 'sandbox':
        if (!isGetOrHead(req)) return sendMethodNotAllowed(res, 'GET, HEAD, OPTIONS');
        if (sendSandboxAsset(req, res, path)) return;
        break;
      case 'feed':
        if (!options.icsFeed) break;
        if (!isGetOrHead(req)) return sendMethodNotAllowed(res, 'GET, HEAD, OPTIONS');
        return handleIcsFeed(req, res, target.url, { ...options.icsFeed, responseCache, sharedCaches: options.sharedCaches, executions, shareOf, budgets: options.budgets, usage: options.usage });
      case 'widget':
        if (handleWidget(req, res, target.url)) return;
        break;
      case 'demo_picture':
        if (sendDemoPicture(req, res, path)) return;
        break;
      case undefined:
        break;
    }
    return notFound(req, res, path);
  };

  const observe = observeRequests(options.logger);
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const server = createServer<typeof IncomingMessage, typeof ServiceResponse>(
    {
      ServerResponse: ServiceResponse,
      // Slow clients: a request (headers within 10 s) must arrive within the request timeout, checked
      // every second rather than Node's default 30 s, so trickling sockets do not pile up.
      requestTimeout,
      headersTimeout: Math.min(10_000, requestTimeout),
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5000,
      connectionsCheckingInterval: 1000,
    },
    (req, res) => {
      // Shutting down: this connection is not kept for another request.
      if (!server.listening) res.setHeader('Connection', 'close');
      // One access-log line per request (and a span when tracing is on): telemetry/observe-requests.ts.
      observe(req, res, (record) =>
        route(req, res, record).catch((error: unknown) => {
          // The client went away while sending its body: its access-log line says "aborted"; not our failure.
          if (req.destroyed && (error as { code?: unknown }).code === 'ECONNRESET') return;
          options.logger.error({ err: error, url: req.url, reqId: record.id }, 'request failed');
          if (!res.headersSent) sendRequestError(res, 'Internal server error: the failure has been logged.', 'INTERNAL_SERVER_ERROR', 500);
          else res.destroy();
        }),
      );
    },
  );
  server.maxConnections = options.maxConnections ?? 10_000;
  // The queue's load in /metrics while this server runs.
  const unwatchExecutions = watchExecutionQueue(() => executions.load);
  server.once('close', unwatchExecutions);
  return server;
}
