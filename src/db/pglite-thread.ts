import { Worker } from 'node:worker_threads';
import type { PGliteDialectConfig } from 'kysely';

type KyselyPGlite = Exclude<PGliteDialectConfig['pglite'], (...args: never[]) => unknown>;
type QueryResults = Awaited<ReturnType<KyselyPGlite['query']>>;

interface Reply {
  id: number;
  result?: Record<string, unknown>;
  error?: Record<string, unknown> & { message: string };
}

/** An error from the database thread, with the driver's fields (SQLSTATE `code`, `detail`, ...) restored. */
function restoredError(plain: Record<string, unknown> & { message: string }): Error {
  return Object.assign(new Error(plain.message), plain);
}

/**
 * The embedded PGlite on a thread of its own, behind the interface Kysely's PGliteDialect uses.
 * PGlite executes synchronously inside WebAssembly: on the main thread a heavy statement (a long
 * search, a whole-calendar export) would hold the event loop, so /health and every other request
 * would wait for it. Here only the statement's own request waits.
 */
export class PGliteThread implements KyselyPGlite {
  closed = false;
  ready = false;
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;

  constructor(options: { dataDir: string; template?: string | undefined; setup: string[] }) {
    this.worker = new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData: options });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.worker.once('message', (message: { ready: boolean; error?: Reply['error'] }) => {
        if (message.ready) {
          this.ready = true;
          resolve();
        } else reject(restoredError(message.error ?? { message: 'the embedded database did not start' }));
        this.worker.on('message', (reply: Reply) => this.settle(reply));
      });
      this.worker.once('error', reject);
    });
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', (code) => {
      this.closed = true;
      this.failAll(new Error(`the embedded database thread exited (${code})`));
    });
  }

  query<T>(sql: string, params?: unknown[]): Promise<QueryResults & { rows: T[] }> {
    return this.call<QueryResults & { rows: T[] }>({ op: 'query', sql, params });
  }

  async transaction<T>(callback: (tx: { query: KyselyPGlite['query']; rollback(): Promise<void> }) => Promise<T>): Promise<T> {
    const { transaction } = await this.call<{ transaction: number }>({ op: 'begin' });
    const tx = {
      query: <R>(sql: string, params?: unknown[]) => this.call<QueryResults & { rows: R[] }>({ op: 'query', sql, params, transaction }),
      rollback: async () => void (await this.call({ op: 'rollback', transaction })),
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      await this.call({ op: 'rollback', transaction });
      throw error;
    }
    await this.call({ op: 'commit', transaction });
    return result;
  }

  /** The whole data directory as an uncompressed tarball (PGlite's dumpDataDir), for `template`. */
  async dump(): Promise<Uint8Array> {
    return (await this.call<{ tarball: Uint8Array }>({ op: 'dump' })).tarball;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.call({ op: 'close' }).catch(() => undefined);
    this.closed = true;
    await this.worker.terminate();
  }

  private call<R>(message: Record<string, unknown>): Promise<R> {
    if (this.closed) return Promise.reject(new Error('The embedded database is closed.'));
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: (result) => resolve(result as R), reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.error) waiting.reject(restoredError(reply.error));
    else waiting.resolve(reply.result ?? {});
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
