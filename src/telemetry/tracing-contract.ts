import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LogEvent } from 'kysely';
import type { Tracer } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { RequestRecord } from './request-log.js';

// What tracing.ts (the process-wide switch) and otel-tracing.ts (the OpenTelemetry side it loads
// lazily) agree on, in a module of its own so that neither imports the other's code.

/** Tracing as the service uses it; otel-tracing.ts builds it. */
export interface Tracing {
  /** Runs `handle` inside the request's SERVER span (continuing a W3C `traceparent` the caller sent). */
  traceRequest(req: IncomingMessage, res: ServerResponse, record: RequestRecord, handle: () => Promise<void>): Promise<void>;
  /** The service's tracer: the Envelop pipeline's spans for parse, validate and execute (plugins/use-tracing.ts) are made with it. */
  tracer: Tracer;
  /** Kysely's `log` hook: one CLIENT span per SQL statement, child of whatever span runs it. */
  statementLog(database: { driver: 'postgres' | 'pglite'; schema: string; url?: string | undefined }): (event: LogEvent) => void;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

export type TracingSettings = Pick<
  Config,
  | 'OTEL_SDK_DISABLED'
  | 'OTEL_TRACES_EXPORTER'
  | 'OTEL_EXPORTER_OTLP_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
  | 'OTEL_TRACES_SAMPLER'
  | 'OTEL_TRACES_SAMPLER_ARG'
  | 'OTEL_SERVICE_NAME'
>;

export interface StartTracingOptions {
  /** Export here instead of over OTLP, each span as it ends (tests: an InMemorySpanExporter). */
  exporter?: SpanExporter;
  /** Where the SDK's own problems go (a collector that does not answer). */
  logger?: Logger;
}
