import type { Plugin } from '@envelop/core';
import { GraphQLError, OperationTypeNode, type ValidationRule } from 'graphql';

/**
 * The API is read-only: the schema has no mutation or subscription type. graphql-js 16 validates
 * such an operation as fine and only fails when executing it (graphql-jit with a stack), so this
 * rule makes it what it is, a validation failure (400, GRAPHQL_VALIDATION_FAILED).
 */
const readOnlyOperations: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation === OperationTypeNode.QUERY || context.getSchema().getRootType(node.operation)) return;
    context.reportError(
      new GraphQLError(`This API is read-only: the schema has no ${node.operation} type. Send a query.`, {
        nodes: [node],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      }),
    );
  },
});

export function useReadOnlyOperations(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(readOnlyOperations);
    },
  };
}
