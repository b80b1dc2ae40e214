import pg from 'pg';
import type { Logger } from '../logger.js';
import type { PoolStats } from '../telemetry/metrics.js';
import { StartupError } from '../startup-error.js';
import { describeDatabaseError, isDatabaseUnavailable } from './connection-errors.js';
import { createServerProbe, type DatabaseProbe, type ServerProbe } from './server-probe.js';

/** How long a replica that refused a connection is passed over (tried only when every other one fails too). */
const PASSED_OVER_MS = 5000;

interface Replica {
  /** The URL without its password, for log lines. */
  label: string;
  pool: pg.Pool;
  probe: ServerProbe;
  /** Until when (epoch ms) connections go to the other replicas first; 0 while it answers. */
  passedOverUntil: number;
}

export interface ReadReplicasOptions {
  /** One pool per URL, all alike but for the URL. */
  connection: (url: string) => pg.PoolConfig;
  poolSize: number;
  acquireTimeoutMs: number;
  logger?: Logger | undefined;
  /** The URL without its password. */
  describe: (url: string) => string;
}

/**
 * The read replicas of DATABASE_READ_URL behind the one pool interface Kysely's PostgresDialect
 * uses (`connect`, `end`): a pool per replica, and each connection taken from the replica this
 * process reads from.
 *
 * Spreading: each process reads from one replica at a time, its "home" (process id modulo the
 * number of replicas, so the workers of a node and the nodes of a fleet spread over the replicas),
 * not round-robin per statement. A request reads records at the data version of the snapshot it
 * answers from (src/read-model), so every statement of a request and the snapshot itself should
 * come from one replica: two replicas lag differently, and alternating between them would turn
 * lag into version mismatches.
 *
 * Failover: a replica that refuses or drops connections is passed over for a few seconds and the
 * next one answers instead (a statement that was running on it fails with a clean 503). Only a
 * pool that is merely busy (all its connections in use) is not failed over: that is overload, and
 * answered 503 like on a single database. When every replica fails, reads fail with 503 until one
 * is back; the primary is never read from instead (it may be what the replicas protect).
 */
export class ReadReplicas {
  /** For Kysely's cancel connections. */
  readonly Client = pg.Client;
  private readonly replicas: Replica[];
  private readonly home: number;
  /** The replica the last connection came from (logged when it changes). */
  private current: number;

  constructor(
    urls: readonly string[],
    private readonly settings: ReadReplicasOptions,
  ) {
    if (urls.length === 0) throw new Error('no read replica URLs');
    this.replicas = urls.map((url) => {
      const config = settings.connection(url);
      const pool = new pg.Pool({ ...config, max: settings.poolSize, connectionTimeoutMillis: settings.acquireTimeoutMs });
      // An idle connection's error (the replica restarting) would otherwise end the process.
      pool.on('error', (error) => settings.logger?.debug({ replica: settings.describe(url), reason: describeDatabaseError(error) }, 'read replica connection lost'));
      pool.on('connect', (client) => client.on('error', () => undefined));
      return { label: settings.describe(url), pool, probe: createServerProbe(config), passedOverUntil: 0 };
    });
    this.home = process.pid % this.replicas.length;
    this.current = this.home;
  }

  /** Pool options of the replica in use (Kysely reads them for cancel connections). */
  get options(): object {
    return this.replicas[this.current]!.pool.options;
  }

  /** Every replica URL, without passwords. */
  get labels(): string[] {
    return this.replicas.map((r) => r.label);
  }

  /** The replica this process reads from while it answers. */
  get homeLabel(): string {
    return this.replicas[this.home]!.label;
  }

  /** Each replica's pool now, for /metrics (`replica-1`, ... in DATABASE_READ_URL's order). */
  poolStats(): PoolStats[] {
    return this.replicas.map(({ pool }, i) => ({ pool: `replica-${i + 1}`, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolMax(pool) }));
  }

  /** Replica indexes in the order a connection tries them: home first, those passed over last. */
  private order(now: number): number[] {
    const n = this.replicas.length;
    const ring = Array.from({ length: n }, (_, k) => (this.home + k) % n);
    return [...ring.filter((i) => this.replicas[i]!.passedOverUntil <= now), ...ring.filter((i) => this.replicas[i]!.passedOverUntil > now)];
  }

  async connect(): Promise<pg.PoolClient> {
    let lastError: unknown;
    for (const index of this.order(Date.now())) {
      const replica = this.replicas[index]!;
      const pool = replica.pool;
      // All connections in use: a wait that times out is overload, not a replica that went away.
      const busy = pool.totalCount >= poolMax(pool) && pool.idleCount === 0;
      try {
        const client = await pool.connect();
        this.answered(index);
        return client;
      } catch (error) {
        if (busy || !isDatabaseUnavailable(error)) throw error;
        lastError = error;
        this.failed(index, error);
      }
    }
    throw lastError;
  }

  private answered(index: number): void {
    const replica = this.replicas[index]!;
    replica.passedOverUntil = 0;
    if (this.current !== index) {
      this.settings.logger?.info({ replica: replica.label, previous: this.replicas[this.current]!.label }, 'reading from another read replica');
      this.current = index;
    }
  }

  private failed(index: number, error: unknown): void {
    const replica = this.replicas[index]!;
    if (replica.passedOverUntil === 0) {
      this.settings.logger?.warn(
        { replica: replica.label, reason: describeDatabaseError(error), passedOverMs: PASSED_OVER_MS },
        this.replicas.length > 1 ? 'read replica unavailable: reading from the next one' : 'read replica unavailable',
      );
    }
    replica.passedOverUntil = Date.now() + PASSED_OVER_MS;
  }

  /** Readiness: the first replica (in the order reads try them) that answers, or why none does. */
  async probe(): Promise<DatabaseProbe> {
    let reason: string | undefined;
    for (const index of this.order(Date.now())) {
      const result = await this.replicas[index]!.probe.probeOnce();
      if (result.reachable) return { reachable: true, latestMigration: result.latestMigration };
      reason = `read replica ${this.replicas[index]!.label}: ${result.reason ?? 'unreachable'}`;
    }
    return { reachable: false, reason };
  }

  /**
   * At start: a replica refusing our login, or naming a database or host that does not exist,
   * stops the service (waiting will not mend it); one that does not answer yet is only logged.
   */
  async checkAtStart(): Promise<void> {
    const results = await Promise.all(this.replicas.map(async (replica) => ({ replica, result: await replica.probe.probeOnce() })));
    for (const { replica, result } of results) {
      if (result.permanent) throw new StartupError(`Cannot use the read replica ${replica.label} (DATABASE_READ_URL): ${result.reason}`);
      if (!result.reachable) this.settings.logger?.warn({ replica: replica.label, reason: result.reason }, 'read replica not reachable yet; reads go to the others until it answers');
    }
  }

  async end(): Promise<void> {
    await Promise.all(this.replicas.map(async (r) => Promise.all([r.pool.end(), r.probe.end()])));
  }
}

/** pg-pool's size (`max` defaults to 10). */
function poolMax(pool: pg.Pool): number {
  const max = (pool.options as { max?: unknown }).max;
  return typeof max === 'number' ? max : 10;
}
