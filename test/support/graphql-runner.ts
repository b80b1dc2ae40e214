import type { ExecutionResult } from 'graphql';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { createEnveloped } from '../../src/plugins/index.js';
import { buildExecutableSchema } from '../../src/schema/executable-schema.js';
import { createLogger } from '../../src/logger.js';

export type RunOperation = (query: string, variables?: Record<string, unknown>) => Promise<ExecutionResult>;

/**
 * Runs operations through the service's own Envelop pipeline (parse, validate, context, execute),
 * without HTTP: the GraphQL surface for rule tests. `clock` fixes "now".
 */
export function createGraphQLRunner(db: Kysely<Database>, clock: () => Date): RunOperation {
  const getEnveloped = createEnveloped({
    schema: buildExecutableSchema(),
    db,
    logger: createLogger('silent'),
    clock,
    eventLinkBase: 'https://kalender.example.no/arrangement',
  });
  return async (query, variables) => {
    const { parse, validate, contextFactory, execute, schema } = getEnveloped({});
    const document = parse(query);
    const errors = validate(schema, document);
    if (errors.length > 0) return { errors };
    const result = await execute({ schema, document, contextValue: await contextFactory(), variableValues: variables ?? {} });
    return result;
  };
}
