import { timedPhase } from './phase-timings.js';

/** Polls `check` every 50 ms until it gives something (not undefined or false); throws after `ms`. */
export function until<T>(ms: number, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  return timedPhase('wait', () => poll(ms, check));
}

async function poll<T>(ms: number, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
