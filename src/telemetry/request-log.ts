import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { RequestTarget } from '../request-target.js';

/** What the access log line says about one request, filled in while it is answered. */
export interface RequestRecord {
  /** The caller's X-Request-Id when sane, else a new UUID; echoed in the response's X-Request-Id. */
  id: string;
  /** Its path, route and query, read once: the server dispatches on them, telemetry labels by them. */
  target: RequestTarget;
  /** Name of the GraphQL operation, set by the GraphQL route once the document is known (absent: anonymous, or not GraphQL). */
  operationName?: string | undefined;
  /** The trace this request belongs to, when tracing is on (for finding its spans from the log). */
  traceId?: string | undefined;
}

/**
 * An id a caller or a proxy in front of us sets (nginx's $request_id, a UUID, AWS's
 * `Root=1-…`): printable, no spaces or quotes, at most 128 characters. Anything else is replaced
 * rather than echoed, so a header cannot smuggle text into our logs or responses.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._~:;@/+=,-]{1,128}$/;

/** Paths are cut in the log past this length (a 16 KB URL is still one readable line). */
const MAX_LOGGED_PATH = 256;

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Bytes of the body sent: none for HEAD, 204 and 304; else what Content-Length declared (every route declares it). */
function bodyBytes(req: IncomingMessage, res: ServerResponse): number | undefined {
  if (req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304) return 0;
  const length = Number(res.getHeader('content-length'));
  return Number.isFinite(length) ? length : undefined;
}

/** Starts the record of a request: its id (the server echoes it in the response's X-Request-Id) and its target. */
export function startRequestRecord(req: IncomingMessage): RequestRecord {
  return { id: requestIdOf(req), target: new RequestTarget(req.url) };
}

/**
 * Writes a request's one access-log line when its response is done (or the connection closed before
 * it was; telemetry/observe-requests.ts calls it then): method, path without the query string (GET
 * queries carry whole documents and variables), status, duration, body bytes, request id, operation
 * name. Never headers: X-Api-Key is a credential. Nothing is done when the line's level is off.
 */
export function requestLogWriter(logger: Logger): (req: IncomingMessage, res: ServerResponse, record: RequestRecord, started: number) => void {
  return (req, res, record, started) => {
    // Probes are logged at debug, the rest at info: with info off, so is debug.
    if (!logger.isLevelEnabled('info')) return;
    const sentPath = record.target.sentPath;
    const path = sentPath.length > MAX_LOGGED_PATH ? `${sentPath.slice(0, MAX_LOGGED_PATH)}…` : sentPath;
    // Probes (orchestrators', Prometheus') at debug: src/route-table.ts says which routes are.
    const level = record.target.route?.probe ? 'debug' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const finished = res.writableFinished;
    logger[level](
      {
        reqId: record.id,
        method: req.method,
        path,
        // Absent when the connection closed before any answer was sent.
        status: res.headersSent ? res.statusCode : undefined,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        bytes: finished ? bodyBytes(req, res) : undefined,
        operation: record.operationName,
        traceId: record.traceId,
        // The client went away, or we cut the connection, before the whole response was sent.
        aborted: finished ? undefined : true,
      },
      finished ? 'request completed' : 'request aborted',
    );
  };
}
