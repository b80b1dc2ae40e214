import { isAsyncIterable, type Plugin } from '@envelop/core';
import type { ExecutionResult } from 'graphql';
import type { EdgeContext } from './edge-context.js';

/**
 * Adds the caller's key notice to the answer. Spec, authentication: "The key is identity, not
 * security"; an unknown or revoked key is handled as anonymous, and the answer says so in
 * `extensions.notice`. The caller was resolved once at the HTTP edge (context.caller), which also
 * keeps the notice out of the answer it stores, so callers with and without a key share every
 * cached answer.
 */
export function useApiKey(): Plugin<Partial<EdgeContext>> {
  const withNotice = (result: ExecutionResult, notice: string): ExecutionResult => ({
    ...result,
    extensions: { ...result.extensions, notice },
  });

  return {
    onExecute({ args }) {
      const notice = args.contextValue.caller?.notice;
      if (notice === undefined) return;
      return {
        onExecuteDone({ result, setResult }) {
          if (!isAsyncIterable(result)) setResult(withNotice(result, notice));
        },
      };
    },
  };
}
