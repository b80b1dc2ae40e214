import type { Plugin } from '@envelop/core';
import type { ExecutionResult } from 'graphql';

/**
 * Spec, errors table: "Invalid argument value (negative page, non-positive page size, unparseable
 * date) → data is null". Resolvers throw BAD_USER_INPUT; this nulls the whole `data` so that a
 * nullable root field does not leave `{ events: null }` behind. Resolver failures keep partial data.
 */
export function useInvalidArgumentsNullData(): Plugin {
  const hasInvalidArgument = (result: ExecutionResult) =>
    result.errors?.some((e) => e.extensions?.['code'] === 'BAD_USER_INPUT') ?? false;
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if ('errors' in result && hasInvalidArgument(result)) setResult({ ...result, data: null });
        },
      };
    },
  };
}
