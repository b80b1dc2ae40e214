import path from 'node:path';
import type { RunningService } from '../app.js';
import type { Config } from '../config.js';
import { listeningBaseUrl } from '../http/listening-base-url.js';
import { defineCommand } from './command.js';
import { exactOperands } from './command-line.js';
import { SERVICE_VERSION } from '../service-version.js';
import { missingMallocSettings, missingMallocSettingsWarning, mmapThresholdOf, runsOnGlibc, workerMallocEnv } from './malloc-settings.js';
import { allocationSitePretenuring, missingServeV8Flags, missingServeV8FlagsWarning, semiSpaceCapMb, workerExecArgv } from './serve-v8-flags.js';

/**
 * The start-up line: what the service chose from its settings, so an operator reading the log
 * knows which database, cache and limits this process runs with. Never a password.
 */
function startupFields(config: Config, service: RunningService, tracing: string | null, withoutPassword: (url: string) => string): Record<string, unknown> {
  const { port } = service.server.address() as { port: number };
  const database =
    service.database.driver === 'postgres'
      ? {
          kind: 'postgres',
          url: withoutPassword(config.DATABASE_URL ?? ''),
          schema: service.database.schema,
          poolSize: config.DATABASE_POOL_SIZE,
          acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS,
          statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
          // Where API reads go besides the primary (empty: all to DATABASE_URL).
          readReplicas: (config.DATABASE_READ_URL ?? []).map(withoutPassword),
          migrate: config.MIGRATE,
        }
      : {
          kind: 'pglite',
          dataDir: config.CALENDAR_DATA_DIR === 'memory://' ? 'memory://' : path.resolve(config.CALENDAR_DATA_DIR),
          schema: service.database.schema,
          migrate: config.MIGRATE,
        };
  const metrics = service.metricsAddress;
  return {
    url: service.url,
    host: config.HOST,
    port,
    // Where GET /metrics is answered: the API's address, or METRICS_PORT's listener (in a cluster, the primary's).
    metrics: { host: metrics.host, port: metrics.port, url: `${listeningBaseUrl(metrics.host, metrics.port)}/metrics` },
    database,
    cache: config.REDIS_URL ? { kind: 'redis', url: withoutPassword(config.REDIS_URL) } : { kind: 'memory' },
    responseCache: config.RESPONSE_CACHE,
    // Null: URLs of this service (demo pictures) are built from the listening address.
    publicBaseUrl: config.PUBLIC_BASE_URL ?? null,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    maxInFlightRequests: config.MAX_IN_FLIGHT_REQUESTS,
    http: {
      requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: config.HTTP_MAX_CONNECTIONS,
    },
    tracing: tracing ?? 'off',
    logLevel: config.LOG_LEVEL,
    release: SERVICE_VERSION,
    node: process.version,
    // The young generation's semi-space cap (MB), null when V8 sizes it itself (serve-v8-flags.ts says why 8).
    semiSpaceCapMb: semiSpaceCapMb(),
    // Off unless the operator turned it on (serve-v8-flags.ts says why).
    allocationSitePretenuring: allocationSitePretenuring(),
    // glibc's mmap threshold (bytes) when fixed, null when sliding (malloc-settings.ts says why 131072); absent off glibc.
    ...(runsOnGlibc() ? { mallocMmapThreshold: mmapThresholdOf() } : {}),
    pid: process.pid,
  };
}

/** `calendar serve`: runs the API until SIGINT/SIGTERM (what `npm start` does). */
export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'run the API (migrates; the demo calendar into an empty embedded database)',
  description: `
Runs the API until SIGINT or SIGTERM, then closes it and exits with status 0. At start it
migrates the database and, on the embedded database (no DATABASE_URL), seeds the demo calendar
into one without events (DEMO_EVENTS events, 2000 when unset; a PostgreSQL only when DEMO_EVENTS is
set), then prints "... listening on <url>" on stdout. Configured by environment variables
(PORT, HOST, DATABASE_URL, CALENDAR_DATA_DIR, LOG_LEVEL, OTEL_*, ...: README.md, Configuration).
Logs are JSON lines on stderr: one at start, one per request, two at shutdown (docs/operating.md).
WORKERS=N (or auto: one per core) runs N worker processes behind the one port, each a whole
service with its own pool; a worker that dies is replaced, and SIGTERM drains them all. More than
one needs DATABASE_URL. Metrics of the whole service: GET /metrics (Prometheus text format),
on a listener of its own when METRICS_PORT is set (the API's port then answers it 404).`,
  options: {},
  parse: (line) => {
    exactOperands(line, []);
  },
  async run() {
    const { default: cluster } = await import('node:cluster');
    const started = Date.now();
    const { readConfig } = await import('../config.js');
    const { createLogger } = await import('../logger.js');
    const config = readConfig();
    if (cluster.isPrimary) {
      // WORKERS > 1: this process only holds the port and looks after the workers (src/cluster/run-primary.ts).
      const { workerCount } = await import('../cluster/worker-count.js');
      const workers = workerCount(config);
      if (workers > 1) {
        const { runPrimary } = await import('../cluster/run-primary.js');
        return runPrimary({ config, workers, logger: createLogger(config.LOG_LEVEL), started, workerExecArgv: workerExecArgv(), workerEnv: workerMallocEnv() });
      }
    }
    const worker = cluster.worker;
    if (worker) {
      // Ctrl-C reaches every process of the terminal's group: the primary alone decides, and tells the workers.
      process.on('SIGINT', () => undefined);
      const { answerMetricsCollection } = await import('../cluster/worker-metrics.js');
      answerMetricsCollection();
    }
    const { startTracing, stopTracing, tracesEndpoint } = await import('../telemetry/tracing.js');
    const { startService } = await import('../app.js');
    const { describeDatabaseUrl } = await import('../db/open-database.js');
    // In a cluster every line says which worker wrote it.
    const logger = worker ? createLogger(config.LOG_LEVEL).child({ worker: worker.id }) : createLogger(config.LOG_LEVEL);
    // Before the service: the HTTP server, the GraphQL pipeline and the database are traced only
    // when tracing exists by the time they are built.
    const tracing = await startTracing(config, { logger });
    let service: RunningService;
    try {
      service = await startService(config, { logger, clusterWorker: worker !== undefined });
    } catch (error) {
      await stopTracing();
      throw error;
    }
    const readyMs = Date.now() - started;
    // Once the service runs (a start that fails says only why): a worker has its primary's flags and never warns.
    const missing = missingServeV8Flags();
    if (missing.length > 0) logger.warn({ missingV8Flags: missing }, missingServeV8FlagsWarning(missing));
    const missingMalloc = missingMallocSettings();
    if (missingMalloc.length > 0) logger.warn({ missingEnvironment: missingMalloc }, missingMallocSettingsWarning(missingMalloc));
    logger.info({ ...startupFields(config, service, tracing ? tracesEndpoint(config) : null, describeDatabaseUrl), readyMs }, 'service started');
    // A worker's primary prints the one line for the whole cluster.
    if (!worker) process.stdout.write(`Event calendar API listening on ${service.url} (${service.database.driver}, ready in ${readyMs} ms)\n`);
    let stopping = false;
    const stop = (signal: NodeJS.Signals | 'primary') => {
      // A worker can be told twice (the primary's message, and a SIGTERM sent to the whole group).
      if (stopping) return;
      stopping = true;
      const since = Date.now();
      // SHUTDOWN_DELAY_MS: the port keeps answering, /ready at 503, before the drain (shutdown-http-server.ts).
      const delay = config.SHUTDOWN_DELAY_MS > 0 ? `answering with /ready at 503 for ${config.SHUTDOWN_DELAY_MS / 1000} s, then ` : '';
      logger.info({ signal }, `shutting down: ${delay}finishing requests in flight (5 s at most), then closing the database`);
      service
        .close()
        .then(() => stopTracing())
        .then(
          () => {
            logger.info({ durationMs: Date.now() - since }, 'stopped');
            process.exit(0);
          },
          (error: unknown) => {
            logger.error({ err: error }, 'stopping failed');
            process.stderr.write(`calendar serve: stopping failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
            process.exit(1);
          },
        );
    };
    if (worker) {
      const { isClusterMessage } = await import('../cluster/cluster-messages.js');
      process.on('message', (message: unknown) => {
        if (isClusterMessage(message) && message.type === 'calendar:shutdown') stop('primary');
      });
      // SIGTERM to one worker alone drains and stops that one; the primary starts another.
      process.once('SIGTERM', stop);
      return -1;
    }
    // Once each: a second Ctrl-C while closing ends the process at once (Node's default).
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1;
  },
});
