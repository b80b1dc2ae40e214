import { readConfig } from '../config.js';
import { startService } from '../app.js';

/** Runs until SIGINT/SIGTERM. Returns -1: the process stays up. */
export async function runServe(_args: string[]): Promise<number> {
  const started = Date.now();
  const config = readConfig();
  const service = await startService(config);
  process.stdout.write(`Event calendar API listening on ${service.url} (${service.database.driver}, ready in ${Date.now() - started} ms)\n`);
  const stop = async () => {
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1;
}
