import type { ResolverFn } from '../../generated/resolvers-types.js';

/**
 * What a field's generated resolver type says it returns. Fields read without a resolver (a getter,
 * or the parent's own property of the same name) are checked against it, so dropping a resolver for
 * speed never drops the check of what the field answers.
 */
export type ResolverResult<R> =
  R extends ResolverFn<infer T, never, never, never> ? T : R extends { resolve: ResolverFn<infer T, never, never, never> } ? T : never;

/** The values `Model` must hold, under the fields' own names, for the fields `Names` of `Resolvers`. */
export type DefaultResolvedFields<Resolvers, Names extends keyof Resolvers> = { readonly [F in Names]: ResolverResult<NonNullable<Resolvers[F]>> };

/**
 * `Model`, which must hold `Fields`: naming this type is the check (a compile error says which field
 * differs), with nothing at run time.
 */
export type Satisfies<Model extends Fields, Fields> = Model;
