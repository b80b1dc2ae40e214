import path from 'node:path';
import type { RunningService } from '../app.js';
import type { Config } from '../config.js';
import { defineCommand } from './command.js';
import { exactOperands } from './command-line.js';

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
        }
      : {
          kind: 'pglite',
          dataDir: config.CALENDAR_DATA_DIR === 'memory://' ? 'memory://' : path.resolve(config.CALENDAR_DATA_DIR),
          schema: service.database.schema,
        };
  return {
    url: service.url,
    host: config.HOST,
    port,
    database,
    cache: config.REDIS_URL ? { kind: 'redis', url: withoutPassword(config.REDIS_URL) } : { kind: 'memory' },
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    maxInFlightRequests: config.MAX_IN_FLIGHT_REQUESTS,
    http: {
      requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: config.HTTP_MAX_CONNECTIONS,
    },
    tracing: tracing ?? 'off',
    logLevel: config.LOG_LEVEL,
    node: process.version,
    pid: process.pid,
  };
}

/** `calendar serve`: runs the API until SIGINT/SIGTERM (what `npm start` does). */
export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'run the API (migrates, seeds the demo calendar into an empty database)',
  description: `
Runs the API until SIGINT or SIGTERM, then closes it and exits with status 0. At start it
migrates the database and seeds the demo calendar (DEMO_EVENTS events) into a database without
events, then prints "... listening on <url>" on stdout. Configured by environment variables
(PORT, HOST, DATABASE_URL, CALENDAR_DATA_DIR, LOG_LEVEL, OTEL_*, ...: README.md, Configuration).
Logs are JSON lines on stderr: one at start, one per request, two at shutdown (docs/operating.md).`,
  options: {},
  parse: (line) => {
    exactOperands(line, []);
  },
  async run() {
    const started = Date.now();
    const { readConfig } = await import('../config.js');
    const { createLogger } = await import('../logger.js');
    const { startTracing, stopTracing, tracesEndpoint } = await import('../telemetry/tracing.js');
    const { startService } = await import('../app.js');
    const { describeDatabaseUrl } = await import('../db/open-database.js');
    const config = readConfig();
    const logger = createLogger(config.LOG_LEVEL);
    // Before the service: the HTTP server, the GraphQL pipeline and the database are traced only
    // when tracing exists by the time they are built.
    const tracing = await startTracing(config, { logger });
    let service: RunningService;
    try {
      service = await startService(config, { logger });
    } catch (error) {
      await stopTracing();
      throw error;
    }
    const readyMs = Date.now() - started;
    logger.info({ ...startupFields(config, service, tracing ? tracesEndpoint(config) : null, describeDatabaseUrl), readyMs }, 'service started');
    process.stdout.write(`Event calendar API listening on ${service.url} (${service.database.driver}, ready in ${readyMs} ms)\n`);
    const stop = (signal: NodeJS.Signals) => {
      const stopping = Date.now();
      logger.info({ signal }, 'shutting down: finishing requests in flight (5 s at most), then closing the database');
      service
        .close()
        .then(() => stopTracing())
        .then(
          () => {
            logger.info({ durationMs: Date.now() - stopping }, 'stopped');
            process.exit(0);
          },
          (error: unknown) => {
            logger.error({ err: error }, 'stopping failed');
            process.stderr.write(`calendar serve: stopping failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
            process.exit(1);
          },
        );
    };
    // Once each: a second Ctrl-C while closing ends the process at once (Node's default).
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1;
  },
});
