import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, Counter, Gauge, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { Logger } from '../logger.js';
import { isClusterMessage, type ClusterMessage } from './cluster-messages.js';

/** A worker that has not sent its metrics by then is left out of that scrape (it is busy or stuck). */
const COLLECT_TIMEOUT_MS = 2000;

type WorkerMetrics = MetricObjectWithValues<MetricValue<string>>[];

/**
 * The primary's part of /metrics with WORKERS > 1. A scrape reaches one worker (the primary hands
 * connections out in turn); that worker asks the primary, which asks every running worker for its
 * registry, adds them up with prom-client's AggregatorRegistry (each metric's `aggregator`: sums
 * for counts, the minimum for the data version, ...) and adds its own: workers running, restarts,
 * and how many workers this answer covers. So any scrape describes the whole node.
 */
export class PrimaryMetrics {
  readonly registry = new Registry();
  private nextId = 1;
  private readonly collecting = new Map<number, (worker: Worker, metrics: WorkerMetrics) => void>();
  private readonly restarts = new Counter({
    name: 'calendar_cluster_worker_restarts_total',
    help: 'Workers that died and were started again by the primary.',
    registers: [this.registry],
  });
  private readonly reporting = new Gauge({
    name: 'calendar_cluster_workers_reporting',
    help: 'Workers whose metrics are added up in this answer (fewer than calendar_cluster_workers: one was busy for over 2 s, or starting).',
    registers: [this.registry],
  });
  private readonly running = new Gauge({
    name: 'calendar_cluster_workers',
    help: 'Worker processes running (connected to the primary); WORKERS when all is well.',
    registers: [this.registry],
  });

  constructor(
    private readonly runningWorkers: () => Worker[],
    private readonly logger: Logger,
  ) {
    this.restarts.inc(0);
    cluster.on('message', (worker, message: unknown) => {
      if (!isClusterMessage(message)) return;
      if (message.type === 'calendar:metrics-request') void this.answer(worker, message.id);
      else if (message.type === 'calendar:metrics-collected') this.collecting.get(message.id)?.(worker, message.metrics);
    });
  }

  countRestart(): void {
    this.restarts.inc();
  }

  private async answer(asking: Worker, id: number): Promise<void> {
    let reply: ClusterMessage;
    try {
      reply = { type: 'calendar:metrics-response', id, text: await this.collect() };
    } catch (error) {
      this.logger.warn({ err: error }, 'adding up the workers\' metrics failed');
      reply = { type: 'calendar:metrics-response', id, error: error instanceof Error ? error.message : String(error) };
    }
    if (asking.isConnected()) asking.send(reply);
  }

  /** Every running worker's metrics, added up, and the primary's own. */
  async collect(): Promise<string> {
    const workers = this.runningWorkers().filter((worker) => worker.isConnected());
    const id = this.nextId++;
    const answers = new Map<number, WorkerMetrics>();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, COLLECT_TIMEOUT_MS);
      this.collecting.set(id, (worker, metrics) => {
        answers.set(worker.id, metrics);
        if (answers.size >= workers.length) {
          clearTimeout(timer);
          resolve();
        }
      });
      if (workers.length === 0) resolve();
      for (const worker of workers) worker.send({ type: 'calendar:metrics-collect', id } satisfies ClusterMessage);
    });
    this.collecting.delete(id);
    this.reporting.set(answers.size);
    this.running.set(workers.length);
    const own = await this.registry.getMetricsAsJSON();
    return AggregatorRegistry.aggregate([...answers.values(), own]).metrics();
  }
}
