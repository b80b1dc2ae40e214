import { availableParallelism } from 'node:os';
import { ConfigError, type Config } from '../config.js';

/**
 * How many worker processes `calendar serve` runs: WORKERS, `auto` being one per core the
 * process may use (os.availableParallelism()). 1 is the single process of old, without a cluster.
 *
 * The embedded database (PGlite) is a single-user PostgreSQL that one process opens
 * (src/db/data-dir-lock.ts): N workers cannot each open it, and an in-memory one per worker would
 * be N different calendars. Serving it from the primary to its workers would put every statement
 * of every request through one process and an IPC hop, the very bottleneck more workers are meant
 * to remove. So more than one worker needs DATABASE_URL, and asking for more without it stops the
 * start with a message naming WORKERS (also `auto`, whatever the core count, so that the same
 * settings do not start on one machine and stop on another).
 */
export function workerCount(config: Pick<Config, 'WORKERS' | 'DATABASE_URL'>, cores: () => number = availableParallelism): number {
  if (config.WORKERS === 1) return 1;
  if (!config.DATABASE_URL) {
    throw new ConfigError(
      `Invalid configuration:\n  WORKERS: ${config.WORKERS} worker processes need DATABASE_URL (a PostgreSQL server they share); ` +
        'the embedded database is opened by one process only. Set WORKERS=1 (the default) or DATABASE_URL.',
    );
  }
  return config.WORKERS === 'auto' ? Math.max(1, cores()) : config.WORKERS;
}
