import type { ExecutionResult, GraphQLError } from 'graphql';
import type { HttpErrorExtension } from '../api-error.js';
import type { GraphQLMediaType } from './negotiate.js';

function httpOf(error: GraphQLError): HttpErrorExtension | undefined {
  const http = error.extensions?.['http'] as HttpErrorExtension | undefined;
  return http && typeof http.status === 'number' ? http : undefined;
}

/**
 * The one mapping from a GraphQL response to its HTTP status. Errors carry their status from where
 * they arise (`extensions.http`, see apiError); the highest one wins.
 *
 * - No error carries a status, and the operation executed (a `data` entry, even null): 200. Spec,
 *   errors table: invalid argument values and resolver failures are 200 with `errors` beside
 *   (partial or null) `data`.
 * - Stopped while coercing variables (no `data`, no status carried): 200 for application/json and
 *   400 for application/graphql-response+json, as GraphQL over HTTP asks for each media type.
 */
export function httpStatusFor(result: ExecutionResult, mediaType: GraphQLMediaType): number {
  let status: number | undefined;
  for (const error of result.errors ?? []) {
    const carried = httpOf(error)?.status;
    if (carried !== undefined && (status === undefined || carried > status)) status = carried;
  }
  if (status !== undefined) return status;
  if (result.data !== undefined) return 200;
  return mediaType === 'application/graphql-response+json' ? 400 : 200;
}

/** Response headers the errors ask for (`Retry-After`, `Allow`, ...). */
export function httpHeadersFor(result: ExecutionResult): Record<string, string> {
  let headers: Record<string, string> = {};
  for (const error of result.errors ?? []) {
    const carried = httpOf(error)?.headers;
    if (carried) headers = { ...headers, ...carried };
  }
  return headers;
}

/** The response body: the result as JSON, without the transport details errors carry for us. */
export function serializeResult(result: ExecutionResult): string {
  if (!result.errors?.some((e) => httpOf(e))) return JSON.stringify(result);
  const errors = result.errors.map((error) => {
    if (!httpOf(error)) return error;
    const { http: _http, ...extensions } = error.extensions;
    return { ...error.toJSON(), extensions };
  });
  return JSON.stringify({ ...result, errors });
}
