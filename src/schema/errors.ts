import { GraphQLError } from 'graphql';

/**
 * "Invalid argument value → 200, data null, message `Query Arguments invalid` with
 * `extensions.invalidArgs`" (spec, errors table). `data` is nulled by the useInvalidArgumentsNullData plugin.
 */
export function invalidArguments(invalidArgs: string[], detail?: string): GraphQLError {
  return new GraphQLError('Query Arguments invalid', {
    extensions: { code: 'BAD_USER_INPUT', invalidArgs, ...(detail ? { detail } : {}) },
  });
}
