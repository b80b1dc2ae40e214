import cluster from 'node:cluster';
import type { ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { clusterMetricsText } from '../cluster/worker-metrics.js';
import { localMetricsText, METRICS_CONTENT_TYPE } from '../telemetry/metrics.js';
import { sendRequestError } from './respond.js';

/**
 * GET /metrics: Prometheus' text format (docs/operating.md, "What to watch"). In a single process,
 * this process's registry; in a cluster worker, the whole node's, added up by the primary
 * (src/cluster/primary-metrics.ts), so whichever worker a scrape reaches, it sees every worker.
 * Never cached: each scrape is a reading of now.
 */
export async function sendMetrics(res: ServerResponse, logger: Logger): Promise<void> {
  let text: string;
  try {
    text = cluster.isWorker ? await clusterMetricsText() : await localMetricsText();
  } catch (error) {
    logger.warn({ err: error }, 'metrics could not be gathered');
    return sendRequestError(res, 'The metrics could not be gathered now; try again.', 'SERVICE_UNAVAILABLE', 503, { headers: { 'Retry-After': '5' } });
  }
  res.writeHead(200, {
    'Content-Type': METRICS_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}
