import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Stops accepting connections and lets in-flight requests finish: idle kept-alive connections are
 * closed at once, and each busy one as soon as its response is written. Whatever is still open after
 * `graceMs` is cut.
 *
 * `acceptForMs` first keeps the port open and answering for that long (SHUTDOWN_DELAY_MS: the caller
 * reports itself unready meanwhile, so that a balancer probing /ready stops sending here before the
 * port closes). From the start every answer says `Connection: close` and closes its connection once
 * written: a client's pool (an edge's) is told, instead of having a connection just announced as
 * kept alive closed under a request it is about to send on it.
 */
export async function shutdownHttpServer(server: Server, graceMs: number, acceptForMs = 0): Promise<void> {
  server.prependListener('request', closeAfterAnswer);
  if (acceptForMs > 0) await sleep(acceptForMs);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A busy connection becomes idle when its response is written: look again every 50 ms.
  const poll = setInterval(() => server.closeIdleConnections(), 50);
  server.closeIdleConnections();
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await closed;
  } finally {
    clearInterval(poll);
    clearTimeout(cut);
  }
}

function closeAfterAnswer(_req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
}
