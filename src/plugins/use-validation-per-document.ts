import type { Plugin } from '@envelop/core';
import type { DocumentNode, GraphQLError, GraphQLSchema, ValidationRule } from 'graphql';

/** One validation of a document: against which schema and rules (by name, in order), and its errors. */
interface Validated {
  schema: GraphQLSchema;
  ruleNames: readonly string[];
  errors: readonly GraphQLError[];
}

function sameRules(rules: readonly ValidationRule[], names: readonly string[]): boolean {
  if (rules.length !== names.length) return false;
  for (let i = 0; i < rules.length; i++) if (rules[i]!.name !== names[i]) return false;
  return true;
}

/**
 * A document is validated once per schema and set of rules. The parser cache (useParserCache) hands out
 * the same DocumentNode for the same text, so the errors are kept on that node, in a WeakMap that lets
 * them go with the parser cache's entry. @envelop/validation-cache keyed them by a string of the schema's
 * hash, every rule's name and the whole document text, built and hashed again for every request: 3 % of
 * a small request's CPU (docs/performance.md, "A leaner pipeline"). Rules are told apart by name, as
 * there: a plugin may make its rule afresh for every request.
 */
export function useValidationPerDocument(): Plugin {
  const validated = new WeakMap<DocumentNode, Validated[]>();
  return {
    onValidate({ setValidationFn, validateFn }) {
      setValidationFn((schema: GraphQLSchema, document: DocumentNode, rules?: readonly ValidationRule[], ...rest: unknown[]) => {
        // Options (maxErrors) or a TypeInfo make a validation of its own: not kept.
        if (rules === undefined || rest.some((arg) => arg !== undefined)) return validateFn(schema, document, rules, ...rest) as readonly GraphQLError[];
        const known = validated.get(document);
        const found = known?.find((entry) => entry.schema === schema && sameRules(rules, entry.ruleNames));
        if (found) return found.errors;
        const errors = validateFn(schema, document, rules) as readonly GraphQLError[];
        const entry = { schema, ruleNames: rules.map((rule) => rule.name), errors };
        if (known) known.push(entry);
        else validated.set(document, [entry]);
        return errors;
      });
    },
  };
}
