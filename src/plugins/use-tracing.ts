import type { Plugin } from '@envelop/core';
import { context, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { getOperationAST, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { EdgeContext } from './edge-context.js';

// GraphQL semantic conventions are still "incubating": copied here, as the OpenTelemetry docs
// advise, rather than imported from the unstable entry point.
const ATTR_GRAPHQL_OPERATION_NAME = 'graphql.operation.name';
const ATTR_GRAPHQL_OPERATION_TYPE = 'graphql.operation.type';
/** Ours: the persisted-query hash or documentId the request named. */
const ATTR_GRAPHQL_PERSISTED_HASH = 'graphql.persisted_query.hash';
/** Ours: the `extensions.code` of each error in the result. */
const ATTR_GRAPHQL_ERROR_CODES = 'graphql.error.codes';

export interface TracingPluginOptions {
  tracer: Tracer;
}

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** Runs a synchronous phase inside a span of its own. */
function phase(tracer: Tracer, name: string, wrapped: () => void): void {
  tracer.startActiveSpan(name, (span) => {
    try {
      wrapped();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Spans for GraphQL parse, validate and execute, children of the HTTP request's span. Built on
 * Envelop's `instrumentation` hooks, which wrap each whole phase, every plugin's hooks included
 * (the parser and validation caches, the response cache, JIT), so a span is the phase's real cost.
 * The execute span is named `<type> <name>` (`query Events`) as the conventions ask, and is active
 * while resolvers run, so the SQL statements they send are its children.
 *
 * Not recorded: the document text and variables (a search term can be personal). @envelop/opentelemetry
 * was considered: it traces execution and resolvers only, not parse and validate, depends on the
 * previous major version of the SDK, and leaves a resolver's span open when it fails.
 */
export function useTracing(options: TracingPluginOptions): Plugin {
  const { tracer } = options;
  return {
    instrumentation: {
      parse: (_payload, wrapped) => phase(tracer, 'graphql.parse', wrapped),
      validate: (_payload, wrapped) => phase(tracer, 'graphql.validate', wrapped),
      execute: (_payload, wrapped) => {
        const span = tracer.startSpan('graphql.execute');
        return context.with(trace.setSpan(context.active(), span), async () => {
          try {
            await wrapped();
          } catch (error) {
            failed(span, error);
            throw error;
          } finally {
            span.end();
          }
        });
      },
    },
    // Envelop types the arguments and the result with `any` (it takes any graphql version): here they are graphql-js's.
    onExecute({ args }: { args: ExecutionArgs }) {
      // Inside the instrumentation above: the active span is this execution's.
      const span = trace.getActiveSpan();
      if (!span) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation) {
        const name = operation.name?.value;
        span.updateName(name ? `${operation.operation} ${name}` : operation.operation);
        span.setAttribute(ATTR_GRAPHQL_OPERATION_TYPE, operation.operation);
        if (name) span.setAttribute(ATTR_GRAPHQL_OPERATION_NAME, name);
      }
      const hash = (args.contextValue as Partial<EdgeContext>).persistedHash;
      if (hash) span.setAttribute(ATTR_GRAPHQL_PERSISTED_HASH, hash);
      return {
        onExecuteDone({ result }: { result: ExecutionResult | AsyncIterable<unknown> }) {
          if (!('errors' in result) || !result.errors?.length) return;
          const codes = result.errors.map((error) => {
            const code = error.extensions?.['code'];
            return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
          });
          span.setAttribute(ATTR_GRAPHQL_ERROR_CODES, codes);
          span.setStatus({ code: SpanStatusCode.ERROR, message: result.errors[0]?.message });
        },
      };
    },
  };
}
