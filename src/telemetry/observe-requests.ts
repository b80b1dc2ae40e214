import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { startRequestLog, type RequestRecord } from './request-log.js';
import { startRequestMetrics } from './request-metrics.js';
import { activeTracing } from './tracing.js';

export type ObserveRequest = (req: IncomingMessage, res: ServerResponse, handle: (record: RequestRecord) => Promise<void>) => void;

/**
 * What the HTTP server does around each request: the request id and access-log line, its count and
 * duration in the metrics (GET /metrics), and, when
 * tracing was started before the server was built, the request's span. The choice is made here,
 * once, so a service without tracing runs no tracing code per request.
 */
export function observeRequests(logger: Logger): ObserveRequest {
  const startLog = startRequestLog(logger);
  const countRequest = startRequestMetrics();
  const tracing = activeTracing();
  if (!tracing) {
    return (req, res, handle) => {
      const record = startLog(req, res);
      countRequest(req, res, record);
      void handle(record);
    };
  }
  return (req, res, handle) => {
    const record = startLog(req, res);
    countRequest(req, res, record);
    void tracing.traceRequest(req, res, record, () => handle(record));
  };
}
