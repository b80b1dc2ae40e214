import type { ServerResponse } from 'node:http';
import { RETRY_AFTER_SECONDS } from '../api-error.js';
import { sendJson } from './respond.js';

/** What /ready reports. */
export interface Readiness {
  ready: boolean;
  database: 'reachable' | 'unreachable';
  /** How the database schema compares with what this code needs. */
  schema: 'current' | 'newer' | 'behind' | 'unknown';
  /** Why it is not ready, in one line. */
  reason?: string | undefined;
}

/** Liveness: the process answers. Never touches the database, so an orchestrator does not restart us for its outage. */
export function sendHealth(res: ServerResponse): void {
  sendJson(res, 200, { status: 'ok' }, { 'Cache-Control': 'no-store' });
}

/**
 * Readiness: 200 when requests can be answered (the database answers, and its schema is at least
 * what the code needs), 503 with Retry-After otherwise, so a load balancer sends traffic elsewhere.
 */
export async function sendReadiness(res: ServerResponse, checkReady: () => Promise<Readiness>): Promise<void> {
  // A check that throws says nothing about the database: report it unready, without its internals.
  const readiness = await checkReady().catch(
    (): Readiness => ({ ready: false, database: 'unreachable', schema: 'unknown', reason: 'the readiness check failed' }),
  );
  const { ready, ...details } = readiness;
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...(ready ? {} : { 'Retry-After': String(RETRY_AFTER_SECONDS) }) };
  sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', ...details }, headers);
}
