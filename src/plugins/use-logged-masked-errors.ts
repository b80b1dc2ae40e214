import { isGraphQLError, useMaskedErrors, type Plugin } from '@envelop/core';
import { GraphQLError } from 'graphql';
import type { Logger } from '../logger.js';

/**
 * Errors we raise on purpose (GraphQLErrors with a code) reach the client as they are; anything
 * else (SQL, driver, bugs) is logged in full and masked as `INTERNAL_SERVER_ERROR`.
 */
export function useLoggedMaskedErrors(options: { logger: Logger }): Plugin {
  return useMaskedErrors({
    maskError(error, message) {
      if (isGraphQLError(error)) {
        const original = error.originalError;
        if (!original || isGraphQLError(original)) return error;
        options.logger.error({ err: original, path: (error as GraphQLError).path }, 'resolver failed');
        return new GraphQLError(message, {
          nodes: (error as GraphQLError).nodes,
          path: (error as GraphQLError).path,
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        });
      }
      options.logger.error({ err: error }, 'unexpected error');
      return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    },
    errorMessage: 'Internal server error: the failure has been logged.',
  });
}
