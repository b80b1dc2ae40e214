import pg from 'pg';
import { describeDatabaseError, isPermanentConnectionError } from './connection-errors.js';

/**
 * A readiness probe gives up after this long, over all it asks: /ready must answer within the second with
 * the HTTP exchange included, on a busy event loop too. At 900 ms (per statement, on PostgreSQL) a frozen
 * server's /ready took 928–930 ms alone and up to 1.36 s in a full test run, and the embedded database held
 * by a statement 1.51 s on Node 22 in one; a database that takes over 600 ms for two catalogue lookups
 * cannot answer the API either.
 */
export const PROBE_TIMEOUT_MS = 600;

/**
 * The first look at the server, at start, waits longer: a slow answer then is no outage (a loaded machine, a
 * replica just started), and a start that gives up after 600 ms failed on one in a full test run
 * (DATABASE_WAIT_SECONDS=0 does not retry). /ready keeps PROBE_TIMEOUT_MS.
 */
export const STARTUP_PROBE_TIMEOUT_MS = 5000;

/** What a readiness probe found. */
export interface DatabaseProbe {
  reachable: boolean;
  /** Name of the newest migration applied to the schema; undefined when unreachable or never migrated. */
  latestMigration?: string | undefined;
  /** Why it is not reachable (one line). */
  reason?: string | undefined;
}

export type RowQuery = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/** The newest migration recorded in the schema's bookkeeping table; undefined when it has none yet. */
export async function latestAppliedMigration(query: RowQuery): Promise<string | undefined> {
  const { rows } = await query(`select to_regclass('kysely_migration') is not null as present`);
  if (rows[0]?.['present'] !== true) return undefined;
  const latest = await query('select max(name) as name from kysely_migration');
  const name = latest.rows[0]?.['name'];
  return typeof name === 'string' ? name : undefined;
}

export interface ServerProbe {
  /** One attempt: whether the server answers within the probe's timeout, and its newest migration. */
  probeOnce(this: void): Promise<DatabaseProbe & { permanent?: boolean }>;
  end(): Promise<void>;
}

/**
 * A probe on a connection of its own (a pool of one), so readiness never waits behind requests for a
 * pool slot. `onSuccess` hears of every answer (an outage is over). `timeoutMs`: how long one attempt
 * waits, over all it asks.
 */
export function createServerProbe(connection: pg.PoolConfig, onSuccess?: () => void, timeoutMs: number = PROBE_TIMEOUT_MS): ServerProbe {
  const probePool = new pg.Pool({
    ...connection,
    max: 1,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    idleTimeoutMillis: 60_000,
  });
  probePool.on('error', () => undefined);
  probePool.on('connect', (client) => client.on('error', () => undefined));
  const attempt = async (): Promise<DatabaseProbe & { permanent?: boolean }> => {
    let client: pg.PoolClient | undefined;
    try {
      client = await probePool.connect();
      const query = client;
      const latestMigration = await latestAppliedMigration((text) => query.query(text));
      client.release();
      onSuccess?.();
      return { reachable: true, latestMigration };
    } catch (error) {
      // A timed-out query leaves the connection busy: drop it rather than reuse it.
      client?.release(error instanceof Error ? error : true);
      if (refusedStartupOptions(error)) return { reachable: false, reason: `${describeDatabaseError(error)}: ${STARTUP_OPTIONS_HINT}`, permanent: true };
      return { reachable: false, reason: describeDatabaseError(error), permanent: isPermanentConnectionError(error) };
    }
  };
  return {
    probeOnce: () => {
      // The statements' own timeouts end the attempt soon after (its connection dropped); the answer does not wait for it.
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<DatabaseProbe>((resolve) => {
        timer = setTimeout(() => resolve({ reachable: false, reason: `the server did not answer within ${timeoutMs} ms` }), timeoutMs);
        timer.unref();
      });
      return Promise.race([attempt(), deadline]).finally(() => clearTimeout(timer));
    },
    end: () => probePool.end(),
  };
}

const STARTUP_OPTIONS_HINT =
  'a pooler (PgBouncer) refuses the session settings this service sends; list options in its ignore_startup_parameters ' +
  'and set them on the role instead (docs/operating.md, Read replicas and PgBouncer)';

/** PgBouncer's answer (08P01) to the `options` startup parameter it does not support: waiting will not mend it. */
function refusedStartupOptions(error: unknown): boolean {
  return error instanceof Error && /unsupported startup parameter: options/.test(error.message);
}
