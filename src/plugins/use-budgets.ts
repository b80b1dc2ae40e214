import type { Plugin } from '@envelop/core';
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { operationCost } from '../domain/operation-cost.js';
import type { EdgeContext } from './edge-context.js';

/**
 * Charges the caller's budget (identity/caller-budgets.ts) the operation's cost before it executes;
 * when the budget cannot pay, nothing executes and the answer is 429 RATE_LIMITED with Retry-After
 * (the seconds until it can), `extensions.cost` saying why. Here rather than in the HTTP route:
 * the document is parsed and validated by now (an invalid one is never charged), its operation is
 * chosen, and the parser cache hands the same document again, so its cost is worked out once per
 * document (domain/operation-cost.ts). Only executions come here: cache hits cost nothing.
 */
export function useBudgets(): Plugin<Partial<EdgeContext>> {
  return {
    // Envelop types the arguments with `any` (it takes any graphql version): here they are graphql-js's.
    onExecute({ args, setResultAndStopExecution }: { args: ExecutionArgs & { contextValue: Partial<EdgeContext> }; setResultAndStopExecution: (result: ExecutionResult) => void }) {
      const budget = args.contextValue.budget;
      if (!budget) return;
      const cost = operationCost(args.document, args.operationName, args.variableValues);
      return budget.charge(cost).then((taken) => {
        if (!taken.allowed) setResultAndStopExecution({ errors: [budget.refusal(taken)] });
      });
    },
  };
}
