import type { ResolverFn, Resolvers, ResolversParentTypes } from '../../generated/resolvers-types.js';

/**
 * Type-level checks that every field the SDL declares is answered, derived from the generated
 * resolver types alone (no list of field names kept by hand). typescript-resolvers makes every resolver
 * optional, so a new field with neither a resolver nor a property of its model would pass `tsc` and
 * answer its first caller with a null-for-non-null error; `npm run typecheck` names it instead.
 */

/** What a field's generated resolver type says it returns: what a model's property must be to answer it. */
type ResolverResult<R> =
  R extends ResolverFn<infer T, never, never, never> ? T : R extends { resolve: ResolverFn<infer T, never, never, never> } ? T : never;

/** The fields of object type `T`, as the SDL declares them (the generated resolver type has one key per field). */
type SchemaFields<T extends keyof Resolvers> = Exclude<keyof NonNullable<Resolvers[T]>, `__${string}`> & string;

/** The fields of `T` that `Implemented` gives a resolver. */
type ResolvedFields<Implemented, T extends string> = T extends keyof Implemented ? Exclude<keyof NonNullable<Implemented[T]>, `__${string}`> & string : never;

/** What the model of `T` (its mapper, or the generated type) must hold for field `F` to be read without a resolver. */
type FieldAnswer<T extends keyof Resolvers, F extends SchemaFields<T>> = ResolverResult<NonNullable<NonNullable<Resolvers[T]>[F]>>;

/** One message per field of `T` that nothing answers, or that the model answers with the wrong type. */
type UnansweredFields<Implemented, T extends keyof Resolvers> = {
  [F in SchemaFields<T>]-?: F extends ResolvedFields<Implemented, T>
    ? never
    : F extends keyof ResolversParentTypes[T]
      ? ResolversParentTypes[T][F] extends FieldAnswer<T, F>
        ? never
        : `${T}.${F}: no resolver, and the model's property ${F} is not of the type the schema gives`
      : `${T}.${F}: no resolver, and the model of ${T} has no property ${F}`;
}[SchemaFields<T>];

/** One message per resolver of `T` for a field the SDL does not declare (the executable schema would refuse it at start). */
type ExtraResolvers<Implemented, T extends keyof Resolvers> = {
  [F in ResolvedFields<Implemented, T>]: F extends SchemaFields<T> ? never : `${T}.${F}: a resolver for a field the schema does not have`;
}[ResolvedFields<Implemented, T>];

/**
 * Every problem of the resolver map `Implemented` (the type of `resolvers`, kept literal with
 * `satisfies Resolvers`), as `Type.field: why` messages; `never` when every field of every object type is
 * answered by a resolver or by a property of its model of the type the schema gives.
 */
export type FieldProblems<Implemented> = {
  [T in keyof Resolvers]-?: UnansweredFields<Implemented, T> | ExtraResolvers<Implemented, T>;
}[keyof Resolvers];

/** Naming this type is the check: it compiles only when `Problems` is `never`, and otherwise prints each one. */
export type NoFieldProblems<Problems extends never> = Problems;

/**
 * The resolvers two object types share (a facet and the type it counts, say): only fields both declare,
 * typed as `A`'s (the type whose model the other's extends; the other's `satisfies` checks the fit). An
 * object literal typed so cannot hold a field only one of them has: adding a field to one type and its
 * resolver to the shared set fails typecheck, not start-up.
 */
export type SharedResolvers<A, B> = Pick<A, keyof A & keyof B>;
