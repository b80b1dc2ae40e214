import type { ServerResponse } from 'node:http';
import type { ExecutionResult } from 'graphql';
import { apiError } from '../api-error.js';
import type { GraphQLMediaType } from './negotiate.js';
import { httpHeadersFor, httpStatusFor, serializeResult } from './status.js';

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
 * A request error: stops the request before execution, with the HTTP status it stands for. GraphQL
 * over HTTP: such a response has no `data` entry, only `errors`.
 */
export function requestError(message: string, code: string, status: number, extensions: Record<string, unknown> = {}): ExecutionResult {
  return { errors: [apiError(message, code, { status }, extensions)] };
}

/** Writes a GraphQL result that carries no cacheable data: status and headers from its errors, never stored. */
export function sendResult(
  res: ServerResponse,
  result: ExecutionResult,
  options: { headers?: Record<string, string>; mediaType?: GraphQLMediaType } = {},
): void {
  const mediaType = options.mediaType ?? 'application/json';
  const headers = { 'Cache-Control': 'no-store', ...httpHeadersFor(result), ...options.headers };
  sendJson(res, httpStatusFor(result, mediaType), serializeResult(result), headers, mediaType);
}

/** Sends a request error with its status, never cached. */
export function sendRequestError(
  res: ServerResponse,
  message: string,
  code: string,
  status: number,
  options: { headers?: Record<string, string>; mediaType?: GraphQLMediaType; extensions?: Record<string, unknown> } = {},
): void {
  sendResult(res, requestError(message, code, status, options.extensions), options);
}

/** 405: the path exists, the method does not; `Allow` lists the methods it takes. */
export function sendMethodNotAllowed(res: ServerResponse, allow: string): void {
  sendRequestError(res, `Use ${allow.replace(', OPTIONS', '')}.`, 'METHOD_NOT_ALLOWED', 405, { headers: { Allow: allow } });
}
