import type { ServerResponse } from 'node:http';
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { GraphQLMediaType } from './negotiate.js';
import { httpStatusFor } from './status.js';

/** Writes a JSON body with the given status and extra headers. Every response of the API is JSON. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  mediaType: GraphQLMediaType = 'application/json',
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': `${mediaType}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * A request error: stops the request before execution. GraphQL over HTTP: such a response has no
 * `data` entry, only `errors`.
 */
export function requestError(message: string, code: string, extensions: Record<string, unknown> = {}): ExecutionResult {
  return { errors: [new GraphQLError(message, { extensions: { code, ...extensions } })] };
}

/** Sends a request error with the status its code maps to, never cached. */
export function sendRequestError(
  res: ServerResponse,
  message: string,
  code: string,
  options: { headers?: Record<string, string>; mediaType?: GraphQLMediaType; extensions?: Record<string, unknown> } = {},
): void {
  const result = requestError(message, code, options.extensions);
  const mediaType = options.mediaType ?? 'application/json';
  sendJson(res, httpStatusFor(result, mediaType), result, { 'Cache-Control': 'no-store', ...options.headers }, mediaType);
}

/** The body of a request error, for routes that write it themselves with {@link sendJson}. */
export function errorBody(message: string, code: string, extensions: Record<string, unknown> = {}): ExecutionResult {
  return requestError(message, code, extensions);
}
