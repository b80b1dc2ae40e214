import type { Plugin } from '@envelop/core';
import { GraphQLError, Kind, visit, type ASTNode, type DocumentNode } from 'graphql';

const VALUE_KINDS = new Set<string>([Kind.INT, Kind.FLOAT, Kind.STRING, Kind.BOOLEAN, Kind.ENUM, Kind.NULL, Kind.LIST, Kind.OBJECT]);

/** Where each literal value of a document sits: `argument "filter.fromDate" of field "events"`. */
function valuePlaces(document: DocumentNode): Map<ASTNode, string> {
  const places = new Map<ASTNode, string>();
  const path: string[] = [];
  const fields: string[] = [];
  visit(document, {
    Field: { enter: (node) => void fields.push(node.name.value), leave: () => void fields.pop() },
    Argument: { enter: (node) => void path.push(node.name.value), leave: () => void path.pop() },
    ObjectField: { enter: (node) => void path.push(node.name.value), leave: () => void path.pop() },
    enter(node) {
      const field = fields.at(-1);
      if (path.length > 0 && field !== undefined && node.kind !== Kind.ARGUMENT && node.kind !== Kind.OBJECT_FIELD) {
        places.set(node, `argument "${path.join('.')}" of field "${field}"`);
      }
    },
  });
  return places;
}

/**
 * Spec, errors table: a validation failure's message "names the field". graphql-js words a literal
 * of the wrong type as `Int cannot represent non-integer value: "first"`, naming neither; this adds
 * where the value sits. Only failing documents pay for the extra walk.
 */
export function useDescriptiveValidationErrors(): Plugin {
  return {
    // Envelop types the document and the errors with `any` (it takes any graphql version): here they are graphql-js's.
    onValidate({ params }: { params: { documentAST: DocumentNode } }) {
      return ({ valid, result, setResult }) => {
        if (valid) return;
        let places: Map<ASTNode, string> | undefined;
        setResult(
          result.map((error: unknown) => {
            if (!(error instanceof GraphQLError)) return error;
            const node = error.nodes?.[0];
            if (!node || !VALUE_KINDS.has(node.kind)) return error;
            places ??= valuePlaces(params.documentAST);
            const place = places.get(node);
            if (!place || error.message.includes(place)) return error;
            return new GraphQLError(`${error.message} (${place})`, {
              nodes: error.nodes,
              source: error.source,
              positions: error.positions,
              path: error.path,
              originalError: error.originalError,
              extensions: error.extensions,
            });
          }),
        );
      };
    },
  };
}
