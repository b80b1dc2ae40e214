import { isAsyncIterable, type Plugin } from '@envelop/core';
import type { ExecutionResult } from 'graphql';
import type { CallerContext, CallerIdentity } from '../identity/caller-identity.js';

export { headerValue, type Caller, type CallerContext, type IncomingRequestView } from '../identity/caller-identity.js';

export interface ApiKeyOptions {
  /** Resolves keys (shared with the response cache's hits, so both see one key cache). */
  identity: CallerIdentity;
}

/**
 * Resolves the caller's key into `context.caller` and adds the notice to the answer. Spec,
 * authentication: "The key is identity, not security"; an unknown or revoked key is handled as
 * anonymous, and the answer says so in `extensions.notice`.
 *
 * The HTTP layer keeps the notice out of the answer it stores, so every caller shares the same
 * cached answers.
 */
export function useApiKey(options: ApiKeyOptions): Plugin<CallerContext> {
  const withNotice = (result: ExecutionResult, notice: string): ExecutionResult => ({
    ...result,
    extensions: { ...result.extensions, notice },
  });

  return {
    async onContextBuilding({ context, extendContext }) {
      extendContext({ caller: await options.identity.resolve(context.request) });
    },
    onExecute({ args }) {
      const caller = (args.contextValue as CallerContext).caller;
      const notice = caller && options.identity.notice(caller);
      if (notice === undefined) return;
      return {
        onExecuteDone({ result, setResult }) {
          if (!isAsyncIterable(result)) setResult(withNotice(result, notice));
        },
      };
    },
  };
}
