import { envelop, useEngine, useSchema, type Plugin } from '@envelop/core';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { useParserCache } from '@envelop/parser-cache';
import { useValidationCache } from '@envelop/validation-cache';
import * as graphql from 'graphql';
import type { GraphQLSchema } from 'graphql';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { DatabaseHealth } from '../db/database-health.js';
import type { Logger } from '../logger.js';
import { activeTracing } from '../telemetry/tracing.js';
import { ReadModel } from '../read-model/read-model.js';
import { CallerIdentity } from '../identity/caller-identity.js';
import { useApiKey } from './use-api-key.js';
import { useCalendarContext } from './use-calendar-context.js';
import { useDescriptiveValidationErrors } from './use-descriptive-validation-errors.js';
import { useInvalidArgumentsNullData } from './use-invalid-arguments-null-data.js';
import { useLoggedMaskedErrors } from './use-logged-masked-errors.js';
import { useQueryLimits, type QueryLimitsOptions } from './use-query-limits.js';
import { useReadOnlyOperations } from './use-read-only-operations.js';
import { useStringInputRules } from './use-string-input-rules.js';
import { useResponseCachePolicy } from './use-response-cache-policy.js';
import { useUsageCounts, type UsageRecorder } from './use-usage-counts.js';

export interface PluginOptions {
  schema: GraphQLSchema;
  db: Kysely<Database>;
  /** The calendar's read model. @default one of its own, started at once (tests) */
  readModel?: ReadModel | undefined;
  /** Where database outages are reported (logged once per episode). @default a health of its own */
  databaseHealth?: DatabaseHealth | undefined;
  logger: Logger;
  clock?: () => Date;
  eventLinkBase: string;
  /** TTL of answers per root field (tests shorten it). @default RESPONSE_TTL_MS */
  responseTtlPerRootField?: Readonly<Record<string, number>> | undefined;
  /** Resolves API keys; the HTTP layer's cache hits share it. @default one of its own */
  callerIdentity?: CallerIdentity | undefined;
  /** Counts requests per caller; off when absent. @default undefined */
  usage?: UsageRecorder | undefined;
  /** TTL in ms of the in-process API key cache (a revocation takes effect within it). @default 60000 */
  apiKeyCacheTtlMs?: number | undefined;
  /** Protective limits (depth, aliases, tokens, directives, cost). @default DEFAULT_QUERY_LIMITS */
  limits?: QueryLimitsOptions | undefined;
  /** Execute with graphql-jit instead of graphql-js (measured faster on repeated operations: docs/transport.md). @default true */
  jit?: boolean | undefined;
}

/** The Envelop pipeline around our executor. Order matters where noted. */
export function createEnveloped(options: PluginOptions) {
  const databaseHealth = options.databaseHealth ?? new DatabaseHealth(options.logger);
  const readModel = options.readModel ?? startedReadModel(options);
  const plugins: (Plugin | false | undefined)[] = [
    // First: its instrumentation is then the outermost, so each span covers the whole phase, every
    // other plugin's hooks included. Present only when tracing was started (OTEL_* settings).
    activeTracing()?.envelopPlugin(),
    // Envelop 5 needs the engine before the schema.
    useEngine({ parse: graphql.parse, validate: graphql.validate, execute: graphql.execute, subscribe: graphql.subscribe, specifiedRules: graphql.specifiedRules }),
    useSchema(options.schema),
    // A repeated document is neither parsed nor validated again (errors are cached too). The parser
    // cache answers before armor's token-counting parser would run; that parser only sees new text.
    useParserCache(),
    useValidationCache(),
    useQueryLimits(options.limits),
    useReadOnlyOperations(),
    useDescriptiveValidationErrors(),
    // Before the response cache and JIT: refused input never executes and is never cached.
    useStringInputRules(),
    useCalendarContext({ db: options.db, readModel, clock: options.clock, eventLinkBase: options.eventLinkBase }),
    // Before the response cache: the cache wraps whichever execute function is current when its own
    // onExecute runs, so JIT must already have replaced it.
    options.jit === false
      ? undefined
      : useGraphQlJit({}, { onError: (result) => options.logger.debug({ errors: result.errors }, 'graphql-jit could not compile the operation') }),
    // onExecuteDone hooks run in this list's order. Nulls `data` on invalid arguments.
    useInvalidArgumentsNullData(),
    useLoggedMaskedErrors({ logger: options.logger, databaseHealth }),
    // How long the answer may be shared, read by the HTTP layer's response cache (src/http/answer-cache.ts),
    // which answers hits before this pipeline runs and never stores answers with errors.
    useResponseCachePolicy({ ttlPerRootField: options.responseTtlPerRootField }),
    // The key notice is added here, on the way out; the HTTP layer keeps it out of what it stores,
    // so callers with and without a key share every cached answer.
    useApiKey({
      identity:
        options.callerIdentity ??
        new CallerIdentity({ db: options.db, logger: options.logger, databaseHealth, cacheTtlMs: options.apiKeyCacheTtlMs }),
    }),
    // After useApiKey: counts the caller that plugin resolved while building the context.
    options.usage ? useUsageCounts({ recorder: options.usage }) : undefined,
  ];
  return envelop({ plugins: plugins.filter((p): p is Plugin => Boolean(p)) });
}

export type GetEnveloped = ReturnType<typeof createEnveloped>;

/** A read model of the pipeline's own, for callers that run operations without the service (tests, benchmarks). */
function startedReadModel(options: PluginOptions): ReadModel {
  const model = new ReadModel({ db: options.db, clock: options.clock ?? (() => new Date()), logger: options.logger });
  void model.start();
  return model;
}
