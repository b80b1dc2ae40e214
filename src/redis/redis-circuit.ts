import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { watchRedis } from '../telemetry/metrics.js';

/** Longest any command may take before it counts as a failure (ioredis' own commandTimeout is 500 ms). */
const COMMAND_DEADLINE_MS = 1000;

export interface RedisCircuitOptions {
  logger: Logger;
  /** First pause after a failure before Redis is tried again; doubles up to `maxOpenMs`. @default 1000 */
  openMs?: number;
  /** @default 30000 */
  maxOpenMs?: number;
}

/**
 * Redis is an accelerator (shared response cache, persisted queries), never a dependency. A
 * circuit breaker in front of every command: while Redis is disconnected, or for a back-off period
 * after a command failed or timed out, commands are not sent at all and the caller's fallback
 * (a miss) is used at once, so an outage costs no request the command timeout. After the pause
 * one command probes; its success closes the circuit. One log line when an outage starts, one when
 * it ends.
 */
export class RedisCircuit {
  private openUntil = 0;
  private pauseMs: number;
  private outageSince: number | undefined;
  private probing = false;

  constructor(
    readonly redis: Redis,
    private readonly options: RedisCircuitOptions,
  ) {
    this.pauseMs = options.openMs ?? 1000;
    redis.on('error', (error: unknown) => this.fail(error));
    redis.on('ready', () => this.succeed());
    watchRedis(() => this.available);
  }

  /** For /metrics: whether commands go to Redis now (connected, circuit closed); undefined once the connection was closed for good. */
  get available(): boolean | undefined {
    if (this.redis.status === 'end') return undefined;
    return this.redis.status === 'ready' && this.outageSince === undefined;
  }

  /** Runs `command` unless the circuit is open; any failure gives `fallback`. Never throws. */
  async call<T, F>(command: (redis: Redis) => Promise<T>, fallback: F): Promise<T | F> {
    if (this.redis.status !== 'ready') return fallback;
    const now = Date.now();
    if (now < this.openUntil) return fallback;
    // After a pause, one command probes while the others keep using the fallback.
    const probe = this.outageSince !== undefined;
    if (probe) {
      if (this.probing) return fallback;
      this.probing = true;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      // ioredis' commandTimeout does not cover every path (a pipeline to a frozen server): bound it here too.
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not answer within ${COMMAND_DEADLINE_MS} ms`)), COMMAND_DEADLINE_MS);
      });
      const result = await Promise.race([command(this.redis), timeout]);
      this.succeed();
      return result;
    } catch (error) {
      this.fail(error);
      return fallback;
    } finally {
      clearTimeout(timer);
      if (probe) this.probing = false;
    }
  }

  private fail(error: unknown): void {
    const now = Date.now();
    if (this.outageSince === undefined) {
      this.outageSince = now;
      this.pauseMs = this.options.openMs ?? 1000;
      const reason = error instanceof Error ? error.message : String(error);
      this.options.logger.warn({ reason }, 'Redis unavailable: answering without the shared cache until it is back');
    } else {
      this.pauseMs = Math.min(this.pauseMs * 2, this.options.maxOpenMs ?? 30_000);
    }
    this.openUntil = now + this.pauseMs;
  }

  private succeed(): void {
    if (this.outageSince === undefined) return;
    const seconds = Math.round((Date.now() - this.outageSince) / 100) / 10;
    this.outageSince = undefined;
    this.openUntil = 0;
    this.options.logger.info({ outageSeconds: seconds }, 'Redis reachable again: using the shared cache');
  }
}

/**
 * Connects to Redis for the response cache and persisted queries: short timeouts, no retries of a
 * command (the circuit decides when to try again), and a start without Redis when it does not
 * answer (ioredis keeps reconnecting in the background).
 */
export async function connectRedis(url: string, logger: Logger): Promise<RedisCircuit> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    // Commands are never queued while disconnected: the circuit answers with a miss instead.
    enableOfflineQueue: false,
    commandTimeout: 500,
    connectTimeout: 2000,
  });
  const circuit = new RedisCircuit(redis, { logger });
  await redis.connect().catch(() => undefined);
  return circuit;
}
