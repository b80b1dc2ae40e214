import type { Plugin } from '@envelop/core';
import { EnvelopArmor } from '@escape.tech/graphql-armor';
import { GraphQLError } from 'graphql';

export interface QueryLimitsOptions {
  /** Deepest field nesting; fragments are flattened; introspection is not counted. @default 10 */
  maxDepth?: number;
  /** Aliases per operation. @default 15 */
  maxAliases?: number;
  /** Lexical tokens per document. @default 1000 */
  maxTokens?: number;
  /** Directives per operation. @default 20 */
  maxDirectives?: number;
  /** graphql-armor's cost estimate per operation; introspection is not counted. @default 5000 */
  maxCost?: number;
}

/** The limits as configured by default, for the docs and tests. */
export const DEFAULT_QUERY_LIMITS: Required<QueryLimitsOptions> = {
  maxDepth: 10,
  maxAliases: 15,
  maxTokens: 1000,
  maxDirectives: 20,
  maxCost: 5000,
};

type ArmorConfig = NonNullable<ConstructorParameters<typeof EnvelopArmor>[0]>;
type RejectCallback = NonNullable<NonNullable<ArmorConfig['maxDepth']>['onReject']>[number];

/** Armor writes "Syntax Error: Query depth limit of 10 exceeded, found 14." even for validation rules. */
const plainMessage = (error: GraphQLError) => error.message.replace(/^Syntax Error: /, '');

const limitError = (error: GraphQLError, limit: string) =>
  new GraphQLError(plainMessage(error), { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit } });

/**
 * Protective limits from graphql-armor (not hand-written), reported as validation failures (400,
 * GRAPHQL_VALIDATION_FAILED, a message that names the limit). The validation rules report into the
 * validation context instead of throwing, so all failures come back as a list; the token limit runs
 * in the parser, where throwing is the only way out.
 *
 * The defaults let the standard introspection query (GraphiQL, codegen) and every operation in
 * `queries/` through with room to spare: see docs/transport.md for the measured figures.
 */
export function useQueryLimits(options: QueryLimitsOptions = {}): Plugin {
  const limits = { ...DEFAULT_QUERY_LIMITS, ...options };
  const report =
    (limit: string): RejectCallback =>
    (context, error) => {
      if (context) context.reportError(limitError(error, limit));
      else throw limitError(error, limit);
    };
  const armor = new EnvelopArmor({
    // A public schema with introspection on: "Did you mean …?" hints help developers and hide nothing.
    blockFieldSuggestion: { enabled: false },
    maxDepth: { n: limits.maxDepth, flattenFragments: true, ignoreIntrospection: true, propagateOnRejection: false, onReject: [report('depth')] },
    maxAliases: { n: limits.maxAliases, propagateOnRejection: false, onReject: [report('aliases')] },
    maxDirectives: { n: limits.maxDirectives, propagateOnRejection: false, onReject: [report('directives')] },
    costLimit: { maxCost: limits.maxCost, ignoreIntrospection: true, propagateOnRejection: false, onReject: [report('cost')] },
    maxTokens: { n: limits.maxTokens, propagateOnRejection: false, onReject: [report('tokens')] },
  });
  const plugins = armor.protect().plugins;
  return {
    onPluginInit({ addPlugin }) {
      for (const plugin of plugins) addPlugin(plugin);
    },
  };
}
