import type { Plugin } from '@envelop/core';
import type { DocumentNode, GraphQLError, GraphQLSchema, ValidationRule } from 'graphql';

/** One validation of a document: against which schema and rules (by name, in order), and its errors. */
interface Validated {
  schema: GraphQLSchema;
  /** The rules it was validated with, last seen: most requests pass the very same functions. */
  rules: readonly ValidationRule[];
  ruleNames: readonly string[];
  errors: readonly GraphQLError[];
}

function sameRules(rules: readonly ValidationRule[], entry: Validated): boolean {
  const { ruleNames: names } = entry;
  if (rules.length !== names.length) return false;
  const seen = entry.rules;
  // The same function is the same rule; a rule made afresh is told by its name.
  for (let i = 0; i < rules.length; i++) if (rules[i] !== seen[i] && rules[i]!.name !== names[i]) return false;
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
        const found = known?.find((entry) => entry.schema === schema && sameRules(rules, entry));
        if (found) {
          found.rules = rules;
          return found.errors;
        }
        const errors = validateFn(schema, document, rules) as readonly GraphQLError[];
        const entry: Validated = { schema, rules, ruleNames: rules.map((rule) => rule.name), errors };
        if (known) known.push(entry);
        else validated.set(document, [entry]);
        return errors;
      });
    },
  };
}
