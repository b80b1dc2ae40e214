import type { ExecutionResult } from 'graphql';
import type { GraphQLMediaType } from './negotiate.js';

/**
 * Status of the errors that stop a request before execution, by `extensions.code`. The code is the
 * status an error carries: this table is the only place that turns it into a number.
 */
const REQUEST_ERROR_STATUS: Readonly<Record<string, number>> = {
  // Spec, errors table: malformed JSON, GET without the preflight header.
  BAD_REQUEST: 400,
  GRAPHQL_PARSE_FAILED: 400,
  // Spec, errors table: "Query fails validation → 400"; our depth/alias/token limits are validation too.
  GRAPHQL_VALIDATION_FAILED: 400,
  // The automatic persisted query protocol: clients retry with the text on a 200 answer.
  PERSISTED_QUERY_NOT_FOUND: 200,
  PAYLOAD_TOO_LARGE: 413,
  // A POST body that is not JSON (and not a "simple" type, which is refused as CSRF).
  UNSUPPORTED_MEDIA_TYPE: 415,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INTERNAL_SERVER_ERROR: 500,
};

/**
 * The one mapping from a GraphQL response to its HTTP status.
 *
 * - Executed (a `data` entry, even null): 200. Spec, errors table: invalid argument values and
 *   resolver failures are 200 with `errors` beside (partial or null) `data`.
 * - Stopped before execution: the code's status from the table above.
 * - Stopped while coercing variables (no `data`, no listed code): 200 for application/json and 400
 *   for application/graphql-response+json, as GraphQL over HTTP asks for each media type.
 */
export function httpStatusFor(result: ExecutionResult, mediaType: GraphQLMediaType): number {
  if (result.data !== undefined) return 200;
  const code = result.errors?.[0]?.extensions?.['code'];
  const status = typeof code === 'string' ? REQUEST_ERROR_STATUS[code] : undefined;
  if (status !== undefined) return status;
  return mediaType === 'application/graphql-response+json' ? 400 : 200;
}
