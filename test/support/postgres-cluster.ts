import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, postgresBinDir, postgresProgramRunner } from './throwaway-postgres.js';

const run = promisify(execFile);

/** One server of a throwaway primary/replica cluster. */
export interface ClusterServer {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** SQL through psql as the superuser; the output unaligned, tuples only. */
  psql(sql: string): Promise<string>;
  /** `pg_ctl stop -m immediate`: a server that vanishes. */
  kill(): Promise<void>;
}

/**
 * A PostgreSQL primary (wal_level=replica) and streaming replicas made from it with
 * `pg_basebackup -R`, each on a free port, all under one temp folder: never the shared server.
 * `remove` stops every server (immediate) and deletes the folder; call it in `finally`/`afterAll`.
 */
export interface PostgresCluster {
  primary: ClusterServer;
  replicas: ClusterServer[];
  /** Waits until every replica has replayed everything the primary has written so far. */
  waitForReplicas(timeoutMs?: number): Promise<void>;
  remove(): Promise<void>;
}

export async function createPostgresCluster(replicaCount: number): Promise<PostgresCluster> {
  const asPostgres = postgresProgramRunner();
  const bin = postgresBinDir()!;
  const dir = await mkdtemp(join(tmpdir(), 'calendar-cluster-'));
  await chmod(dir, 0o777);
  const dataDirs: string[] = [];

  const server = (port: number, dataDir: string): ClusterServer => ({
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    psql: async (sql) => (await run(join(bin, 'psql'), ['-X', '-A', '-t', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-c', sql])).stdout.trim(),
    kill: async () => {
      await asPostgres('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']).catch(() => undefined);
    },
  });
  const start = async (dataDir: string, port: number, name: string) => {
    // Fast and small: a test cluster needs no durability.
    const settings = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c fsync=off', '-c full_page_writes=off', '-c wal_level=replica', '-c max_wal_senders=10', '-c shared_buffers=16MB'];
    await asPostgres('pg_ctl', ['start', '-D', dataDir, '-w', '-t', '30', '-l', join(dir, `${name}.log`), '-o', settings.join(' ')]);
  };

  const cluster: PostgresCluster = {
    primary: undefined as unknown as ClusterServer,
    replicas: [],
    waitForReplicas: async (timeoutMs = 10_000) => {
      const target = await cluster.primary.psql('select pg_current_wal_lsn()');
      const started = Date.now();
      for (const replica of cluster.replicas) {
        for (;;) {
          const caughtUp = await replica.psql(`select pg_last_wal_replay_lsn() >= '${target}'::pg_lsn`);
          if (caughtUp === 't') break;
          if (Date.now() - started > timeoutMs) throw new Error(`replica on port ${replica.port} did not reach ${target} within ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    },
    remove: async () => {
      for (const dataDir of dataDirs.reverse()) await asPostgres('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    const primaryDir = join(dir, 'primary');
    const primaryPort = await freePort();
    await asPostgres('initdb', ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    dataDirs.push(primaryDir);
    await start(primaryDir, primaryPort, 'primary');
    cluster.primary = server(primaryPort, primaryDir);
    for (let i = 1; i <= replicaCount; i++) {
      const replicaDir = join(dir, `replica-${i}`);
      // -R writes primary_conninfo and standby.signal: the copy starts as a streaming hot standby.
      await asPostgres('pg_basebackup', ['-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync', '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres']);
      dataDirs.push(replicaDir);
      const port = await freePort();
      await start(replicaDir, port, `replica-${i}`);
      cluster.replicas.push(server(port, replicaDir));
    }
    return cluster;
  } catch (error) {
    await cluster.remove();
    throw error;
  }
}
