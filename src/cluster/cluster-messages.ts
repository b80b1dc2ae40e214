import type { MetricObjectWithValues, MetricValue } from 'prom-client';

/**
 * What the primary and its workers tell each other over the cluster's IPC channel (WORKERS > 1).
 * Every type is prefixed, so messages of node:cluster itself or of a library are never mistaken
 * for ours.
 */
export type ClusterMessage =
  /** primary → worker: stop accepting, finish requests in flight, close, exit 0. */
  | { type: 'calendar:shutdown' }
  /** worker → primary: a scrape of /metrics arrived; answer with the whole service's metrics. */
  | { type: 'calendar:metrics-request'; id: number }
  /** primary → worker: the answer to its metrics-request. */
  | { type: 'calendar:metrics-response'; id: number; text?: string; error?: string }
  /** primary → worker: send your own metrics. */
  | { type: 'calendar:metrics-collect'; id: number }
  /** worker → primary: its metrics, as prom-client's JSON. */
  | { type: 'calendar:metrics-collected'; id: number; metrics: MetricObjectWithValues<MetricValue<string>>[] };

export function isClusterMessage(message: unknown): message is ClusterMessage {
  return typeof message === 'object' && message !== null && typeof (message as { type?: unknown }).type === 'string' && (message as { type: string }).type.startsWith('calendar:');
}
