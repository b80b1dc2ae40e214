import type { ExecutionArgs, ExecutionResult, GraphQLSchema, parse, validate } from 'graphql';

/**
 * What the pipeline's `getEnveloped(initialContext)` hands a caller, typed for the engine
 * createEnveloped gives it (graphql-js 16, with graphql-jit's execute in its place): Envelop's own
 * types say `any` for these, since Envelop takes any graphql version.
 */
export type GetEnveloped = (initialContext?: object) => Enveloped;

export interface Enveloped {
  parse: typeof parse;
  validate: typeof validate;
  execute: (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult>;
  /** The context of one operation: the initial context with what the plugins add (GraphQLContext). */
  contextFactory: () => unknown;
  schema: GraphQLSchema;
}
