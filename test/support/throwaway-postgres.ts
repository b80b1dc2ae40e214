import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect as connectSocket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { timedPhase } from './phase-timings.js';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of the test's own (initdb in a temp folder, on a free port), for fault tests
 * that stop, freeze or restart the database: never the shared server other tests and CI use.
 */
export interface ThrowawayPostgres {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: what a restart or failover looks like to clients. */
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT to the server and every backend: a database that stops answering. */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  /** SQL through psql as the superuser. */
  psql(sql: string): Promise<string>;
  remove(): Promise<void>;
}

/** Debian's server binaries (the newest installed major version), or undefined when there are none. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

/** Why fault tests cannot run here, or undefined when they can (server binaries, and root or the postgres user). */
export function throwawayPostgresUnavailable(): string | undefined {
  if (!postgresBinDir()) return 'no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)';
  const uid = process.getuid?.();
  if (uid !== 0) {
    try {
      if (execFileSync('id', ['-un']).toString().trim() !== 'postgres') return 'initdb must run as the postgres user: run the tests as root or postgres';
    } catch {
      return 'cannot tell the current user';
    }
  }
  return undefined;
}

/**
 * Waits until something accepts connections on 127.0.0.1:`port` (a server of the test's own starting),
 * polling every 50 ms; throws `failure()` once `gaveUp()` says so (the process exited, too many tries).
 */
export async function waitForPort(port: number, gaveUp: (attempt: number) => boolean, failure: () => Error): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connectSocket(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    if (gaveUp(attempt)) throw failure();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Runs one of PostgreSQL's server programs (initdb, pg_ctl, pg_basebackup, ...): as the `postgres`
 * user when the tests run as root, since initdb and the server refuse to run as root.
 */
export function postgresProgramRunner(): (command: string, args: string[]) => Promise<{ stdout: string; stderr: string }> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL server binaries');
  const asRoot = process.getuid?.() === 0;
  return (command, args) => (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args));
}

export async function createThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const asPostgres = postgresProgramRunner();
  const bin = postgresBinDir()!;
  const dir = await mkdtemp(join(tmpdir(), 'calendar-pg-'));
  await chmod(dir, 0o777);
  const dataDir = join(dir, 'data');
  const port = await freePort();
  await timedPhase('postgres cluster', () => asPostgres('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']));
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const pidOf = async () => Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const signalAll = async (signal: 'STOP' | 'CONT') => {
    const pid = await pidOf();
    // The backends first on STOP (so none finishes a reply meanwhile), the postmaster first on CONT.
    if (signal === 'CONT') process.kill(pid, 'SIGCONT');
    await run('pkill', [`-${signal}`, '-P', String(pid)]).catch(() => undefined);
    if (signal === 'STOP') process.kill(pid, 'SIGSTOP');
  };
  const cluster: ThrowawayPostgres = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      await timedPhase('postgres cluster', () => asPostgres('pg_ctl', ['start', '-D', dataDir, '-w', '-t', '30', '-l', join(dir, 'server.log'), '-o', settings]));
    },
    stop: async () => {
      await asPostgres('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '30']);
    },
    freeze: () => signalAll('STOP'),
    thaw: () => signalAll('CONT'),
    psql: async (sql) => (await run(join(bin, 'psql'), ['-X', '-A', '-t', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-c', sql])).stdout,
    remove: async () => {
      await cluster.thaw().catch(() => undefined);
      await asPostgres('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}
