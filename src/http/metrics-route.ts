import type { ServerResponse } from 'node:http';
import { Registry } from 'prom-client';
import type { Logger } from '../logger.js';
import { sendRequestError } from './respond.js';

/**
 * What a scrape reads: in a single process, this process's registry; in a cluster, the whole node's,
 * added up by the primary (src/cluster/primary-metrics.ts), so whichever process answers, it
 * describes every worker.
 */
export type MetricsSource = () => Promise<string>;

/**
 * GET /metrics: Prometheus' text format (docs/operating.md, "What to watch"), which every registry
 * here writes (a process's own, and the primary's sum of its workers'). Never cached: each scrape
 * is a reading of now.
 */
export async function sendMetrics(res: ServerResponse, logger: Logger, read: MetricsSource): Promise<void> {
  let text: string;
  try {
    text = await read();
  } catch (error) {
    logger.warn({ err: error }, 'metrics could not be gathered');
    return sendRequestError(res, 'The metrics could not be gathered now; try again.', 'SERVICE_UNAVAILABLE', 503, { headers: { 'Retry-After': '5' } });
  }
  res.writeHead(200, {
    'Content-Type': Registry.PROMETHEUS_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}
