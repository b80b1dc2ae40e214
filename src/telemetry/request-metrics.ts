import type { IncomingMessage, ServerResponse } from 'node:http';
import { observeRequest } from './metrics.js';
import { createOperationLabeler } from './operation-label.js';
import type { RequestRecord } from './request-log.js';

/**
 * Counts a request and its duration when its response is done (or the connection closed first: no
 * status then, labelled `aborted`), by route, GraphQL operation and status; telemetry/observe-requests.ts
 * calls it then.
 */
export function requestMetricsWriter(): (req: IncomingMessage, res: ServerResponse, record: RequestRecord, started: number) => void {
  const operationLabel = createOperationLabeler();
  return (req, res, record, started) => {
    // A fixed set (src/route-table.ts), never the path: paths are caller-chosen, and a 404 scan would add a series per probe.
    const route = record.target.route?.name ?? 'other';
    const status = res.headersSent ? String(res.statusCode) : 'aborted';
    const operation = route === 'graphql' ? operationLabel(record.operationName) : '';
    observeRequest({ route, operation, status }, (performance.now() - started) / 1000);
  };
}
