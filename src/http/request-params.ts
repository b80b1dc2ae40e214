import type { ExecutionResult } from 'graphql';
import { requestError } from './respond.js';

/** The GraphQL-over-HTTP request parameters, after type checks. */
export interface GraphQLParams {
  query?: string | undefined;
  variables?: Record<string, unknown> | undefined;
  operationName?: string | undefined;
  extensions?: Record<string, unknown> | undefined;
  /** Trusted-document id (`sha256:<hex>` or bare hex), GraphQL over HTTP persisted documents. */
  documentId?: string | undefined;
}

export type ParamsOutcome = { ok: true; params: GraphQLParams } | { ok: false; error: ExecutionResult };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deepest nesting accepted in `variables` and `extensions`. Our deepest input type (Filter) is two
 * levels deep; every later step (hashing for the cache key, coercion) walks these values, and a
 * value nested thousands deep would exhaust the stack there.
 */
export const MAX_JSON_DEPTH = 32;

/** Whether a parsed JSON value nests deeper than `limit` arrays or objects (iterative: no recursion). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(next)) pending.push([child, depth + 1]);
  }
  return false;
}

const invalid = (message: string): ParamsOutcome => ({ ok: false, error: requestError(message, 'BAD_REQUEST', 400) });

/**
 * Checks each parameter's type: GraphQL over HTTP lets a server answer 400 to a non-string `query`
 * or `operationName` and to non-map `variables` or `extensions`, rather than ignoring them. `null`
 * counts as absent.
 */
function fromRecord(source: Record<string, unknown>): ParamsOutcome {
  const params: GraphQLParams = {};
  for (const name of ['query', 'operationName', 'documentId'] as const) {
    const value = source[name];
    if (value == null) continue;
    if (typeof value !== 'string') return invalid(`The "${name}" parameter must be a string.`);
    params[name] = value;
  }
  for (const name of ['variables', 'extensions'] as const) {
    const value = source[name];
    if (value == null) continue;
    if (!isObject(value)) return invalid(`The "${name}" parameter must be a JSON object.`);
    // The object itself is level 1.
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) return invalid(`The "${name}" parameter is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    params[name] = value;
  }
  return { ok: true, params };
}

/** POST: the body text as sent with Content-Type: application/json. */
export function paramsFromBody(text: string): ParamsOutcome {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Spec, errors table: exactly this message.
    return invalid('Malformed JSON body');
  }
  if (!isObject(body)) return invalid('The JSON body must be an object with a "query" string.');
  return fromRecord(body);
}

/** GET: URL parameters; `variables` and `extensions` are URL-encoded JSON. */
export function paramsFromSearch(search: URLSearchParams): ParamsOutcome {
  const record: Record<string, unknown> = {};
  for (const name of ['query', 'operationName', 'documentId'] as const) {
    const value = search.get(name);
    if (value !== null && value !== '') record[name] = value;
  }
  for (const name of ['variables', 'extensions'] as const) {
    const value = search.get(name);
    if (value === null || value === '') continue;
    try {
      record[name] = JSON.parse(value);
    } catch {
      return invalid(`The "${name}" parameter is not valid JSON.`);
    }
  }
  return fromRecord(record);
}
