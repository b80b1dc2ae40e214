import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsListenAddress, type Config } from '../config.js';
import { listeningBaseUrl } from '../http/listening-base-url.js';
import { listenOn } from '../http/listen-on.js';
import { shutdownHttpServer } from '../http/shutdown-http-server.js';
import type { Logger } from '../logger.js';
import { StartupError } from '../startup-error.js';
import type { ClusterMessage } from './cluster-messages.js';
import { PrimaryMetrics } from './primary-metrics.js';
import { RestartBackoff } from './restart-backoff.js';

/**
 * Longest a shutdown may take after SHUTDOWN_DELAY_MS: each worker gives requests in flight 5 s, then
 * writes its usage counts and closes its pool; a worker still running after this is killed.
 */
export const SHUTDOWN_BOUND_MS = 10_000;

interface Slot {
  worker: Worker;
  forkedAt: number;
  listening: boolean;
}

export interface PrimaryOptions {
  config: Config;
  workers: number;
  logger: Logger;
  /** When `calendar serve` started (for the ready time). */
  started: number;
  /** The node flags of each worker: this process's, plus serve's V8 flags it lacks (src/cli/serve-v8-flags.ts). */
  workerExecArgv: readonly string[];
  /** More environment for each worker: serve's allocator setting when this process lacks it (src/cli/malloc-settings.ts). */
  workerEnv?: Readonly<Record<string, string>> | undefined;
}

/**
 * `calendar serve` with WORKERS > 1: this process (the primary) runs no service of its own. It
 * holds the listening socket and hands each new connection to the next worker in turn (node:cluster's
 * round robin); each worker is a whole service with its own pool, read model and caches.
 *
 * - METRICS_PORT: the primary holds that listener (it adds the workers' metrics up, and a scrape
 *   is answered however busy or stuck the workers are); it listens before any worker starts, so a
 *   port in use stops the start at once, and it closes once the last worker has exited.
 * - Start: the first worker alone (it migrates and seeds the demo calendar when the database is
 *   empty), then the others at once. A worker that stops before it listens stops the start (its own
 *   line on stderr says why), with status 1.
 * - A worker that dies later is replaced, at once the first time and after doubling pauses when
 *   they keep dying (RestartBackoff); the others keep serving meanwhile.
 * - SIGTERM or SIGINT: every worker stops accepting, finishes its requests in flight and closes;
 *   once the last one has closed its server the port refuses connections. The primary exits 0 when
 *   all have exited cleanly, and kills what still runs after SHUTDOWN_BOUND_MS (status 1). A second
 *   signal kills the workers at once.
 */
export async function runPrimary(options: PrimaryOptions): Promise<number> {
  const { logger, config } = options;
  const slots = new Map<number, Slot>();
  const backoff = new RestartBackoff();
  const metrics = new PrimaryMetrics(() => [...slots.values()].map((slot) => slot.worker), logger);
  const pendingRestarts = new Set<NodeJS.Timeout>();
  let stopping = false;
  let port = 0;
  cluster.setupPrimary({ execArgv: [...options.workerExecArgv] });
  const metricsListener = await listenForMetrics(config, metrics, logger);
  const metricsServer = metricsListener?.server;
  // The port it got (METRICS_PORT=0: a free one), so that each worker's start-up line names it.
  const workerEnv = { ...options.workerEnv, ...(metricsListener ? { METRICS_PORT: String(metricsListener.port) } : {}) };

  const fork = (): Slot => {
    const slot: Slot = { worker: cluster.fork(workerEnv), forkedAt: Date.now(), listening: false };
    slots.set(slot.worker.id, slot);
    return slot;
  };

  /** Resolves when the worker listens; rejects when it exits first. */
  const listeningOf = (slot: Slot) =>
    new Promise<void>((resolve, reject) => {
      const onExit = (code: number | null, signal: string | null) =>
        reject(new StartupError(`worker ${slot.worker.process.pid} stopped during start-up (${signal ?? `status ${code}`}); the line above says why`));
      slot.worker.once('exit', onExit);
      slot.worker.once('listening', (address: { port: number }) => {
        slot.worker.off('exit', onExit);
        slot.listening = true;
        port = address.port;
        resolve();
      });
    });

  const killAll = (signal: NodeJS.Signals) => {
    for (const { worker } of slots.values()) if (!worker.isDead()) worker.process.kill(signal);
  };

  // Start-up: one worker first (migrations, seeding), then the rest.
  try {
    const first = fork();
    await listeningOf(first);
    await Promise.all(Array.from({ length: options.workers - 1 }, () => listeningOf(fork())));
  } catch (error) {
    killAll('SIGKILL');
    metricsServer?.close();
    throw error;
  }

  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.get(worker.id);
    slots.delete(worker.id);
    if (stopping || !slot) return;
    const livedMs = Date.now() - slot.forkedAt;
    const pauseMs = backoff.next(livedMs);
    metrics.countRestart();
    logger.error({ pid: worker.process.pid, worker: worker.id, code, signal, livedMs, restartInMs: pauseMs }, 'worker exited; starting another');
    const timer = setTimeout(() => {
      pendingRestarts.delete(timer);
      if (stopping) return;
      const replacement = fork();
      listeningOf(replacement).then(
        () => logger.info({ pid: replacement.worker.process.pid, worker: replacement.worker.id }, 'worker replaced'),
        // Its exit is handled above like any other: another pause, another try.
        () => undefined,
      );
    }, pauseMs);
    pendingRestarts.add(timer);
  });

  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const url = `http://${host}:${port}/graphQL`;
  const readyMs = Date.now() - options.started;
  const pids = [...slots.values()].map((slot) => slot.worker.process.pid);
  // Where GET /metrics is answered: the API's port (any worker asks this process), or METRICS_PORT's listener here.
  const metricsAt = metricsListener ? { host: metricsListener.host, port: metricsListener.port } : { host: config.HOST, port };
  const metricsUrl = `${listeningBaseUrl(metricsAt.host, metricsAt.port)}/metrics`;
  logger.info({ url, workers: options.workers, pids, pid: process.pid, metrics: { ...metricsAt, url: metricsUrl }, readyMs }, 'cluster started');
  process.stdout.write(`Event calendar API listening on ${url} (postgres, ${options.workers} workers, ready in ${readyMs} ms)\n`);

  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    const since = Date.now();
    for (const timer of pendingRestarts) clearTimeout(timer);
    const boundMs = config.SHUTDOWN_DELAY_MS + SHUTDOWN_BOUND_MS;
    logger.info({ signal, workers: slots.size }, `shutting down: every worker finishes its requests in flight, ${boundMs / 1000} s at most`);
    let failed = false;
    const exits = [...slots.values()].map(
      (slot) =>
        new Promise<void>((resolve) => {
          if (slot.worker.isDead()) return resolve();
          slot.worker.once('exit', (code) => {
            if (code !== 0) failed = true;
            resolve();
          });
          // A worker still starting may not listen for messages yet; it has nothing in flight either.
          if (slot.listening && slot.worker.isConnected()) slot.worker.send({ type: 'calendar:shutdown' } satisfies ClusterMessage);
          else slot.worker.process.kill('SIGTERM');
        }),
    );
    const bound = setTimeout(() => {
      logger.error({ workers: slots.size }, `workers still running after ${boundMs / 1000} s: killing them`);
      killAll('SIGKILL');
      failed = true;
    }, boundMs);
    void Promise.all(exits)
      // After the workers' API servers: a scrape during the drain still sees them.
      .then(() => (metricsServer ? shutdownHttpServer(metricsServer, 1000) : undefined))
      .then(() => {
        clearTimeout(bound);
        logger.info({ durationMs: Date.now() - since }, 'stopped');
        process.exit(failed ? 1 : 0);
      });
  };
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!signalled) {
      signalled = true;
      stop(signal);
      return;
    }
    // A second signal ends everything at once.
    killAll('SIGKILL');
    process.exit(1);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return -1;
}

/**
 * METRICS_PORT's listener in the primary, answering with every worker's metrics added up; undefined
 * when /metrics is served on the API's port. Loaded only then: its error answers are the API's
 * (graphql's GraphQLError), which a primary otherwise never loads.
 */
async function listenForMetrics(config: Config, metrics: PrimaryMetrics, logger: Logger): Promise<{ server: Server; host: string; port: number } | undefined> {
  const address = metricsListenAddress(config);
  if (!address) return undefined;
  const { createMetricsServer } = await import('../http/metrics-server.js');
  const server = createMetricsServer({ metrics: () => metrics.collect(), logger });
  await listenOn(server, address.host, address.port, 'METRICS_PORT');
  return { server, host: address.host, port: (server.address() as AddressInfo).port };
}
