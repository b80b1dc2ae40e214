import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { GetEnveloped } from '../plugins/index.js';
import { GRAPHQL_VARY, NO_STORE, entityTag, matchesIfNoneMatch, publicCacheControl } from './caching-headers.js';
import { CSRF_MESSAGE, isCsrfSafe, requestMediaType } from './csrf.js';
import { executeGraphQL, type GraphQLOutcome } from './execute-graphql.js';
import { negotiateGraphQLMediaType, type GraphQLMediaType } from './negotiate.js';
import { resolvePersistedQuery, type PersistedQueryStore } from './persisted-queries.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { paramsFromBody, paramsFromSearch, type ParamsOutcome } from './request-params.js';
import type { InFlightLimit } from './in-flight-limit.js';
import { sendJson, sendRequestError, sendResult } from './respond.js';
import { httpHeadersFor, httpStatusFor, serializeResult } from './status.js';
import { serviceUnavailable } from '../schema/errors.js';

/** Largest accepted request body: the standard introspection query is ~2 KB, our largest operation under 1 KB. */
export const DEFAULT_MAX_BODY_BYTES = 102_400;

export interface GraphQLRouteOptions {
  getEnveloped: GetEnveloped;
  persistedQueries: PersistedQueryStore;
  logger: Logger;
  /** Largest accepted request body in bytes. @default 102400 */
  maxBodyBytes?: number | undefined;
  /** Executions allowed at once; more are answered 503 (shared by every request of the server). */
  inFlight: InFlightLimit;
  /** Longest a GraphQL execution may take before its request is answered 503. @default no limit */
  executionTimeoutMs?: number | undefined;
}

/**
 * GET, HEAD and POST /graphQL: decide (CSRF, parameters, persisted query), execute, then write with
 * caching headers. HEAD is a GET whose body Node leaves out (HTTP: same status and headers).
 */
export async function handleGraphQL(req: IncomingMessage, res: ServerResponse, url: URL, options: GraphQLRouteOptions): Promise<void> {
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const mediaType = negotiateGraphQLMediaType(req);
  const vary: Record<string, string> = method === 'GET' ? { Vary: GRAPHQL_VARY } : {};
  if (!isCsrfSafe(req)) return sendRequestError(res, CSRF_MESSAGE, 'BAD_REQUEST', 400, { mediaType, headers: vary });

  if (method === 'POST' && requestMediaType(req) !== 'application/json') {
    return sendRequestError(res, 'Send the POST body as JSON with Content-Type: application/json.', 'UNSUPPORTED_MEDIA_TYPE', 415, { mediaType });
  }

  let parsed: ParamsOutcome;
  if (method === 'GET') {
    parsed = paramsFromSearch(url.searchParams);
  } else {
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    try {
      parsed = paramsFromBody(await readBody(req, maxBodyBytes));
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      // The rest of the body is not read: close the connection instead of draining it.
      return sendRequestError(res, `The request body is larger than the limit of ${maxBodyBytes} bytes.`, 'PAYLOAD_TOO_LARGE', 413, {
        mediaType,
        headers: { Connection: 'close' },
        extensions: { maxBodyBytes },
      });
    }
  }
  if (!parsed.ok) return send(res, method, req, { result: parsed.error }, mediaType);

  const resolved = await resolvePersistedQuery(parsed.params, options.persistedQueries);
  if (!resolved.ok) return send(res, method, req, { result: resolved.error }, mediaType);
  const params = resolved.params;
  if (params.query === undefined) {
    const message = 'Send the operation in the "query" parameter, or a persisted query hash in extensions.persistedQuery.';
    return sendRequestError(res, message, 'BAD_REQUEST', 400, { mediaType, headers: vary });
  }

  if (!options.inFlight.tryEnter()) {
    const busy = serviceUnavailable(`The service is answering ${options.inFlight.max} requests already. Retry shortly.`);
    return sendResult(res, { errors: [busy] }, { mediaType, headers: vary });
  }
  try {
    const helixRequest = { body: params, headers: req.headers, method, query: Object.fromEntries(url.searchParams) };
    const outcome = await executeGraphQL(options.getEnveloped, helixRequest, params, options.logger, options.executionTimeoutMs);
    // Kept only once it ran (a `data` entry: parsed and validated), so no stored text is junk.
    if (resolved.register && 'data' in outcome.result) await options.persistedQueries.register(resolved.register.hash, resolved.register.text);
    send(res, method, req, outcome, mediaType);
  } finally {
    options.inFlight.leave();
  }
}

/**
 * Writes a GraphQL response. Caching: only a GET answer that the shared response cache holds, with
 * no errors and no per-caller notice, is public; everything else is `no-store` (errors, POST, and
 * answers carrying a notice, which differ per caller).
 */
function send(res: ServerResponse, method: string, req: IncomingMessage, outcome: GraphQLOutcome, mediaType: GraphQLMediaType): void {
  const { result, freshness } = outcome;
  const status = httpStatusFor(result, mediaType);
  const body = serializeResult(result);
  const notice = result.extensions?.['notice'];
  const publicControl =
    method === 'GET' && status === 200 && !result.errors && notice === undefined && freshness ? publicCacheControl(freshness) : undefined;
  if (!publicControl) {
    // A notice is meant for this caller alone: `private` tells every cache on the way.
    const control = notice === undefined ? NO_STORE : `private, ${NO_STORE}`;
    const headers = { 'Cache-Control': control, ...httpHeadersFor(result), ...(method === 'GET' ? { Vary: GRAPHQL_VARY } : {}) };
    return sendJson(res, status, body, headers, mediaType);
  }
  const etag = entityTag(body, mediaType);
  const headers = { 'Cache-Control': publicControl, ETag: etag, Vary: GRAPHQL_VARY };
  if (matchesIfNoneMatch(req, etag)) {
    res.writeHead(304, headers);
    return void res.end();
  }
  sendJson(res, status, body, headers, mediaType);
}
