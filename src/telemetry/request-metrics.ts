import type { IncomingMessage, ServerResponse } from 'node:http';
import { observeRequest } from './metrics.js';
import { createOperationLabeler } from './operation-label.js';
import type { RequestRecord } from './request-log.js';

/**
 * The route label: a fixed set, never the path itself (paths are caller-chosen, and a 404 scan
 * would add a series per probe).
 */
function routeOf(path: string): string {
  if (path === '/graphQL' || path === '/graphql') return 'graphql';
  if (path === '/health' || path === '/ready' || path === '/metrics') return path.slice(1);
  if (path === '/schema.graphql') return 'schema';
  if (path.startsWith('/sandbox/')) return 'sandbox';
  if (path === '/widget' || path.startsWith('/widget/')) return 'widget';
  return 'other';
}

/**
 * Counts a request and its duration when its response is done (or the connection closed first: no
 * status then, labelled `aborted`), by route, GraphQL operation and status; telemetry/observe-requests.ts
 * calls it then.
 */
export function requestMetricsWriter(): (req: IncomingMessage, res: ServerResponse, record: RequestRecord, started: number) => void {
  const operationLabel = createOperationLabeler();
  return (req, res, record, started) => {
    const route = routeOf((req.url ?? '/').split('?', 1)[0]!);
    const status = res.headersSent ? String(res.statusCode) : 'aborted';
    const operation = route === 'graphql' ? operationLabel(record.operationName) : '';
    observeRequest({ route, operation, status }, (performance.now() - started) / 1000);
  };
}
