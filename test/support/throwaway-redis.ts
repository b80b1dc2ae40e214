import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort, waitForPort } from './throwaway-postgres.js';
import { timedPhase } from './phase-timings.js';

const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path));

/** Why Redis fault tests cannot run here, or undefined when they can. */
export function throwawayRedisUnavailable(): string | undefined {
  return REDIS_SERVER ? undefined : 'no redis-server binary (apt-get install redis-server)';
}

/** A Redis of the test's own on a free port (never the shared one), to stop and freeze. */
export interface ThrowawayRedis {
  url: string;
  freeze(): void;
  thaw(): void;
  kill(): Promise<void>;
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(REDIS_SERVER!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await timedPhase('redis server', () => waitForPort(port, (attempt) => attempt > 100, () => new Error('redis-server did not start')));
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      }
      await exited;
    },
  };
}
