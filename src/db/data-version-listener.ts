import pg from 'pg';
import type { Logger } from '../logger.js';

/** The channel the `calendar_state` trigger announces new data versions on (payload: `<schema> <version>`). */
export const DATA_VERSION_CHANNEL = 'calendar_data_version';

export interface DataVersionHandlers {
  onVersion: (version: string) => void;
  /** Called after a lost connection is back: notices sent meanwhile were missed. */
  onReconnect: () => void;
}

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
    schedule();
  };

  const schedule = (): void => {
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
    }, delayMs);
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
