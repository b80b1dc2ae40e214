import type { Server } from 'node:http';

/**
 * Stops accepting connections and lets in-flight requests finish: idle kept-alive connections are
 * closed at once, and each busy one as soon as its response is written. Whatever is still open after
 * `graceMs` is cut.
 */
export async function shutdownHttpServer(server: Server, graceMs: number): Promise<void> {
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
