import { processRequest, type Request as HelixRequest } from 'graphql-helix';
import { GraphQLError, getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
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

export interface GraphQLExecutorOptions {
  getEnveloped: GetEnveloped;
  logger: Logger;
  /** How long answers may be shared, from the executed document. */
  policies: ResponsePolicies;
  /** Finds the deprecated parts of the schema an executed operation used. @default none looked for */
  deprecations?: DeprecatedUses | undefined;
}

/**
 * Our one seam around graphql-helix, so that it can be replaced, built once per server: Envelop
 * supplies parse/validate/context/execute, Helix runs them, and everything the HTTP layer needs
 * afterwards comes back in the outcome (nothing is read back from the context). Errors get their
 * code where they are born: the parse and validate given to Helix give their errors the codes the
 * spec names (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, a limit's own) with the status each
 * carries (status.ts picks the response's status from them); what Helix itself refuses (no operation
 * of that name, a mutation over GET) has its status and no code, so it gets the code of its status.
 * What executed is what Helix hands the context factory (document, operation, variables).
 */
export class GraphQLExecutor {
  constructor(private readonly options: GraphQLExecutorOptions) {}

  /**
   * Runs one operation; `timeoutMs` bounds the whole execution: a database that stops answering
   * (frozen, a dead peer without a reset) would otherwise hold the request until TCP gives up. The
   * answer is then a 503; the abandoned execution finishes (or fails) in the background and is ignored.
   */
  async execute(request: HelixRequest, params: GraphQLParams, edge: EdgeContext, timeoutMs: number | undefined): Promise<GraphQLOutcome> {
    const enveloped = this.options.getEnveloped({ ...edge });
    const { schema } = enveloped;
    // Helix's own account of the operation it is about to execute, as it builds its context.
    let started: HelixExecutionContext | undefined;
    const execution = processRequest({
      operationName: params.operationName,
      query: params.query,
      variables: params.variables,
      extensions: params.extensions,
      request,
      schema,
      parse: (source: string) => parseWithCode(enveloped.parse, source),
      validate: (...args: Parameters<typeof enveloped.validate>) => validateWithCode(enveloped.validate(...args)),
      execute: enveloped.execute,
      // Envelop's factory merges an argument into the context: it gets none, only the edge's.
      contextFactory: (context: HelixExecutionContext) => {
        started = context;
        return enveloped.contextFactory();
      },
    });
    const outcome = timeoutMs === undefined ? await execution : await withDeadline(execution, timeoutMs);
    const document = started?.document ?? (outcome === DEADLINE_PASSED ? undefined : outcome.document);
    // Helix found the operation it executes; of a document that did not get that far, the name of its only one.
    const operationName = started ? started.operation.name?.value : document && getOperationAST(document)?.name?.value;
    const cost = started && operationCost(started.document, started.operationName, started.variables);
    // Known once per document; per request only the variables that can set something deprecated are looked at.
    const deprecatedUses = started && this.options.deprecations?.usesOf(schema, started.document, started.operationName, started.variables);
    const ran = { executed: started !== undefined, operationName, cost, deprecatedUses };
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
      const policy = started ? boundedPolicy(this.options.policies.policyOf(started.document, started.operationName), outcome.context) : undefined;
      return { result: errors ? { ...payload, errors } : payload, policy, ...ran };
    }
    if (outcome.status >= 500) {
      // Helix turns an unexpected throw (context building, a plugin) into a 500 carrying its message.
      this.options.logger.error({ errors: payload.errors?.map((e) => e.originalError ?? e), reqId: edge.requestId }, 'graphql request failed');
      return { result: { errors: [withCode(new GraphQLError('Internal server error: the failure has been logged.'), 'INTERNAL_SERVER_ERROR', 500)] }, ...ran };
    }
    // Spec, errors table: a request Helix refuses is a 400, a mutation over GET a 405.
    const [code, status] = outcome.status === 405 ? ['METHOD_NOT_ALLOWED', 405] : ['BAD_REQUEST', 400];
    const errors = (payload.errors ?? []).map((e) => (e.extensions?.['code'] ? e : withCode(e, code, status)));
    return { result: { errors }, ...ran };
  }
}

/** What Helix hands the context factory: the operation it is about to execute, its variables parsed. */
type HelixExecutionContext = Parameters<NonNullable<Parameters<typeof processRequest>[0]['contextFactory']>>[0];

/** Envelop's parse, its failures born with their code: GRAPHQL_PARSE_FAILED, or a limit's own. */
function parseWithCode(parse: ReturnType<GetEnveloped>['parse'], source: string): DocumentNode {
  try {
    return parse(source);
  } catch (error) {
    const failure = error instanceof GraphQLError ? error : new GraphQLError((error as Error).message, { originalError: error as Error });
    throw withCode(failure, (failure.extensions['code'] as string | undefined) ?? 'GRAPHQL_PARSE_FAILED', 400);
  }
}

/** Envelop's validation errors, born with their code: GRAPHQL_VALIDATION_FAILED, or a limit's own (and its status). */
function validateWithCode(errors: readonly GraphQLError[]): readonly GraphQLError[] {
  // Spec, errors table: a query that fails validation is a 400 (our limits are validation too).
  return errors.length === 0 ? errors : errors.map((e) => withCode(e, (e.extensions['code'] as string | undefined) ?? 'GRAPHQL_VALIDATION_FAILED', 400));
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
