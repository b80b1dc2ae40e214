import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { GetEnveloped } from '../plugins/index.js';
import { GRAPHQL_VARY, NO_STORE, entityTag, matchesIfNoneMatch, publicCacheControl } from './caching-headers.js';
import { CSRF_MESSAGE, isCsrfSafe, requestMediaType } from './csrf.js';
import { executeGraphQL, type GraphQLOutcome } from './execute-graphql.js';
import { negotiateGraphQLMediaType, type GraphQLMediaType } from './negotiate.js';
import { resolvePersistedQuery, type PersistedQueryStore } from './persisted-queries.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { paramsFromBody, paramsFromSearch, type GraphQLParams, type ParamsOutcome } from './request-params.js';
import { answerAge, storedAnswerOfBytes, type AnswerCache, type StoredAnswer } from './answer-cache.js';
import { answerBytes } from './answer-bytes.js';
import type { CallerIdentity } from '../identity/caller-identity.js';
import { countRequest, type UsageRecorder } from '../plugins/use-usage-counts.js';
import type { InFlightLimit } from './in-flight-limit.js';
import { requestError, sendJson, sendRequestError } from './respond.js';
import { httpHeadersFor, httpStatusFor, serializeResult } from './status.js';
import { serviceUnavailable } from '../schema/errors.js';
import { countCacheLookup } from '../telemetry/metrics.js';
import type { RequestRecord } from '../telemetry/request-log.js';

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
  /** The response cache; without it every request executes (answers still carry public caching headers). @default none */
  answers?: AnswerCache | undefined;
  /** Resolves the key of a request answered from the cache (the pipeline resolves its own). */
  identity: CallerIdentity;
  /** Counts requests answered from the cache (the pipeline counts the others). @default none */
  usage?: UsageRecorder | undefined;
  /** This request's access-log record: a hit names the operation that produced its answer. */
  record?: RequestRecord | undefined;
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

  // A GET whose exact URL was answered before, and is still fresh: no parameter is decoded again.
  const urlKeyed = method === 'GET' && options.answers ? options.answers.keyOfText(`GET ${url.search}`) : undefined;
  const urlKey = urlKeyed instanceof Promise ? await urlKeyed : urlKeyed;
  const byUrl = urlKey === undefined ? undefined : options.answers!.local(urlKey);
  if (byUrl && answerAge(byUrl, Date.now()).remainingMs > 0) {
    if (options.record && byUrl.operation) options.record.operationName ??= byUrl.operation;
    const notModified = await sendKnown(req, res, method, mediaType, byUrl, options);
    return countCacheLookup(notModified ? 'revalidated' : 'hit');
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
  const params = parsed.params;

  // The response cache, before anything is parsed: a hit is written from stored bytes.
  const answers = options.answers;
  const keyed = answers?.keyOf(params);
  const key = keyed instanceof Promise ? await keyed : keyed;
  if (answers && key !== undefined) {
    let known = answers.local(key) ?? (await answers.inFlight(key)) ?? (await answers.shared(key));
    // An execution another request started while this one asked Redis. Looked at with no await
    // before `single` below claims the key: misses whose Redis replies came in one read all get to
    // this line in the same turn, and would each start an execution if a turn passed in between.
    const flight = known ? undefined : answers.inFlight(key);
    if (flight) known = await flight;
    if (known) {
      const stale = answerAge(known, Date.now()).remainingMs <= 0;
      if (stale) {
        // Served at once while one request refreshes it in the background (not counted as a request).
        answers.refresh(key, async () => shareable(await execute(req, url, method, params, options, { background: true }), known.operation));
      }
      if (options.record && known.operation) options.record.operationName ??= known.operation;
      if (urlKey !== undefined && answers.local(key) === known) answers.alias(urlKey, known);
      const notModified = await sendKnown(req, res, method, mediaType, known, options);
      return countCacheLookup(notModified ? 'revalidated' : stale ? 'stale' : 'hit');
    }
    countCacheLookup('miss');
  }

  let own: GraphQLOutcome | undefined;
  const run = async () => (own = await execute(req, url, method, params, options));
  if (answers && key !== undefined) {
    const answer = await answers.single(key, async () => shareable(await run(), options.record?.operationName));
    // Only an answer that was kept (not one too large, or of a root field never kept).
    if (answer && urlKey !== undefined && answers.local(key) === answer) answers.alias(urlKey, answer);
    return send(res, method, req, own!, mediaType, answer);
  }
  const outcome = await run();
  send(res, method, req, outcome, mediaType, (await shareable(outcome, options.record?.operationName))?.answer);
}

interface ExecuteOptions {
  /** A refresh of a stale answer run by the service: no caller headers, not counted as a request. */
  background?: boolean;
}

/** Resolves a persisted query, then runs the operation through the pipeline within the in-flight limit. */
async function execute(req: IncomingMessage, url: URL, method: string, sent: GraphQLParams, options: GraphQLRouteOptions, how: ExecuteOptions = {}): Promise<GraphQLOutcome> {
  const resolved = await resolvePersistedQuery(sent, options.persistedQueries);
  if (!resolved.ok) return { result: resolved.error };
  const params = resolved.params;
  if (params.query === undefined) {
    const message = 'Send the operation in the "query" parameter, or a persisted query hash in extensions.persistedQuery.';
    return { result: requestError(message, 'BAD_REQUEST', 400) };
  }
  if (!options.inFlight.tryEnter()) {
    return { result: { errors: [serviceUnavailable(`The service is answering ${options.inFlight.max} requests already. Retry shortly.`)] } };
  }
  try {
    const headers = how.background ? {} : req.headers;
    const helixRequest = { body: params, headers, method, query: how.background ? {} : Object.fromEntries(url.searchParams) };
    const outcome = await executeGraphQL(options.getEnveloped, helixRequest, params, options.logger, {
      timeoutMs: options.executionTimeoutMs,
      background: how.background,
      requestId: how.background ? undefined : options.record?.id,
    });
    // Kept only once it ran (a `data` entry: parsed and validated), so no stored text is junk.
    if (resolved.register && 'data' in outcome.result) await options.persistedQueries.register(resolved.register.hash, resolved.register.text);
    return outcome;
  } finally {
    options.inFlight.leave();
  }
}

/**
 * The answer every caller may share: no errors, and nothing but `data` once the caller's notice is
 * left out. Undefined when the operation's answer is not shareable (introspection, errors).
 */
async function shareable(outcome: GraphQLOutcome, operation: string | undefined): Promise<{ answer: StoredAnswer; keep: boolean } | undefined> {
  const { result, policy } = outcome;
  if (!policy || result.errors || result.data == null) return undefined;
  for (const name in result.extensions) if (name !== 'notice') return undefined;
  // A long list (a whole-world area) is written a slice per turn, so other requests go on meanwhile.
  const answer = storedAnswerOfBytes(await answerBytes(result.data), policy.ttlMs, operation);
  return { answer, keep: policy.keep };
}

/** A cached answer (or another request's, just executed): this caller's notice and count, then the stored bytes. */
async function sendKnown(req: IncomingMessage, res: ServerResponse, method: string, mediaType: GraphQLMediaType, answer: StoredAnswer, options: GraphQLRouteOptions): Promise<boolean> {
  const request = { headers: req.headers, query: req.url?.includes('key=') ? Object.fromEntries(new URL(req.url, 'http://localhost').searchParams) : undefined };
  const found = options.identity.resolve(request);
  const caller = found instanceof Promise ? await found : found;
  if (options.usage) countRequest(options.usage, caller, request);
  return writeAnswer(req, res, method, mediaType, answer, options.identity.notice(caller));
}

/**
 * Writes a shareable answer. Caching: a GET answer with no per-caller notice is public for what
 * remains of its TTL (max-age counts down; `Age` says how old it is); a POST answer is `no-store`
 * (HTTP caches do not keep POST answers; ours keeps it: docs/transport.md); an answer with a notice
 * is meant for this caller alone: `private, no-store`.
 */
function writeAnswer(req: IncomingMessage, res: ServerResponse, method: string, mediaType: GraphQLMediaType, answer: StoredAnswer, notice: string | undefined): boolean {
  const contentType = `${mediaType}; charset=utf-8`;
  if (notice !== undefined) {
    // The stored body is exactly `{"data":...}`: the notice goes in before its last brace.
    const body = Buffer.concat([answer.body.subarray(0, answer.body.length - 1), Buffer.from(`,"extensions":${JSON.stringify({ notice })}}`)]);
    const headers = { 'Content-Type': contentType, 'Content-Length': body.length, 'Cache-Control': `private, ${NO_STORE}`, ...(method === 'GET' ? { Vary: GRAPHQL_VARY } : {}) };
    res.writeHead(200, headers);
    res.end(body);
    return false;
  }
  if (method !== 'GET') {
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': answer.body.length, 'Cache-Control': NO_STORE });
    res.end(answer.body);
    return false;
  }
  const etag = entityTag(answer.tag, mediaType);
  const { ageMs } = answerAge(answer, Date.now());
  const headers = { 'Cache-Control': publicCacheControl({ ttlMs: answer.ttlMs, ageMs }), ETag: etag, Age: String(Math.floor(ageMs / 1000)), Vary: GRAPHQL_VARY };
  if (matchesIfNoneMatch(req, etag)) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': answer.body.length, ...headers });
  res.end(answer.body);
  return false;
}

/** Writes the outcome of an execution: its shareable answer when there is one, else the result with `no-store`. */
function send(res: ServerResponse, method: string, req: IncomingMessage, outcome: GraphQLOutcome, mediaType: GraphQLMediaType, answer?: StoredAnswer): void {
  const { result } = outcome;
  const notice = result.extensions?.['notice'];
  if (answer) return void writeAnswer(req, res, method, mediaType, answer, typeof notice === 'string' ? notice : undefined);
  const status = httpStatusFor(result, mediaType);
  // A notice is meant for this caller alone: `private` tells every cache on the way.
  const control = notice === undefined ? NO_STORE : `private, ${NO_STORE}`;
  const headers = { 'Cache-Control': control, ...httpHeadersFor(result), ...(method === 'GET' ? { Vary: GRAPHQL_VARY } : {}) };
  sendJson(res, status, serializeResult(result), headers, mediaType);
}
