import type pg from 'pg';
import { countDatabaseConnectionDropped, countDatabaseReadRetried } from '../telemetry/metrics.js';
import { connectionLossReason, type ConnectionLossReason } from './connection-errors.js';

/** What Kysely's PostgresDialect uses of a pool: a `pg.Pool`, or the read replicas behind one interface. */
export interface ConnectionSource {
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
  /** Kysely's cancel connections are made with these (pg-pool has `Client` too, untyped). */
  readonly options: object;
  readonly Client?: typeof pg.Client;
}

/**
 * Waits before each retry: at once on a fresh connection, then twice as long each time (a pooler
 * restarting, sessions terminated again and again): under 0.8 s in all, well within a request's deadline.
 * A read that loses its connection this often is the database's failure.
 */
const RETRY_DELAYS_MS = [0, 25, 50, 100, 200, 400];
/** A statement that only reads, and so may run again: what Kysely compiles for a select, and raw selects. */
const READ_STATEMENT = /^\s*\(?\s*select\b/i;
const TRANSACTION_START = /^\s*(begin|start\s+transaction)\b/i;
const TRANSACTION_END = /^\s*(commit|rollback|end|abort)\b/i;

/**
 * A pool (`source`) whose reads survive a lost connection: a backend terminated by a DBA, a pooler
 * restarting, a managed database's maintenance, a socket reset. Such a failure says nothing of the
 * database, which may answer a fresh connection at once; before, it answered its request 503.
 *
 * - A read (a single `select` outside a transaction) whose connection is lost is run again on a fresh
 *   connection, up to six times, at once and then after 25, 50, 100, 200 and 400 ms (within the request's own
 *   deadline: the pool's acquire timeout bounds each wait); so is taking a connection for it, when the
 *   new one is terminated while it is made. A write, or a statement inside a transaction, is never
 *   repeated here: its failure is its caller's (the read model re-reads its transaction whole, the
 *   usage counters keep their counts for the next batch).
 * - The connection that failed is destroyed, not returned. A loss rarely comes alone (a
 *   `pg_terminate_backend` of every session, a restart): every connection opened before it is
 *   dropped the next time the pool would hand it out, instead of failing the next request too.
 * - Only a read that fails on a fresh connection, or a connection that cannot be made, reaches the
 *   caller: that is an outage (503, and the "database unavailable" line), not a lost connection.
 */
export class RetryingPool implements ConnectionSource {
  /** When each client was first handed out (just after it was opened: an idle one was handed out before). */
  private readonly firstUse = new WeakMap<pg.PoolClient, number>();
  /** When a connection was last lost: clients first used before it are dropped unused. */
  private lostAt = -1;

  constructor(private readonly source: ConnectionSource) {}

  get options(): object {
    return this.source.options;
  }

  get Client(): typeof pg.Client | undefined {
    return this.source.Client;
  }

  /** An idle connection was lost (its pool's 'error': the pool has dropped it). */
  idleLost(error: unknown): void {
    countDatabaseConnectionDropped(connectionLossReason(error) ?? 'connection_terminated');
    this.lostAt = performance.now();
  }

  /** A checked-out connection reported its loss (its statement fails on its own, and is counted then). */
  checkedOutLost(): void {
    this.lostAt = performance.now();
  }

  async connect(): Promise<pg.PoolClient> {
    return new RetryingClient(this, await this.retryingLosses(() => this.freshClient())) as unknown as pg.PoolClient;
  }

  /**
   * `attempt` again while it fails for a lost connection (a new one terminated while it was being made, a
   * statement's), after each of RETRY_DELAYS_MS; `lost` is told of each loss first. Any other failure (a
   * refused connection: the database is down) is thrown at once.
   */
  async retryingLosses<T>(attempt: () => Promise<T>, lost?: (error: Error, reason: ConnectionLossReason) => void): Promise<T> {
    for (let retry = 0; ; retry++) {
      try {
        return await attempt();
      } catch (error) {
        const reason = connectionLossReason(error);
        if (reason === undefined || retry >= RETRY_DELAYS_MS.length || !(error instanceof Error)) throw error;
        // A read's retry is counted as one; a checkout's (nothing was sent yet) only as the connection it lost.
        if (lost) {
          lost(error, reason);
          countDatabaseReadRetried(reason);
        } else {
          this.lostUnder(reason);
        }
        const delay = RETRY_DELAYS_MS[retry]!;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  end(): Promise<void> {
    return this.source.end();
  }

  /** A client of the source, dropping those opened before the last loss (at most every idle one, then a new one). */
  async freshClient(): Promise<pg.PoolClient> {
    for (;;) {
      const client = await this.source.connect();
      const firstUse = this.firstUse.get(client);
      if (firstUse === undefined) {
        this.firstUse.set(client, performance.now());
        return client;
      }
      if (firstUse > this.lostAt) return client;
      countDatabaseConnectionDropped('opened_before_loss');
      client.release(true);
    }
  }

  /** A client's connection was lost under a statement: the clients opened before it are suspect. */
  lostUnder(reason: ConnectionLossReason): void {
    countDatabaseConnectionDropped(reason);
    this.lostAt = performance.now();
  }
}

/**
 * What Kysely holds as a pool client: the statements of one checkout, on the client of the moment (the
 * one taken at checkout, or the fresh one a retried read moved to).
 */
class RetryingClient {
  private client: pg.PoolClient | undefined;
  private inTransaction = false;
  /** The client's connection was lost under a statement that is not repeated: destroyed on release. */
  private broken = false;

  constructor(
    private readonly pool: RetryingPool,
    client: pg.PoolClient,
  ) {
    this.client = client;
  }

  /** Kysely reads it to cancel a statement (`pg_cancel_backend`). */
  get processID(): number | undefined {
    return (this.client as { processID?: number } | undefined)?.processID;
  }

  query(text: unknown, values?: unknown[]): unknown {
    const client = this.current();
    // A cursor, a prepared-statement config: passed on as is (Kysely sends text and values).
    if (typeof text !== 'string') return client.query(text as pg.QueryConfig);
    if (TRANSACTION_START.test(text)) this.inTransaction = true;
    else if (TRANSACTION_END.test(text)) this.inTransaction = false;
    if (!this.inTransaction && READ_STATEMENT.test(text)) return this.read(text, values);
    return client.query(text, values).catch((error: unknown) => {
      // Not repeated (a write, or inside a transaction): its caller gets the failure, the client is destroyed.
      const reason = connectionLossReason(error);
      if (reason !== undefined && !this.broken) {
        this.broken = true;
        this.pool.lostUnder(reason);
      }
      throw error;
    });
  }

  private read(text: string, values: unknown[] | undefined): Promise<pg.QueryResult> {
    return this.pool.retryingLosses(
      async () => {
        // After a loss: a fresh client. Connecting fails at once when the database is down: an outage, a 503.
        this.client ??= await this.pool.freshClient();
        return this.client.query(text, values);
      },
      (error, reason) => {
        this.pool.lostUnder(reason);
        const client = this.client;
        this.client = undefined;
        client?.release(error);
      },
    );
  }

  release(error?: Error | boolean): void {
    const client = this.client;
    this.client = undefined;
    this.inTransaction = false;
    client?.release(this.broken || error);
  }

  private current(): pg.PoolClient {
    if (!this.client) throw new Error('Client was closed: its connection was lost and no other could be made');
    return this.client;
  }
}
