import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { sendHealth } from './health.js';
import { sendMetrics, type MetricsSource } from './metrics-route.js';
import { sendMethodNotAllowed, sendRequestError } from './respond.js';
import { RequestTarget } from '../request-target.js';

export interface MetricsServerOptions {
  /** What GET /metrics answers: this process's registry, or (a cluster's primary) the node's. */
  metrics: MetricsSource;
  logger: Logger;
}

/** Prometheus and a probe or two: a handful of connections at once, never thousands. */
const MAX_CONNECTIONS = 64;

/**
 * METRICS_PORT's listener, off the API's port (docs/operating.md, "Metrics: what to watch"):
 * GET and HEAD `/metrics`, with the body and content type the API's port gave before, and
 * `/health`, the liveness of the process that answers (a sidecar's probe; never the database).
 * Anything else is 404, another method 405, in the API's error shape.
 *
 * None of the API's request path: no fair queue or load shedding (a scrape is answered however busy
 * the executions are), no CORS (no page has business here), no response cache, no access log or
 * request metrics (Prometheus records each scrape itself: `up`, `scrape_duration_seconds`).
 */
export function createMetricsServer(options: MetricsServerOptions): Server {
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const target = new RequestTarget(req.url);
    const path = target.path;
    const name = target.route?.name;
    if (name !== 'metrics' && name !== 'health') {
      return sendRequestError(res, `No route for ${req.method} ${path}. This port answers GET /metrics and /health only.`, 'NOT_FOUND', 404);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, 'GET, HEAD');
    if (name === 'health') return sendHealth(res);
    return sendMetrics(res, options.logger, options.metrics);
  };
  const server = createServer(
    // The API's limits on slow clients, tighter: a scrape's request is a few hundred bytes.
    { requestTimeout: 10_000, headersTimeout: 10_000, keepAliveTimeout: 5000, connectionsCheckingInterval: 1000 },
    (req, res) => {
      // Shutting down: this connection is not kept for another request.
      if (!server.listening) res.setHeader('Connection', 'close');
      route(req, res).catch((error: unknown) => {
        options.logger.error({ err: error, url: req.url }, 'metrics request failed');
        if (!res.headersSent) sendRequestError(res, 'Internal server error: the failure has been logged.', 'INTERNAL_SERVER_ERROR', 500);
        else res.destroy();
      });
    },
  );
  server.maxConnections = MAX_CONNECTIONS;
  return server;
}
