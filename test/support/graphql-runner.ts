import type { ExecutionResult } from 'graphql';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { createEnveloped } from '../../src/plugins/index.js';
import { ReadModel } from '../../src/read-model/read-model.js';
import { buildExecutableSchema } from '../../src/schema/executable-schema.js';
import { createLogger } from '../../src/logger.js';

export type RunOperation = (query: string, variables?: Record<string, unknown>) => Promise<ExecutionResult>;

/** RunOperation, with the read model it reads from: close it before the database. */
export type GraphQLRunner = RunOperation & { close(): Promise<void> };

/**
 * Runs operations through the service's own Envelop pipeline (parse, validate, context, execute),
 * without HTTP: the GraphQL surface for rule tests. `clock` fixes "now". Its read model sees the
 * imports made through `database` at once, as the service's does.
 */
export function createGraphQLRunner(database: Pick<DatabaseHandle, 'db' | 'committedImports'>, clock: () => Date): GraphQLRunner {
  const logger = createLogger('silent');
  // Layered versions, as the service's setting (its default); READ_MODEL_LAYERED=off in vitest's environment: full builds.
  const layered = process.env['READ_MODEL_LAYERED'] !== 'off';
  const readModel = new ReadModel({ db: database.db, clock, logger, committedImports: database.committedImports, layered });
  void readModel.start();
  const getEnveloped = createEnveloped({
    schema: buildExecutableSchema(),
    db: database.db,
    readModel,
    logger,
    clock,
    eventLinkBase: 'https://kalender.example.no/arrangement',
  });
  const run: RunOperation = async (query, variables) => {
    const { parse, validate, contextFactory, execute, schema } = getEnveloped({});
    const document = parse(query);
    const errors = validate(schema, document);
    if (errors.length > 0) return { errors };
    const result = await execute({ schema, document, contextValue: await contextFactory(), variableValues: variables ?? {} });
    return result;
  };
  return Object.assign(run, { close: () => readModel.close() });
}
