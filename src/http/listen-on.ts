import type { Server } from 'node:http';
import { StartupError } from '../startup-error.js';

/**
 * Starts `server` listening on host:port. A failure the operator can act on (the port in use, an
 * address this machine does not have, a privileged port) becomes a StartupError of one line that
 * names the address, and `setting` when the listener is not the API's (`METRICS_PORT`).
 */
export async function listenOn(server: Server, host: string, port: number, setting?: string): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    throw new StartupError(`Cannot listen on ${host}:${port}${setting ? ` (${setting})` : ''}: ${listenFailure(error)}`);
  }
}

function listenFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') return 'the port is already in use (another process listens on it)';
  if (code === 'EADDRNOTAVAIL') return 'this machine has no such address';
  if (code === 'EACCES') return 'permission denied (ports below 1024 need privileges)';
  return error instanceof Error ? error.message : String(error);
}
