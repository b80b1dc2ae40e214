import { envelop, useEngine, useSchema, type Plugin } from '@envelop/core';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { useParserCache } from '@envelop/parser-cache';
import * as graphql from 'graphql';
import { Kind, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { DatabaseHealth } from '../db/database-health.js';
import type { Logger } from '../logger.js';
import { activeTracing } from '../telemetry/tracing.js';
import type { ReadModel } from '../read-model/read-model.js';
import type { GetEnveloped } from './get-enveloped.js';
import { useApiKey } from './use-api-key.js';
import { useBudgets } from './use-budgets.js';
import { useCalendarContext } from './use-calendar-context.js';
import { useDescriptiveValidationErrors } from './use-descriptive-validation-errors.js';
import { useInvalidArgumentsNullData } from './use-invalid-arguments-null-data.js';
import { useLoggedMaskedErrors } from './use-logged-masked-errors.js';
import { useQueryLimits, type QueryLimitsOptions } from './use-query-limits.js';
import { useReadOnlyOperations } from './use-read-only-operations.js';
import { useStringInputRules } from './use-string-input-rules.js';
import { useTracing } from './use-tracing.js';
import { useValidationPerDocument } from './use-validation-per-document.js';

export interface PluginOptions {
  schema: GraphQLSchema;
  db: Kysely<Database>;
  /** The calendar's read model, started and closed by whoever made it (the pipeline only reads it). */
  readModel: ReadModel;
  /** Where database outages are reported (logged once per episode). @default a health of its own */
  databaseHealth?: DatabaseHealth | undefined;
  logger: Logger;
  clock?: () => Date;
  eventLinkBase: string;
  /**
   * The service's public base URL (PUBLIC_BASE_URL, else the listening address), for absolute URLs
   * to the service itself (the demo pictures); asked per request, since the port is known only once
   * the server listens. @default none (relative URLs)
   */
  publicBaseUrl?: (() => string | undefined) | undefined;
  /** Protective limits (depth, aliases, tokens, directives, cost). @default DEFAULT_QUERY_LIMITS */
  limits?: QueryLimitsOptions | undefined;
  /** Execute with graphql-jit instead of graphql-js (measured faster on repeated operations: docs/transport.md). @default true */
  jit?: boolean | undefined;
}

/** The Envelop pipeline around our executor. Order matters where noted. */
export function createEnveloped(options: PluginOptions): GetEnveloped {
  const databaseHealth = options.databaseHealth ?? new DatabaseHealth(options.logger);
  const tracing = activeTracing();
  const plugins: (Plugin | false | undefined)[] = [
    // First: its instrumentation is then the outermost, so each span covers the whole phase, every
    // other plugin's hooks included. Present only when tracing was started (OTEL_* settings).
    tracing && useTracing({ tracer: tracing.tracer }),
    // Envelop 5 needs the engine before the schema.
    useEngine({ parse: graphql.parse, validate: graphql.validate, execute: graphql.execute, subscribe: graphql.subscribe, specifiedRules: graphql.specifiedRules }),
    useSchema(options.schema),
    // A repeated document is neither parsed nor validated again (errors are kept too). The parser
    // cache answers before armor's token-counting parser would run; that parser only sees new text.
    // Validation is kept on the parsed document the parser cache hands out again.
    useParserCache(),
    useValidationPerDocument(),
    useQueryLimits(options.limits),
    useReadOnlyOperations(),
    useDescriptiveValidationErrors(),
    // Before execution: refused input never executes, so it is never cached either.
    useStringInputRules(),
    // After the checks of input (refused input is never charged), before any other onExecute hook:
    // a request over its caller's budget stops here, nothing executed.
    useBudgets(),
    useCalendarContext({ db: options.db, readModel: options.readModel, clock: options.clock, eventLinkBase: options.eventLinkBase, publicBaseUrl: options.publicBaseUrl }),
    // Replaces graphql-js's execute with compiled queries (docs/transport.md has the measurement).
    // The plugin keeps one compiled query per document, whatever operationName asks for: a document
    // of several operations would answer every later operationName with the first one compiled. Such
    // documents run on graphql-js's execute instead (they are rare; one operation per document is
    // what the persisted documents and the typed client send).
    options.jit === false
      ? undefined
      : useGraphQlJit(
          {},
          {
            enableIf: (args) => hasOneOperation(args.document),
            onError: (result) => options.logger.debug({ errors: result.errors }, 'graphql-jit could not compile the operation'),
          },
        ),
    // onExecuteDone hooks run in this list's order. Nulls `data` on invalid arguments.
    useInvalidArgumentsNullData(),
    useLoggedMaskedErrors({ logger: options.logger, databaseHealth }),
    // The key notice of the caller the HTTP edge resolved, added on the way out; the HTTP layer keeps
    // it out of what it stores, so callers with and without a key share every cached answer.
    useApiKey(),
  ];
  return envelop({ plugins: plugins.filter((p): p is Plugin => Boolean(p)) });
}

/** Whether the document defines exactly one operation (fragments aside). */
function hasOneOperation(document: DocumentNode): boolean {
  let operations = 0;
  for (const definition of document.definitions) if (definition.kind === Kind.OPERATION_DEFINITION && ++operations > 1) return false;
  return operations === 1;
}
