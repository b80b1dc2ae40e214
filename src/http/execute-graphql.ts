import { processRequest, type Request as HelixRequest } from 'graphql-helix';
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Logger } from '../logger.js';
import type { GetEnveloped } from '../plugins/index.js';
import { responseCacheFreshness } from '../plugins/use-shared-response-cache.js';
import type { Freshness } from './caching-headers.js';
import type { GraphQLParams } from './request-params.js';

export type { HelixRequest };

export interface GraphQLOutcome {
  /** The GraphQL response; every error carries `extensions.code`. */
  result: ExecutionResult;
  /** Set when the answer is in the shared response cache (stored now or served from it). */
  freshness?: Freshness | undefined;
}

/**
 * Our one seam around graphql-helix: Envelop supplies parse/validate/context/execute, Helix runs
 * them. Helix reports parse and validation failures as HTTP errors; we turn them into GraphQL errors
 * with the codes the spec names (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED). Statuses are
 * decided later, from the codes, in one place (status.ts).
 */
export async function executeGraphQL(
  getEnveloped: GetEnveloped,
  request: HelixRequest,
  params: GraphQLParams,
  logger: Logger,
): Promise<GraphQLOutcome> {
  // The plugins read the request (key, page URL) from here, and leave cache freshness keyed by it.
  const context: Record<string, unknown> = { request };
  const { parse, validate, contextFactory, execute, schema } = getEnveloped(context);
  let parseFailed = false;
  const outcome = await processRequest({
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
  if (outcome.type !== 'RESPONSE') {
    return { result: { errors: [withCode(new GraphQLError('Subscriptions and incremental delivery are not supported.'), 'BAD_REQUEST')] } };
  }
  const payload = outcome.payload;
  if (outcome.status === 200) {
    // Errors raised while coercing variables have no code of their own: they are bad input.
    const errors = payload.errors?.map((e) => (e.extensions?.['code'] ? e : withCode(e, payload.data === undefined ? 'BAD_USER_INPUT' : 'INTERNAL_SERVER_ERROR')));
    return { result: errors ? { ...payload, errors } : payload, freshness: responseCacheFreshness(context) };
  }
  if (outcome.status >= 500) {
    // Helix turns an unexpected throw (context building, a plugin) into a 500 carrying its message.
    logger.error({ errors: payload.errors?.map((e) => e.originalError ?? e) }, 'graphql request failed');
    return { result: { errors: [withCode(new GraphQLError('Internal server error: the failure has been logged.'), 'INTERNAL_SERVER_ERROR')] } };
  }
  const code = parseFailed ? 'GRAPHQL_PARSE_FAILED' : codeForHelixError(payload.errors ?? [], outcome.status);
  const errors = (payload.errors ?? []).map((e) => withCode(e, (e.extensions?.['code'] as string | undefined) ?? code));
  return { result: { errors } };
}

function codeForHelixError(errors: readonly GraphQLError[], status: number): string {
  if (status === 405) return 'METHOD_NOT_ALLOWED';
  // Helix also answers 400 to a missing query and to an unknown operation name: no source location.
  return errors.some((e) => e.nodes || e.locations) ? 'GRAPHQL_VALIDATION_FAILED' : 'BAD_REQUEST';
}

function withCode(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}
