import type { StartTracingOptions, Tracing, TracingSettings } from './tracing-contract.js';

// OpenTelemetry tracing, off unless the standard OTEL_* settings ask for it (docs/operating.md).
//
// This module holds no OpenTelemetry code: the SDK is loaded by `startTracing` only, and the HTTP
// server, the Envelop pipeline and the database ask `activeTracing()` once, when they are built.
// With tracing off, nothing of OpenTelemetry is loaded and no request pays for it.

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

/**
 * Process-wide: the tracer of this process, as OpenTelemetry's own global provider is. `calendar
 * serve` starts it before the service, so the pieces built after it are traced.
 */
let processTracing: Tracing | undefined;

/** The tracing started in this process, if any. */
export function activeTracing(): Tracing | undefined {
  return processTracing;
}

/**
 * Starts tracing when the settings (or a given exporter) ask for it; returns undefined otherwise.
 * Start it before the service: pieces built earlier are not traced.
 */
export async function startTracing(settings: TracingSettings, options: StartTracingOptions = {}): Promise<Tracing | undefined> {
  if (processTracing) throw new Error('Tracing is already started in this process.');
  if (!options.exporter && !tracingEnabled(settings)) return undefined;
  const { createTracing } = await import('./otel-tracing.js');
  processTracing = createTracing(settings, options);
  return processTracing;
}

/** Flushes and stops the active tracing (at shutdown, and between tests). */
export async function stopTracing(): Promise<void> {
  const tracing = processTracing;
  processTracing = undefined;
  await tracing?.shutdown();
}
