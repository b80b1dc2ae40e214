import { GraphQLError } from 'graphql';

/**
 * What an error asks of the HTTP response that carries it (GraphQL Yoga's `extensions.http`): set
 * where the error arises, read by the one function that picks the status (src/http/status.ts), and
 * never sent to the client.
 */
export interface HttpErrorExtension {
  status: number;
  headers?: Record<string, string>;
}

/** An error with a code and the HTTP status it stands for. */
export function apiError(message: string, code: string, http: HttpErrorExtension, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extensions, http } });
}

/**
 * "Invalid argument value → 200, data null, message `Query Arguments invalid` with
 * `extensions.invalidArgs`" (spec, errors table). `data` is nulled by the useInvalidArgumentsNullData plugin.
 */
export function invalidArguments(invalidArgs: string[], detail?: string): GraphQLError {
  return new GraphQLError('Query Arguments invalid', {
    extensions: { code: 'BAD_USER_INPUT', invalidArgs, ...(detail ? { detail } : {}) },
  });
}

/** Seconds a client is asked to wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The service cannot answer now (database unreachable or too slow, too many requests in flight):
 * HTTP 503 with `Retry-After`, so clients and CDNs retry later instead of caching a failure.
 */
export function serviceUnavailable(message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return apiError(message, 'SERVICE_UNAVAILABLE', { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } }, extensions);
}

/**
 * This caller has taken its share (too many requests at once, or its budget spent): HTTP 429 with
 * `Retry-After`; nothing was executed. Other callers are served meanwhile.
 */
export function rateLimited(message: string, retryAfterSeconds: number, extensions: Record<string, unknown> = {}): GraphQLError {
  return apiError(message, 'RATE_LIMITED', { status: 429, headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } }, extensions);
}
