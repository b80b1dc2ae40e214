import type { Plugin } from '@envelop/core';
import { GraphQLError, visit, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';

/**
 * PostgreSQL text cannot hold U+0000: a NUL in any string argument would fail deep in the driver
 * (SQLSTATE 22021) as an internal error. It is the caller's bad input, so it is answered as one:
 * spec, errors table, invalid argument value → 200, data null, BAD_USER_INPUT.
 */
const NUL = '\u0000';

// Documents come from the parser cache: each is walked once.
const literalNulByDocument = new WeakMap<DocumentNode, boolean>();

function literalHasNul(document: DocumentNode): boolean {
  const known = literalNulByDocument.get(document);
  if (known !== undefined) return known;
  let found = false;
  visit(document, {
    StringValue(node) {
      if (node.value.includes(NUL)) found = true;
    },
  });
  literalNulByDocument.set(document, found);
  return found;
}

function valueHasNul(value: unknown): boolean {
  // Iterative: variables are depth-limited at the HTTP layer, but this must not recurse either way.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes(NUL)) return true;
    } else if (Array.isArray(next)) {
      const items: readonly unknown[] = next;
      pending.push(...items);
    } else if (next !== null && typeof next === 'object') {
      const values: readonly unknown[] = Object.values(next);
      pending.push(...values);
    }
  }
  return false;
}

/** Refuses string input no argument can hold (see above) before any resolver runs. */
export function useStringInputRules(): Plugin {
  return {
    // Envelop types the arguments with `any` (it takes any graphql version): here they are graphql-js's.
    onExecute({ args, setResultAndStopExecution }: { args: ExecutionArgs; setResultAndStopExecution: (result: ExecutionResult) => void }) {
      const hasNul = valueHasNul(args.variableValues) || literalHasNul(args.document);
      if (!hasNul) return;
      setResultAndStopExecution({
        data: null,
        errors: [
          new GraphQLError('String arguments cannot contain the NUL character (U+0000).', {
            extensions: { code: 'BAD_USER_INPUT' },
          }),
        ],
      });
    },
  };
}
