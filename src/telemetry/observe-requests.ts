import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { requestLogWriter, startRequestRecord, type RequestRecord } from './request-log.js';
import { requestMetricsWriter } from './request-metrics.js';
import { activeTracing } from './tracing.js';

export type ObserveRequest = (req: IncomingMessage, res: ServerResponse, handle: (record: RequestRecord) => Promise<void>) => void;

/**
 * What the HTTP server does around each request: the request id and access-log line, its count and
 * duration in the metrics (GET /metrics), and, when
 * tracing was started before the server was built, the request's span. The choice is made here,
 * once, so a service without tracing runs no tracing code per request. The log line and the metrics
 * are written by one 'close' listener (every request pays for each listener it adds).
 */
export function observeRequests(logger: Logger): ObserveRequest {
  const writeLog = requestLogWriter(logger);
  const writeMetrics = requestMetricsWriter();
  const tracing = activeTracing();
  return (req, res, handle) => {
    const started = performance.now();
    const record = startRequestRecord(req);
    res.on('close', () => {
      writeLog(req, res, record, started);
      writeMetrics(req, res, record, started);
    });
    if (tracing) void tracing.traceRequest(req, res, record, () => handle(record));
    else void handle(record);
  };
}
