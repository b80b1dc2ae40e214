import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from '@envelop/core';
import type { LogEvent } from 'kysely';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { RequestRecord } from './request-log.js';

/**
 * OpenTelemetry tracing, off unless the standard OTEL_* settings ask for it (docs/operating.md).
 *
 * This module holds no OpenTelemetry code: the SDK is loaded by `startTracing` only, and the HTTP
 * server, the Envelop pipeline and the database ask `activeTracing()` once, when they are built.
 * With tracing off, nothing of OpenTelemetry is loaded and no request pays for it.
 *
 * The tracer is process-wide, as OpenTelemetry's own global provider is: `calendar serve` starts
 * it before the service, so the pieces built after it are traced.
 */
export interface Tracing {
  /** Runs `handle` inside the request's SERVER span (continuing a W3C `traceparent` the caller sent). */
  traceRequest(req: IncomingMessage, res: ServerResponse, record: RequestRecord, handle: () => Promise<void>): Promise<void>;
  /** Spans for GraphQL parse, validate and execute (named after the operation). */
  envelopPlugin(): Plugin;
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

/**
 * Whether the settings turn tracing on. The specification's default exporter is `otlp`, but a
 * service that sent spans to localhost:4318 whenever nobody said otherwise would surprise: tracing
 * is on when an endpoint is given, or OTEL_TRACES_EXPORTER=otlp asks for the default endpoint.
 */
export function tracingEnabled(settings: TracingSettings): boolean {
  if (settings.OTEL_SDK_DISABLED) return false;
  if (settings.OTEL_TRACES_EXPORTER !== undefined) return settings.OTEL_TRACES_EXPORTER === 'otlp';
  return settings.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
}

/** Where spans go, as the OTLP exporter resolves it (for the start-up line). */
export function tracesEndpoint(settings: TracingSettings): string {
  if (settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = settings.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318';
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

let active: Tracing | undefined;

/** The tracing started in this process, if any. */
export function activeTracing(): Tracing | undefined {
  return active;
}

export interface StartTracingOptions {
  /** Export here instead of over OTLP, each span as it ends (tests: an InMemorySpanExporter). */
  exporter?: SpanExporter;
  /** Where the SDK's own problems go (a collector that does not answer). */
  logger?: Logger;
}

/**
 * Starts tracing when the settings (or a given exporter) ask for it; returns undefined otherwise.
 * Start it before the service: pieces built earlier are not traced.
 */
export async function startTracing(settings: TracingSettings, options: StartTracingOptions = {}): Promise<Tracing | undefined> {
  if (active) throw new Error('Tracing is already started in this process.');
  if (!options.exporter && !tracingEnabled(settings)) return undefined;
  const { createTracing } = await import('./otel-tracing.js');
  active = await createTracing(settings, options);
  return active;
}

/** Flushes and stops the active tracing (at shutdown, and between tests). */
export async function stopTracing(): Promise<void> {
  const tracing = active;
  active = undefined;
  await tracing?.shutdown();
}
