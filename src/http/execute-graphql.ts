import { processRequest, type Request as HelixRequest } from 'graphql-helix';
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Logger } from '../logger.js';
import type { GraphQLContext } from '../schema/context.js';
import type { GetEnveloped } from '../plugins/index.js';
import { responsePolicy, type ResponsePolicy } from '../plugins/use-response-cache-policy.js';
import { serviceUnavailable } from '../schema/errors.js';
import type { GraphQLParams } from './request-params.js';

export type { HelixRequest };

export interface GraphQLOutcome {
  /** The GraphQL response; every error carries `extensions.code`. */
  result: ExecutionResult;
  /** How long the answer may be shared, when the operation executed and its answer may be (without errors). */
  policy?: ResponsePolicy | undefined;
}

/**
 * Our one seam around graphql-helix: Envelop supplies parse/validate/context/execute, Helix runs
 * them. Helix reports parse and validation failures as HTTP errors; we turn them into GraphQL errors
 * with the codes the spec names (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED) and the status each
 * carries (status.ts picks the response's status from them).
 *
 * `timeoutMs` bounds the whole execution: a database that stops answering (frozen, a dead peer
 * without a reset) would otherwise hold the request until TCP gives up. The answer is then a 503;
 * the abandoned execution finishes (or fails) in the background and is ignored.
 */
export interface ExecuteGraphQLOptions {
  /** Bound on the whole execution (see above). @default none */
  timeoutMs?: number | undefined;
  /** A refresh of a cached answer run by the service, not a caller's request (usage counts skip it). */
  background?: boolean | undefined;
  /** The request's id (X-Request-Id), for the log lines of failures it meets. */
  requestId?: string | undefined;
}

export async function executeGraphQL(
  getEnveloped: GetEnveloped,
  request: HelixRequest,
  params: GraphQLParams,
  logger: Logger,
  { timeoutMs, background = false, requestId }: ExecuteGraphQLOptions = {},
): Promise<GraphQLOutcome> {
  // The plugins read the request (key, page URL, id) from here, and leave the cache policy keyed by it.
  const context: Record<string, unknown> = { request, ...(background ? { background } : {}), ...(requestId ? { requestId } : {}) };
  const { parse, validate, contextFactory, execute, schema } = getEnveloped(context);
  let parseFailed = false;
  const execution = processRequest({
    operationName: params.operationName,
    query: params.query,
    variables: params.variables,
    extensions: params.extensions,
    request,
    schema,
    parse: (source: string) => {
      try {
        return parse(source);
      } catch (error) {
        parseFailed = true;
        throw error;
      }
    },
    validate,
    execute,
    contextFactory: () => contextFactory(),
  });
  const outcome = timeoutMs === undefined ? await execution : await withDeadline(execution, timeoutMs);
  if (outcome === DEADLINE_PASSED) {
    const message = `The request did not finish within ${timeoutMs} ms: the calendar database is slow or unreachable. Retry shortly.`;
    return { result: { errors: [serviceUnavailable(message)] } };
  }
  if (outcome.type !== 'RESPONSE') {
    return { result: { errors: [withCode(new GraphQLError('Subscriptions and incremental delivery are not supported.'), 'BAD_REQUEST', 400)] } };
  }
  const payload = outcome.payload;
  if (outcome.status === 200) {
    // Errors raised while coercing variables have no code of their own: they are bad input.
    const errors = payload.errors?.map((e) => (e.extensions?.['code'] ? e : withCode(e, payload.data === undefined ? 'BAD_USER_INPUT' : 'INTERNAL_SERVER_ERROR')));
    return { result: errors ? { ...payload, errors } : payload, policy: boundedPolicy(context) };
  }
  if (outcome.status >= 500) {
    // Helix turns an unexpected throw (context building, a plugin) into a 500 carrying its message.
    logger.error({ errors: payload.errors?.map((e) => e.originalError ?? e), reqId: requestId }, 'graphql request failed');
    return { result: { errors: [withCode(new GraphQLError('Internal server error: the failure has been logged.'), 'INTERNAL_SERVER_ERROR', 500)] } };
  }
  const code = parseFailed ? 'GRAPHQL_PARSE_FAILED' : codeForHelixError(payload.errors ?? [], outcome.status);
  // Spec, errors table: a query that fails validation is a 400 (our limits are validation too).
  const status = outcome.status === 405 ? 405 : 400;
  const errors = (payload.errors ?? []).map((e) => withCode(e, (e.extensions?.['code'] as string | undefined) ?? code, status));
  return { result: { errors } };
}

/**
 * The response cache policy of the executed operation, shortened to what its answer says about
 * itself: an answer bound to a moment (a `Filter.when` window's end, `freshUntil`) is fresh no longer,
 * and not shareable at all once that moment has passed.
 */
function boundedPolicy(context: Record<string, unknown>): ResponsePolicy | undefined {
  const policy = responsePolicy(context);
  const { freshUntil, now } = context as Partial<Pick<GraphQLContext, 'freshUntil' | 'now'>>;
  const until = policy && freshUntil && now ? freshUntil.instant() : null;
  if (!policy || !until || !now) return policy;
  const ttlMs = Math.min(policy.ttlMs, until.getTime() - now.getTime());
  return ttlMs > 0 ? { ...policy, ttlMs } : undefined;
}

function codeForHelixError(errors: readonly GraphQLError[], status: number): string {
  if (status === 405) return 'METHOD_NOT_ALLOWED';
  // Helix also answers 400 to a missing query and to an unknown operation name: no source location.
  return errors.some((e) => e.nodes || e.locations) ? 'GRAPHQL_VALIDATION_FAILED' : 'BAD_REQUEST';
}

function withCode(error: GraphQLError, code: string, status?: number): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    // A status the error already carries (a limit's 413, say) is kept.
    extensions: { ...(status === undefined ? {} : { http: { status } }), ...error.extensions, code },
  });
}

const DEADLINE_PASSED = Symbol('deadline passed');

function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T | typeof DEADLINE_PASSED> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof DEADLINE_PASSED>((resolve) => {
    timer = setTimeout(() => resolve(DEADLINE_PASSED), timeoutMs);
  });
  // A late failure of the abandoned work is not an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
