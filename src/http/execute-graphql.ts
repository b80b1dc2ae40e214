import { processRequest, type Request as HelixRequest } from 'graphql-helix';
import { GraphQLError, getOperationAST, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Logger } from '../logger.js';
import type { GraphQLContext } from '../schema/context.js';
import type { GetEnveloped } from '../plugins/get-enveloped.js';
import type { EdgeContext } from '../plugins/edge-context.js';
import { serviceUnavailable } from '../api-error.js';
import { operationCost } from '../domain/operation-cost.js';
import type { ResponsePolicies, ResponsePolicy } from './response-policy.js';
import type { DeprecatedUses } from '../schema/deprecated-uses.js';
import type { GraphQLParams } from './request-params.js';

export type { HelixRequest };

export interface GraphQLOutcome {
  /** The GraphQL response; every error carries `extensions.code`. */
  result: ExecutionResult;
  /** How long the answer may be shared, when the operation executed and its answer may be (without errors). */
  policy?: ResponsePolicy | undefined;
  /** Whether the operation reached execution (parsed, validated, context built): such a request counts as the caller's. */
  executed: boolean;
  /** The operation's name, once its document was parsed (for the access log). */
  operationName?: string | undefined;
  /** What the executed operation costs (domain/operation-cost.ts), once it reached execution: `calendar usage --callers`. */
  cost?: number | undefined;
  /** The deprecated schema coordinates the executed operation used (its text and variables), when it executed. */
  deprecatedUses?: readonly string[] | undefined;
}

/**
 * Our one seam around graphql-helix, so that it can be replaced: Envelop supplies
 * parse/validate/context/execute, Helix runs them, and everything the HTTP layer needs afterwards
 * comes back in the outcome (nothing is read back from the context). Helix reports parse and
 * validation failures as HTTP errors with no code; we turn them into GraphQL errors with the codes
 * the spec names (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED) and the status each carries
 * (status.ts picks the response's status from them). To tell the two apart, and to know what
 * executed, the seam watches Envelop's parse and execute as Helix calls them.
 *
 * `timeoutMs` bounds the whole execution: a database that stops answering (frozen, a dead peer
 * without a reset) would otherwise hold the request until TCP gives up. The answer is then a 503;
 * the abandoned execution finishes (or fails) in the background and is ignored.
 */
export interface ExecuteGraphQLOptions {
  /** How long answers may be shared, from the executed document. */
  policies: ResponsePolicies;
  /** Bound on the whole execution (see above). @default none */
  timeoutMs?: number | undefined;
  /** Finds the deprecated parts of the schema an executed operation used. @default none looked for */
  deprecations?: DeprecatedUses | undefined;
}

export async function executeGraphQL(
  getEnveloped: GetEnveloped,
  request: HelixRequest,
  params: GraphQLParams,
  edge: EdgeContext,
  logger: Logger,
  { policies, timeoutMs, deprecations }: ExecuteGraphQLOptions,
): Promise<GraphQLOutcome> {
  const enveloped = getEnveloped({ ...edge });
  const { validate, schema } = enveloped;
  const seen: Seen = { parseFailed: false, parsedName: undefined, executed: undefined };
  const execution = processRequest({
    operationName: params.operationName,
    query: params.query,
    variables: params.variables,
    extensions: params.extensions,
    request,
    schema,
    parse: watchedParse(enveloped.parse, seen),
    validate,
    execute: watchedExecute(enveloped.execute, seen),
    contextFactory: builtContext(enveloped.contextFactory),
  });
  const outcome = timeoutMs === undefined ? await execution : await withDeadline(execution, timeoutMs);
  const { parseFailed, parsedName, executed } = seen;
  const operationName = executed ? (operationNameOf(executed.document, executed.operationName) ?? parsedName) : parsedName;
  const cost = executed ? operationCost(executed.document, executed.operationName, executed.variableValues) : undefined;
  // Known once per document; per request only the variables that can set something deprecated are looked at.
  const deprecatedUses = executed && deprecations?.usesOf(schema, executed.document, executed.operationName, executed.variableValues);
  const ran = { executed: executed !== undefined, operationName, cost, deprecatedUses };
  if (outcome === DEADLINE_PASSED) {
    const message = `The request did not finish within ${timeoutMs} ms: the calendar database is slow or unreachable. Retry shortly.`;
    return { result: { errors: [serviceUnavailable(message)] }, ...ran };
  }
  if (outcome.type !== 'RESPONSE') {
    return { result: { errors: [withCode(new GraphQLError('Subscriptions and incremental delivery are not supported.'), 'BAD_REQUEST', 400)] }, ...ran };
  }
  const payload = outcome.payload;
  if (outcome.status === 200) {
    // Errors raised while coercing variables have no code of their own: they are bad input.
    const errors = payload.errors?.map((e) => (e.extensions?.['code'] ? e : withCode(e, payload.data === undefined ? 'BAD_USER_INPUT' : 'INTERNAL_SERVER_ERROR')));
    const policy = executed ? boundedPolicy(policies.policyOf(executed.document, executed.operationName ?? undefined), executed.contextValue) : undefined;
    return { result: errors ? { ...payload, errors } : payload, policy, ...ran };
  }
  if (outcome.status >= 500) {
    // Helix turns an unexpected throw (context building, a plugin) into a 500 carrying its message.
    logger.error({ errors: payload.errors?.map((e) => e.originalError ?? e), reqId: edge.requestId }, 'graphql request failed');
    return { result: { errors: [withCode(new GraphQLError('Internal server error: the failure has been logged.'), 'INTERNAL_SERVER_ERROR', 500)] }, ...ran };
  }
  const code = parseFailed ? 'GRAPHQL_PARSE_FAILED' : codeForHelixError(payload.errors ?? [], outcome.status);
  // Spec, errors table: a query that fails validation is a 400 (our limits are validation too).
  const status = outcome.status === 405 ? 405 : 400;
  const errors = (payload.errors ?? []).map((e) => withCode(e, (e.extensions?.['code'] as string | undefined) ?? code, status));
  return { result: { errors }, ...ran };
}

/** What the seam saw of Envelop's parse and execute as Helix called them. */
interface Seen {
  parseFailed: boolean;
  parsedName: string | undefined;
  executed: Pick<ExecutionArgs, 'document' | 'operationName' | 'contextValue' | 'variableValues'> | undefined;
}

function watchedParse(parse: ReturnType<GetEnveloped>['parse'], seen: Seen): (source: string) => DocumentNode {
  return (source) => {
    try {
      const document = parse(source);
      seen.parsedName = operationNameOf(document);
      return document;
    } catch (error) {
      seen.parseFailed = true;
      throw error;
    }
  };
}

function watchedExecute(execute: ReturnType<GetEnveloped>['execute'], seen: Seen): ReturnType<GetEnveloped>['execute'] {
  // graphql-helix calls execute with one ExecutionArgs object.
  return (args: ExecutionArgs) => {
    seen.executed = args;
    return execute(args);
  };
}

function builtContext(contextFactory: ReturnType<GetEnveloped>['contextFactory']): () => ReturnType<ReturnType<GetEnveloped>['contextFactory']> {
  return () => contextFactory();
}

/**
 * The response cache policy of the executed operation, shortened to what its answer says about
 * itself: an answer bound to a moment (a `Filter.when` window's end, `freshUntil`) is fresh no longer,
 * and not shareable at all once that moment has passed.
 */
function boundedPolicy(policy: ResponsePolicy | null, contextValue: unknown): ResponsePolicy | undefined {
  if (!policy) return undefined;
  const { freshUntil, now, answerTags } = contextValue as Partial<Pick<GraphQLContext, 'freshUntil' | 'now' | 'answerTags'>>;
  // The execution's own tags (the event a lookup found) beside its root fields'.
  const added = answerTags?.values() ?? [];
  const tagged = added.length === 0 ? policy : { ...policy, tags: [...new Set([...added, ...policy.tags])] };
  const until = freshUntil && now ? freshUntil.instant() : null;
  if (!until || !now) return tagged;
  const ttlMs = Math.min(policy.ttlMs, until.getTime() - now.getTime());
  return ttlMs > 0 ? { ...tagged, ttlMs } : undefined;
}

function operationNameOf(document: DocumentNode, operationName?: string | null): string | undefined {
  return getOperationAST(document, operationName)?.name?.value;
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
