import type { ServerResponse } from 'node:http';
import { sendJson } from './respond.js';

/** Liveness: the process answers. Never touches the database, so an orchestrator does not restart us for its outage. */
export function sendHealth(res: ServerResponse): void {
  sendJson(res, 200, { status: 'ok' }, { 'Cache-Control': 'no-store' });
}

/** Readiness: the database answers a trivial query. */
export async function sendReadiness(res: ServerResponse, checkReady: () => Promise<boolean>): Promise<void> {
  const ready = await checkReady().catch(() => false);
  sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', database: ready ? 'reachable' : 'unreachable' }, { 'Cache-Control': 'no-store' });
}
