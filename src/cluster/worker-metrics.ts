import { metricsRegistry } from '../telemetry/metrics.js';
import { isClusterMessage, type ClusterMessage } from './cluster-messages.js';

/** A scrape waits this long for the primary's answer (which itself waits for every worker). */
const ANSWER_TIMEOUT_MS = 4000;

// Process-wide: a worker has one channel to the primary (process.send and 'message'): the scrapes waiting
// for its answers, and whether this process listens on it yet.
let nextId = 1;
const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
let listening = false;

/**
 * In a cluster worker: answers the primary's requests for this worker's metrics, and routes the
 * primary's answers to scrapes waiting here. Installed once, first thing in a worker, so a scrape
 * that reaches the primary while this worker still starts is answered rather than waited for.
 */
export function answerMetricsCollection(): void {
  if (listening) return;
  listening = true;
  process.on('message', (message: unknown) => {
    if (!isClusterMessage(message)) return;
    if (message.type === 'calendar:metrics-collect') {
      void metricsRegistry.getMetricsAsJSON().then((metrics) => send({ type: 'calendar:metrics-collected', id: message.id, metrics }));
    } else if (message.type === 'calendar:metrics-response') {
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (!pending) return;
      if (message.text !== undefined) pending.resolve(message.text);
      else pending.reject(new Error(message.error ?? 'the primary sent no metrics'));
    }
  });
}

function send(message: ClusterMessage): void {
  // The primary may be gone (this worker is about to exit with it): nothing to answer.
  if (process.connected) process.send?.(message);
}

/** The whole service's metrics, added up by the primary over every worker (src/cluster/primary-metrics.ts). */
export function clusterMetricsText(): Promise<string> {
  answerMetricsCollection();
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error(`the primary did not answer within ${ANSWER_TIMEOUT_MS} ms`));
    }, ANSWER_TIMEOUT_MS);
    waiting.set(id, {
      resolve: (text) => {
        clearTimeout(timer);
        resolve(text);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    send({ type: 'calendar:metrics-request', id });
  });
}
