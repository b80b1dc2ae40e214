import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { GetEnveloped } from '../plugins/get-enveloped.js';
import { GRAPHQL_VARY, NO_STORE } from './caching-headers.js';
import { CSRF_MESSAGE, isCsrfSafe, requestMediaType } from './csrf.js';
import { GraphQLExecutor, type GraphQLOutcome } from './execute-graphql.js';
import { negotiateGraphQLMediaType } from './negotiate.js';
import { resolvePersistedQuery, type PersistedQueryStore } from './persisted-queries.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { paramsFromBody, paramsFromSearch, type GraphQLParams, type ParamsOutcome } from './request-params.js';
import type { CacheableRequest, Execution, ResponseCache, ShareableAnswer } from './answer-cache/response-cache.js';
import { storedAnswerOfBytes, type Compression } from './answer-cache/stored-answer.js';
import { negotiateContentCoding } from './content-coding.js';
import { answerBytes } from './answer-bytes.js';
import type { BudgetTicket, CallerBudgets } from '../identity/caller-budgets.js';
import type { CallerIdentity } from '../identity/caller-identity.js';
import type { IncomingRequestView } from '../identity/caller.js';
import { SERVICE_CALLER, type RequestCaller } from '../identity/request-caller.js';
import type { UsageRecorder } from '../identity/usage-recorder.js';
import { refusalError, type FairExecutions } from './fair-executions.js';
import type { ResponsePolicies } from './response-policy.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import { requestError, sendRequestError, sendResult } from './respond.js';
import { countLookup, writeStoredAnswer } from './stored-answer-writer.js';
import type { SharedCaches } from './shared-caches.js';
import type { RequestRecord } from '../telemetry/request-log.js';
import type { RequestTarget } from '../request-target.js';
import { countDeprecatedUses } from '../telemetry/metrics.js';
import type { DeprecatedUses } from '../schema/deprecated-uses.js';

/** Largest accepted request body: the standard introspection query is ~2 KB, our largest operation under 1 KB. */
export const DEFAULT_MAX_BODY_BYTES = 102_400;

/** What the GraphQL route depends on: the server's, the same for every request. */
export interface GraphQLRouteOptions {
  getEnveloped: GetEnveloped;
  persistedQueries: PersistedQueryStore;
  logger: Logger;
  /** Largest accepted request body in bytes. @default 102400 */
  maxBodyBytes?: number | undefined;
  /** Executions in fair shares per caller (shared by every request of the server): who waits, who is refused. */
  executions: FairExecutions;
  /** Longest a GraphQL execution may take before its request is answered 503. @default no limit */
  executionTimeoutMs?: number | undefined;
  /** The response cache (NO_RESPONSE_CACHE when off: answers still carry public caching headers). */
  responseCache: ResponseCache;
  /** How long answers may be shared, from the executed document. */
  policies: ResponsePolicies;
  /** Resolves the caller of each request, once, at this edge. */
  identity: CallerIdentity;
  /** Budgets per caller (RATE_LIMIT_KEY, RATE_LIMIT_ANONYMOUS): executions are charged their cost. @default none */
  budgets?: CallerBudgets | undefined;
  /** Counts requests per caller (cache hits and executions alike), and their uses of deprecated coordinates. @default none */
  usage?: UsageRecorder | undefined;
  /** Finds the deprecated parts of the schema an executed operation used (counted in usage and /metrics). @default none looked for */
  deprecations?: DeprecatedUses | undefined;
  /** What public answers tell CDNs (tags, outdated answers). @default no tags, never outdated */
  sharedCaches?: SharedCaches | undefined;
}

/** One GraphQL request as HTTP brought it, read once at the edge. */
interface GraphQLHttpRequest {
  req: IncomingMessage;
  target: RequestTarget;
  /** GET (HEAD too) or POST. */
  method: string;
  /** This request's access-log record: names the operation. */
  record: RequestRecord | undefined;
}

/** Whose share an execution draws on: the caller's, or the service's for a background refresh. */
interface ExecutionShare {
  caller: RequestCaller;
  budget: BudgetTicket | undefined;
}

/**
 * GET, HEAD and POST /graphQL, built once when the server starts: decide (CSRF, parameters, who is
 * calling), then one lookup of the response cache, which calls back once to execute the operation
 * (persisted query, pipeline) on a miss; write last. HEAD is a GET whose body Node leaves out (HTTP:
 * same status and headers).
 */
export class GraphQLRoute {
  private readonly options: GraphQLRouteOptions;
  private readonly executor: GraphQLExecutor;
  private readonly maxBodyBytes: number;

  constructor(options: GraphQLRouteOptions) {
    this.options = options;
    this.executor = new GraphQLExecutor(options);
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  async handle(req: IncomingMessage, res: ServerResponse, target: RequestTarget, record: RequestRecord | undefined): Promise<void> {
    const options = this.options;
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const mediaType = negotiateGraphQLMediaType(req);
    // A POST answer is sent in the client's content coding too (no HTTP cache keeps it, but it varies).
    const vary: Record<string, string> = { Vary: method === 'GET' ? GRAPHQL_VARY : 'Accept-Encoding' };
    if (!isCsrfSafe(req)) return sendRequestError(res, CSRF_MESSAGE, 'BAD_REQUEST', 400, { mediaType, headers: vary });

    if (method === 'POST' && requestMediaType(req) !== 'application/json') {
      return sendRequestError(res, 'Send the POST body as JSON with Content-Type: application/json.', 'UNSUPPORTED_MEDIA_TYPE', 415, { mediaType });
    }

    let parsed: ParamsOutcome | undefined;
    if (method === 'POST') {
      try {
        parsed = paramsFromBody(await readBody(req, this.maxBodyBytes));
      } catch (error) {
        if (!(error instanceof BodyTooLargeError)) throw error;
        // The rest of the body is not read: close the connection instead of draining it.
        return sendRequestError(res, `The request body is larger than the limit of ${this.maxBodyBytes} bytes.`, 'PAYLOAD_TOO_LARGE', 413, {
          mediaType,
          headers: { Connection: 'close' },
          extensions: { maxBodyBytes: this.maxBodyBytes },
        });
      }
    }
    // Who is calling: once per request, for a hit and an execution alike.
    const view: IncomingRequestView = {
      headers: req.headers,
      query: target.search.includes('key=') ? Object.fromEntries(target.searchParams) : undefined,
      socketAddress: req.socket.remoteAddress,
    };
    const resolved = options.identity.callerOf(view);
    const caller = resolved instanceof Promise ? await resolved : resolved;
    const budget = options.budgets?.ticketOf(caller);

    const answered = await options.responseCache.lookupOrExecute(new GraphQLExchange(this, { req, target, method, record }, parsed, { caller, budget }));
    // Only to a caller with a budget: its standing on every answer, hits and 304s included.
    const headers = budget ? { ...vary, ...rateLimitHeaders(budget) } : vary;
    // Asked for in a POST's `extensions.cost`: never in a GET answer's body, which caches may share.
    const cost = budget && parsed?.ok && parsed.params.extensions?.['cost'] === true ? { cost: budget.costExtension() } : undefined;
    const write = { method, mediaType, notice: caller.notice, privateExtensions: cost, headers, lookup: answered.lookup, sharedCaches: options.sharedCaches, version: answered.version };

    if (answered.from === 'cache') {
      if (record && answered.answer.operation) record.operationName ??= answered.answer.operation;
      // What the request that produced the answer used: every request it answers sent the same.
      this.countRequest(caller, answered.answer.deprecatedUses);
      return writeStoredAnswer(req, res, answered.answer, write);
    }
    const outcome = answered.value;
    if (record && outcome.operationName) record.operationName = outcome.operationName;
    // Refused by its budget: stopped before execution, so not the caller's request either.
    if (outcome.executed && !budget?.refused) {
      this.countRequest(caller, outcome.deprecatedUses);
      options.usage?.recordCost(caller, { points: outcome.cost ?? 0 });
    } else if (outcome.result.errors?.[0]?.extensions?.['code'] === 'RATE_LIMITED') options.usage?.recordCost(caller, 'refused');
    if (answered.answer) return writeStoredAnswer(req, res, answered.answer, write);
    countLookup(answered.lookup);
    // A notice is meant for this caller alone: `private` tells every cache on the way.
    const control = outcome.result.extensions?.['notice'] === undefined ? NO_STORE : `private, ${NO_STORE}`;
    const result = cost ? { ...outcome.result, extensions: { ...outcome.result.extensions, ...cost } } : outcome.result;
    sendResult(res, result, { headers: { 'Cache-Control': control, ...headers }, mediaType });
  }

  /**
   * Resolves a persisted query, then runs the operation through the pipeline in its caller's turn
   * (fair-executions.ts). `background`: a refresh of a stale answer run by the service (no caller
   * headers; the service's own share).
   */
  async execute(http: GraphQLHttpRequest, sent: GraphQLParams, { caller, budget }: ExecutionShare, background: boolean): Promise<GraphQLOutcome> {
    const options = this.options;
    const resolved = await resolvePersistedQuery(sent, options.persistedQueries);
    if (!resolved.ok) return { result: resolved.error, executed: false };
    const params = resolved.params;
    const query = params.query;
    if (query === undefined) {
      const message = 'Send the operation in the "query" parameter, or a persisted query hash in extensions.persistedQuery.';
      return { result: requestError(message, 'BAD_REQUEST', 400), executed: false };
    }
    // A caller whose budget cannot pay one point is refused now, not after waiting for its turn.
    const spent = budget?.refuseIfSpent();
    if (budget && spent) return { result: { errors: [budget.refusal(spent)] }, executed: false };
    const { req, method } = http;
    // A refresh of a stale answer has no client to leave.
    const gone = background ? undefined : () => req.socket.destroyed;
    // Helix reads only the method and the headers (Accept) of its request: the parameters reach it decoded.
    const helixRequest = { headers: background ? {} : req.headers, method, query: undefined };
    const executed = await options.executions.run(caller, async (waitedMs: number): Promise<GraphQLOutcome> => {
      const edge = { caller, requestId: background ? undefined : http.record?.id, persistedHash: resolved.hash, budget };
      // The time limit is the request's: what it waited for its turn counts.
      const timeoutMs = options.executionTimeoutMs === undefined ? undefined : Math.max(1, options.executionTimeoutMs - waitedMs);
      const outcome = await this.executor.execute(helixRequest, params, edge, timeoutMs);
      // Kept only once it ran (a `data` entry: parsed and validated), so no stored text is junk.
      if (resolved.registers && resolved.hash && 'data' in outcome.result) await options.persistedQueries.register(resolved.hash, query);
      return outcome;
    }, gone);
    return executed.ran ? executed.value : { result: { errors: [refusalError(executed.refusal, options.executions)] }, executed: false };
  }

  /** Counts one request of its caller (usage_counts), and each deprecated coordinate it used (deprecated_uses, /metrics). */
  private countRequest(caller: RequestCaller, deprecatedUses: readonly string[] | undefined): void {
    if (deprecatedUses !== undefined && deprecatedUses.length > 0) countDeprecatedUses(deprecatedUses);
    this.options.usage?.record(caller, deprecatedUses);
  }
}

/**
 * One GraphQL request as the response cache sees it (a class, not closures: nothing is created per
 * request but the object itself, on the hottest path there is, a hit).
 */
class GraphQLExchange implements CacheableRequest<GraphQLOutcome> {
  readonly requestText: string | undefined;

  constructor(
    private readonly route: GraphQLRoute,
    private readonly http: GraphQLHttpRequest,
    /** A POST's parameters, read from its body; a GET's are decoded only when its exact URL is not answered from the cache. */
    private parsed: ParamsOutcome | undefined,
    private readonly share: ExecutionShare,
  ) {
    this.requestText = http.method === 'GET' ? http.target.search : undefined;
  }

  cacheKey(): string | undefined {
    const outcome = this.params();
    return outcome.ok ? graphQLCacheKey(outcome.params) : undefined;
  }

  async execute(background: boolean): Promise<Execution<GraphQLOutcome>> {
    const outcome = this.params();
    // Not shareable, so never a background refresh: a request error of this request.
    if (!outcome.ok) return { value: { result: outcome.error, executed: false } };
    const executed = await this.route.execute(this.http, outcome.params, background ? SERVICE_SHARE : this.share, background);
    return { value: executed, shareable: await shareable(executed, background ? undefined : this.codingSent()) };
  }

  /** The coding this request's answer goes out in, if compressed (a notice's answer is sent as it is). */
  private codingSent(): Compression | undefined {
    if (this.share.caller.notice !== undefined) return undefined;
    const coding = negotiateContentCoding(this.http.req.headers['accept-encoding']);
    return coding === 'identity' ? undefined : coding;
  }

  private params(): ParamsOutcome {
    return (this.parsed ??= paramsFromSearch(this.http.target.searchParams));
  }
}

/** A background refresh's share: the service's own, never charged. */
const SERVICE_SHARE: ExecutionShare = { caller: SERVICE_CALLER, budget: undefined };

/**
 * Everything a GraphQL answer depends on besides the data version; nothing per caller (the key only
 * changes the notice, `extensions.cost` only asks for the caller's figures beside the same data).
 */
function graphQLCacheKey(params: GraphQLParams): string {
  return (
    `graphql\u0000${params.query ?? ''}\u0000${params.documentId ?? ''}\u0000${params.operationName ?? ''}` +
    `\u0000${params.variables ? JSON.stringify(params.variables) : ''}\u0000${meaningfulExtensions(params.extensions)}`
  );
}

function meaningfulExtensions(extensions: GraphQLParams['extensions']): string {
  if (!extensions) return '';
  if (!('cost' in extensions)) return JSON.stringify(extensions);
  const { cost: _cost, ...others } = extensions;
  return Object.keys(others).length === 0 ? '' : JSON.stringify(others);
}

/**
 * The answer every caller may share: no errors, and nothing but `data` once the caller's notice is
 * left out. Undefined when the operation's answer is not shareable (introspection, errors).
 */
async function shareable(outcome: GraphQLOutcome, coding: Compression | undefined): Promise<ShareableAnswer | undefined> {
  const { result, policy } = outcome;
  if (!policy || result.errors || result.data == null) return undefined;
  for (const name in result.extensions) if (name !== 'notice') return undefined;
  // A long list (a whole-world area) is written a slice per turn, so other requests go on meanwhile,
  // and compressed in the coding of the request that executed it as it is written.
  const bytes = await answerBytes(result.data, coding);
  const answer = storedAnswerOfBytes(bytes, { ttlMs: policy.ttlMs, operation: outcome.operationName, cdnTags: policy.tags, deprecatedUses: outcome.deprecatedUses });
  return { answer, keep: policy.keep };
}
