import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, diag, DiagLogLevel, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import {
  ATTR_DB_NAMESPACE,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type { LogEvent } from 'kysely';
import type { RequestRecord } from './request-log.js';
import type { StartTracingOptions, Tracing, TracingSettings } from './tracing-contract.js';

/** Ours: the request id of the access log line (X-Request-Id). */
const ATTR_REQUEST_ID = 'http.request.id';
/** Ours: the embedded database is PostgreSQL too; this tells it from a server. */
const ATTR_DB_DRIVER = 'db.client.driver';
/** Ours: the client went away (or we cut the connection) before the whole response was sent. */
const ATTR_ABORTED = 'http.response.aborted';

export const SERVICE_NAME = 'event-calendar-api';
/** The SDK's problems are logged at most this often. */
const PROBLEM_LOG_INTERVAL_MS = 60_000;
/** How long shutdown waits for the last spans to reach the collector. */
const SHUTDOWN_FLUSH_MS = 3000;

/** OTEL_TRACES_SAMPLER and _ARG, as the specification defines them (the SDK no longer reads them). */
function samplerFrom(settings: TracingSettings): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(settings.OTEL_TRACES_SAMPLER_ARG ?? 1);
  switch (settings.OTEL_TRACES_SAMPLER) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** `select`, `insert`, `begin`, …: the statement's first keyword (the SQL is ours, never user text). */
function operationOf(sql: string): string | undefined {
  return /^\s*(?:with\b[\s\S]*?\)\s*)?([a-z]+)/i.exec(sql)?.[1]?.toLowerCase();
}

/** Builds the SDK and registers it globally; called by startTracing only. */
export function createTracing(settings: TracingSettings, options: StartTracingOptions): Tracing {
  const logger = options.logger;
  if (logger) {
    // The SDK's own trouble (a collector that does not answer) goes to our log, never to the
    // console, and at most once a minute: an export is tried every few seconds while it is down.
    let lastLogged = -Infinity;
    let suppressed = 0;
    const report = (message: string) => {
      const now = Date.now();
      if (now - lastLogged < PROBLEM_LOG_INTERVAL_MS) {
        suppressed++;
        return;
      }
      logger.warn({ detail: message, suppressed }, 'tracing: the OpenTelemetry SDK reports a problem (spans may be lost)');
      lastLogged = now;
      suppressed = 0;
    };
    diag.setLogger(
      { error: report, warn: report, info: () => undefined, debug: () => undefined, verbose: () => undefined },
      DiagLogLevel.WARN,
    );
  }
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, over our default name.
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: SERVICE_NAME }).merge(detectResources({ detectors: [envDetector] }));
  const processor = options.exporter
    ? new SimpleSpanProcessor({ exporter: options.exporter })
    : // The exporter reads OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, _HEADERS, _TIMEOUT, _COMPRESSION itself.
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter() });
  const provider = new TracerProvider({ resource, sampler: samplerFrom(settings), spanProcessors: [processor] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer(SERVICE_NAME);

  return {
    traceRequest(req: IncomingMessage, res: ServerResponse, record: RequestRecord, handle: () => Promise<void>): Promise<void> {
      const method = req.method ?? 'GET';
      const path = record.target.sentPath;
      // A route's template names the span (src/route-table.ts); any other path only its method (bounded names).
      const route = record.target.route?.template;
      const attributes: Attributes = {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_URL_PATH]: path,
        [ATTR_URL_SCHEME]: 'http',
        [ATTR_REQUEST_ID]: record.id,
      };
      if (route) attributes[ATTR_HTTP_ROUTE] = route;
      // A caller's `traceparent` is continued, so its trace shows where our time went.
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      const span = tracer.startSpan(route ? `${method} ${route}` : method, { kind: SpanKind.SERVER, attributes }, parent);
      if (span.isRecording()) record.traceId = span.spanContext().traceId;
      res.once('close', () => {
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
        if (!res.writableFinished) span.setAttribute(ATTR_ABORTED, true);
        // Server spans: a 5xx is our failure, a 4xx the caller's (the HTTP conventions).
        if (res.statusCode >= 500) {
          span.setAttribute(ATTR_ERROR_TYPE, String(res.statusCode));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      });
      return context.with(trace.setSpan(parent, span), handle);
    },

    tracer,

    statementLog(database) {
      const base: Attributes = {
        [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
        [ATTR_DB_DRIVER]: database.driver,
        [ATTR_DB_NAMESPACE]: database.schema,
      };
      if (database.url) {
        try {
          const url = new URL(database.url);
          base[ATTR_SERVER_ADDRESS] = url.hostname;
          base[ATTR_SERVER_PORT] = Number(url.port || 5432);
        } catch {
          // Validated at start; an unreadable URL only loses these two attributes.
        }
      }
      // Kysely calls this when a statement has finished, in the async context that ran it: the span
      // is made afterwards with the statement's real start, under whatever span was active. Times go
      // in as performance.now() readings, which OpenTelemetry anchors to the wall clock as it does for
      // every other span; timeOrigin-based epoch times drift away from Date.now() as the process ages,
      // and the statements would then fall outside their execution's span.
      return (event: LogEvent) => {
        const end = performance.now();
        const operation = operationOf(event.query.sql);
        const span = tracer.startSpan(operation ?? 'sql', {
          kind: SpanKind.CLIENT,
          startTime: end - event.queryDurationMillis,
          attributes: {
            ...base,
            // The statement with its $n placeholders: parameter values are never recorded.
            [ATTR_DB_QUERY_TEXT]: event.query.sql,
            ...(operation ? { [ATTR_DB_OPERATION_NAME]: operation } : {}),
          },
        });
        if (event.level === 'error') {
          const code = (event.error as { code?: unknown }).code;
          if (typeof code === 'string') span.setAttribute(ATTR_DB_RESPONSE_STATUS_CODE, code);
          span.setAttribute(ATTR_ERROR_TYPE, typeof code === 'string' ? code : 'error');
          span.recordException(event.error instanceof Error ? event.error : String(event.error));
          span.setStatus({ code: SpanStatusCode.ERROR, message: event.error instanceof Error ? event.error.message : String(event.error) });
        }
        span.end(end);
      };
    },

    async shutdown() {
      // The buffered spans are sent, but a collector that does not answer may not hold up the exit.
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), SHUTDOWN_FLUSH_MS)));
      try {
        const outcome = await Promise.race([provider.shutdown().then(() => 'done' as const), deadline]);
        if (outcome === 'timeout') logger?.warn({ waitedMs: SHUTDOWN_FLUSH_MS }, 'tracing: the last spans could not be sent in time; stopping without them');
      } catch (error) {
        logger?.warn({ err: error }, 'tracing: the last spans could not be sent; stopping without them');
      } finally {
        clearTimeout(timer);
      }
      trace.disable();
      propagation.disable();
      context.disable();
      diag.disable();
    },
  };
}
