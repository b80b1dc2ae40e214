import pg from 'pg';
import type { Logger } from '../logger.js';

/** The channel the `calendar_state` trigger announces new data versions on (payload: `<schema> <version>`). */
export const DATA_VERSION_CHANNEL = 'calendar_data_version';

export interface DataVersionHandlers {
  onVersion: (version: string) => void;
  /** Called after a lost connection is back: notices sent meanwhile were missed. */
  onReconnect: () => void;
}

/** Subscribes to data-version notices; resolves to a function that stops listening. */
export type ListenForDataVersions = (handlers: DataVersionHandlers) => Promise<() => Promise<void>>;

/**
 * LISTENs for data-version notices of one schema on a connection of its own: a LISTEN lives in a
 * session, so it cannot go through the request pool (nor through PgBouncer in transaction mode:
 * point this connection at the server directly). A lost connection is re-opened with backoff, and
 * `onReconnect` lets the caller read the version it may have missed. Resolves once listening.
 */
export async function listenForDataVersions(
  connection: pg.ClientConfig,
  schema: string,
  handlers: DataVersionHandlers,
  logger?: Logger,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delayMs = 250;

  const open = async (): Promise<void> => {
    const next = new pg.Client(connection);
    next.on('notification', (message) => {
      if (message.channel !== DATA_VERSION_CHANNEL || !message.payload) return;
      const [noticeSchema, version] = message.payload.split(' ');
      if (noticeSchema === schema && version) handlers.onVersion(version);
    });
    next.on('error', () => reopen(next));
    next.on('end', () => reopen(next));
    await next.connect();
    await next.query(`listen ${DATA_VERSION_CHANNEL}`);
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    delayMs = 250;
  };

  const reopen = (broken: pg.Client): void => {
    if (stopped || client !== broken) return;
    client = null;
    broken.removeAllListeners('end');
    void broken.end().catch(() => undefined);
    // At once: a terminated backend (a DBA, a pooler restarting) leaves the server up, and notices
    // sent before the new LISTEN are missed (onReconnect reads the version they would have told).
    schedule(0);
  };

  const schedule = (wait = delayMs): void => {
    if (stopped) return;
    retry = setTimeout(() => {
      open().then(
        () => handlers.onReconnect(),
        (error: unknown) => {
          logger?.debug({ err: error }, 'data-version notices: reconnecting');
          delayMs = Math.min(delayMs * 2, 10_000);
          schedule();
        },
      );
    }, wait);
    retry.unref();
  };

  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = null;
    await last?.end().catch(() => undefined);
  };
}

/** How long a notice waits for the read side to reach its version before the poll is left to find it. */
const READ_SIDE_WAIT_MS = 10_000;

/**
 * Notices come from the primary (a replica delivers none), and a replica replays the import a moment
 * later: a version is passed on only once the database reads go to holds it (`readVersion`), so the
 * read model never builds from a replica that is still behind its notice (it would build the old
 * version again, and again). Reads back off from 20 ms to 500 ms; after READ_SIDE_WAIT_MS the
 * read model's poll (which reads the read side's version every second) takes over.
 */
export function afterReadSideHas(readVersion: () => Promise<string | undefined>, handlers: DataVersionHandlers, logger?: Logger): DataVersionHandlers {
  let target: bigint | null = null;
  let passedOn: bigint | null = null;
  let waiting = false;

  const wait = async (): Promise<void> => {
    waiting = true;
    const started = Date.now();
    try {
      for (let delayMs = 20; target !== null; delayMs = Math.min(delayMs * 2, 500)) {
        const seen = await readVersion().catch(() => undefined);
        if (seen !== undefined && (passedOn === null || BigInt(seen) > passedOn)) {
          passedOn = BigInt(seen);
          handlers.onVersion(seen);
        }
        if (passedOn !== null && passedOn >= target) return;
        if (Date.now() - started >= READ_SIDE_WAIT_MS) {
          logger?.debug({ version: String(target), readSide: seen }, 'data-version notice: the read side has not reached it yet; leaving it to the poll');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    } finally {
      target = null;
      waiting = false;
    }
  };

  return {
    onVersion: (version) => {
      const wanted = BigInt(version);
      if (target === null || wanted > target) target = wanted;
      if (!waiting) void wait();
    },
    onReconnect: handlers.onReconnect,
  };
}
