/**
 * Telling a database that cannot answer now (restarting, failing over, unreachable, overloaded, too
 * slow) from a query that is wrong. The first kind is the service's condition, not the caller's: it
 * becomes a 503 with Retry-After and is logged once per episode, never a stack per request.
 */

/** Socket-level failures: the server is down, restarting or unreachable. */
const UNREACHABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that cannot serve now: admin_shutdown (a terminated backend, a fast
 * shutdown), crash_shutdown, cannot_connect_now (starting up, recovering), query_canceled (our
 * statement_timeout), too_many_connections and the other insufficient-resources states.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P05', '57014', '53000', '53100', '53200', '53300', '53400']);

/** pg and pg-pool report a lost or never-made connection by message only. */
const CONNECTION_LOST_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'is not queryable',
  'Client was closed',
  'Cannot use a pool after calling end on the pool',
];

/** Failures that waiting will not mend: a wrong password or user, a database or host that does not exist. */
const PERMANENT_SQLSTATES = new Set(['28P01', '28000', '3D000', '42501']);
const PERMANENT_SOCKET_CODES = new Set(['ENOTFOUND']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function causes(error: unknown): unknown[] {
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  const nested: readonly unknown[] = error instanceof AggregateError ? error.errors : [];
  return [error, ...nested];
}

/** Whether `error` means the database cannot answer now (as opposed to a bug or a bad statement). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causes(error).some((e) => {
    const code = codeOf(e);
    if (code !== undefined && (UNREACHABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))) return true;
    const message = e instanceof Error ? e.message : '';
    return CONNECTION_LOST_MESSAGES.some((m) => message.includes(m));
  });
}

/** Why a connection that was open was lost, as metrics label it. */
export type ConnectionLossReason = 'admin_shutdown' | 'crash_shutdown' | 'socket_reset' | 'connection_terminated';

/**
 * Why `error` says the statement's connection is gone while the server may well be up: its backend was
 * terminated (57P01: `pg_terminate_backend`, a pooler or a managed database's maintenance; 57P02:
 * another backend crashed), or the socket was reset or closed under it. A fresh connection may answer
 * at once; undefined for every other failure (a refused connection, a timeout, a bad statement).
 */
export function connectionLossReason(error: unknown): ConnectionLossReason | undefined {
  for (const e of causes(error)) {
    const code = codeOf(e);
    if (code === '57P01') return 'admin_shutdown';
    if (code === '57P02') return 'crash_shutdown';
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'socket_reset';
    const message = e instanceof Error ? e.message : '';
    // Not pg's "Connection terminated due to connection timeout": a database that does not answer is an outage.
    if ((message.includes('Connection terminated') && !message.includes('timeout')) || message.includes('is not queryable')) return 'connection_terminated';
  }
  return undefined;
}

/** Whether connecting failed in a way that retrying cannot fix (credentials, database name, host name). */
export function isPermanentConnectionError(error: unknown): boolean {
  return causes(error).some((e) => {
    const code = codeOf(e);
    return code !== undefined && (PERMANENT_SQLSTATES.has(code) || PERMANENT_SOCKET_CODES.has(code));
  });
}

/** One line for the log or the terminal: the driver's message and its code, never a stack. */
export function describeDatabaseError(error: unknown): string {
  for (const e of causes(error)) {
    const message = e instanceof Error ? e.message : String(e);
    if (message) {
      const code = codeOf(e);
      return code && !message.includes(code) ? `${message} (${code})` : message;
    }
  }
  return codeOf(error) ?? 'unknown error';
}
