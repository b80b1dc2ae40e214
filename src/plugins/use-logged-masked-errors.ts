import { handleStreamOrSingleExecutionResult, isGraphQLError, useMaskedErrors, type Plugin } from '@envelop/core';
import { GraphQLError } from 'graphql';
import type { DatabaseHealth } from '../db/database-health.js';
import type { Logger } from '../logger.js';
import { databaseUnavailable } from '../database-unavailable.js';

const MASKED_MESSAGE = 'Internal server error: the failure has been logged.';

/**
 * Errors we raise on purpose (GraphQLErrors with a code) reach the client as they are. A database
 * that cannot answer (restarting, unreachable, too slow) becomes SERVICE_UNAVAILABLE with HTTP 503
 * and Retry-After, logged once per outage rather than per request. Anything else (SQL, driver, bugs)
 * is logged in full and masked as `INTERNAL_SERVER_ERROR`. The log line of a failure met while
 * executing carries the request's id (`reqId`, as its access-log line and X-Request-Id do), so the
 * caller who reports an error and the operator who reads the log find the same request.
 */
export function useLoggedMaskedErrors(options: { logger: Logger; databaseHealth: DatabaseHealth }): Plugin {
  const mask = (error: Error, requestId: string | undefined): Error => {
    const graphQLError = isGraphQLError(error) ? (error as GraphQLError) : undefined;
    const original = graphQLError ? graphQLError.originalError : error;
    if (graphQLError && (!original || isGraphQLError(original))) return graphQLError;
    const unavailable = databaseUnavailable(original, options.databaseHealth);
    if (unavailable) return new GraphQLError(unavailable.message, { nodes: graphQLError?.nodes, path: graphQLError?.path, extensions: unavailable.extensions });
    options.logger.error({ err: original, path: graphQLError?.path, reqId: requestId }, graphQLError ? 'resolver failed' : 'unexpected error');
    return new GraphQLError(MASKED_MESSAGE, { nodes: graphQLError?.nodes, path: graphQLError?.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  };
  // Envelop's own plugin for what happens outside execution (building the context): no request id there.
  const outside = useMaskedErrors({ maskError: (error) => mask(error as Error, undefined), errorMessage: MASKED_MESSAGE });
  return {
    ...outside,
    onExecute({ args }) {
      const requestId = (args.contextValue as { requestId?: unknown } | undefined)?.requestId;
      const id = typeof requestId === 'string' ? requestId : undefined;
      return {
        onExecuteDone(payload) {
          return handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
            if (result.errors != null) setResult({ ...result, errors: result.errors.map((error: Error) => mask(error, id)) });
          });
        },
      };
    },
  };
}
