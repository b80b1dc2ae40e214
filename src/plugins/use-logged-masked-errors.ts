import { isGraphQLError, useMaskedErrors, type Plugin } from '@envelop/core';
import { GraphQLError } from 'graphql';
import { isDatabaseUnavailable } from '../db/connection-errors.js';
import type { DatabaseHealth } from '../db/database-health.js';
import type { Logger } from '../logger.js';
import { serviceUnavailable } from '../schema/errors.js';

export const DATABASE_UNAVAILABLE_MESSAGE = 'The calendar database is unavailable or too slow right now. Retry shortly.';

/**
 * Errors we raise on purpose (GraphQLErrors with a code) reach the client as they are. A database
 * that cannot answer (restarting, unreachable, too slow) becomes SERVICE_UNAVAILABLE with HTTP 503
 * and Retry-After, logged once per outage rather than per request. Anything else (SQL, driver, bugs)
 * is logged in full and masked as `INTERNAL_SERVER_ERROR`.
 */
export function useLoggedMaskedErrors(options: { logger: Logger; databaseHealth: DatabaseHealth }): Plugin {
  return useMaskedErrors({
    maskError(error, message) {
      const graphQLError = isGraphQLError(error) ? (error as GraphQLError) : undefined;
      const original = graphQLError ? graphQLError.originalError : error;
      if (graphQLError && (!original || isGraphQLError(original))) return graphQLError;
      if (isDatabaseUnavailable(original)) {
        options.databaseHealth.reportFailure(original);
        const unavailable = serviceUnavailable(DATABASE_UNAVAILABLE_MESSAGE);
        return new GraphQLError(unavailable.message, { nodes: graphQLError?.nodes, path: graphQLError?.path, extensions: unavailable.extensions });
      }
      options.logger.error({ err: original, path: graphQLError?.path }, graphQLError ? 'resolver failed' : 'unexpected error');
      return new GraphQLError(message, { nodes: graphQLError?.nodes, path: graphQLError?.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    },
    errorMessage: 'Internal server error: the failure has been logged.',
  });
}
