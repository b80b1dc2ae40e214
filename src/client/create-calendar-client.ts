import type { GraphQLFormattedError } from 'graphql';
import { CalendarRequestError } from './calendar-request-error.js';
import { sha256Hex } from './sha256-hex.js';
import { stableJson } from './stable-json.js';

/**
 * A typed document as GraphQL Code Generator's client preset writes it in `documentMode: 'string'`
 * (`TypedDocumentString`): the query text, its result and variables types, and in `__meta__.hash`
 * the `sha256:<hex>` key of the persisted-documents manifest. Structural, so documents from any
 * codegen run fit, and no GraphQL parser is needed at run time.
 */
export interface CalendarDocument<TResult, TVariables> {
  __apiType?: (variables: TVariables) => TResult;
  __meta__?: Readonly<Record<string, unknown>> | undefined;
  toString(): string;
}

export type ResultOf<T> = T extends CalendarDocument<infer TResult, infer _TVariables> ? TResult : never;
export type VariablesOf<T> = T extends CalendarDocument<infer _TResult, infer TVariables> ? TVariables : never;

/** The part of `fetch` the client uses; `globalThis.fetch` fits, and so does a test double. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Pick<Response, 'status' | 'text'>>;

export interface CalendarClientOptions {
  /** The GraphQL endpoint: absolute (`https://host/graphQL`) or, inside a page, relative (`/graphQL`). */
  endpoint: string;
  /** Application key (`hsk_...`), sent as `X-Api-Key`. It is identity, not a secret: fine in page source. */
  apiKey?: string | undefined;
  /** Full URL of the embedding page (https), sent as `X-Page-Url` to tell pages of one site apart. */
  pageUrl?: string | undefined;
  /** @default globalThis.fetch */
  fetch?: FetchLike | undefined;
  /** Called with `extensions.notice` (say, "unknown key, handled as anonymous"): not an error. */
  onNotice?: ((notice: string) => void) | undefined;
  /** Longest GET URL; longer requests (big variables) go as POST. @default 2000 */
  maxGetUrlLength?: number | undefined;
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
}

/** Variables may be left out when the operation has no required ones. */
export type RequestArgs<TVariables> = Record<string, never> extends TVariables
  ? [variables?: TVariables, options?: RequestOptions]
  : [variables: TVariables, options?: RequestOptions];

export interface CalendarClient {
  /** Runs an operation; resolves to its typed `data`, or throws a `CalendarRequestError`. */
  request<TResult, TVariables>(document: CalendarDocument<TResult, TVariables>, ...args: RequestArgs<TVariables>): Promise<TResult>;
  /** `extensions.notice` of the latest response, null when it carried none. */
  readonly lastNotice: string | null;
}

interface GraphQLResponseBody {
  data?: unknown;
  errors?: GraphQLFormattedError[];
  extensions?: Record<string, unknown>;
}

interface Answer {
  status: number;
  body: GraphQLResponseBody;
}

const NOT_FOUND = ['PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND'];
const NOT_SUPPORTED = ['PersistedQueryNotSupported', 'PERSISTED_QUERY_NOT_SUPPORTED'];

function hasError(body: GraphQLResponseBody, names: readonly string[]): boolean {
  return (body.errors ?? []).some((error) => names.includes(error.message) || names.includes(String(error.extensions?.['code'])));
}

function manifestHash(document: CalendarDocument<unknown, unknown>): string | undefined {
  const hash = document.__meta__?.['hash'];
  return typeof hash === 'string' ? hash.replace(/^sha256:/, '') : undefined;
}

/**
 * The calendar's typed client. Queries go as GET by hash (automatic persisted queries), which a
 * CDN can cache; the `Service-Require-Preflight` header is what the service demands of any GET
 * (its CSRF rule). When the server does not know the hash yet, the query is POSTed once with the
 * hash so the server registers it; URLs too long for GET go as POST straight away.
 */
export function createCalendarClient(options: CalendarClientOptions): CalendarClient {
  // Unbound `fetch` throws "Illegal invocation" in browsers; call it through globalThis.
  const fetchImpl: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const maxGetUrlLength = options.maxGetUrlLength ?? 2000;
  // `X-Client-Id` is never sent: the spec reserves it for the calendar's own clients.
  const identity: Record<string, string> = { Accept: 'application/json' };
  if (options.apiKey) identity['X-Api-Key'] = options.apiKey;
  if (options.pageUrl) identity['X-Page-Url'] = options.pageUrl;
  // Hashes this client registered by POST, per query text, for later GETs.
  const registered = new Map<string, string>();
  let persisted = true;
  let lastNotice: string | null = null;

  async function send(url: string, init: RequestInit): Promise<Answer> {
    let response: Pick<Response, 'status' | 'text'>;
    let text: string;
    try {
      response = await fetchImpl(url, init);
      text = await response.text();
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new CalendarRequestError([{ message: `Network error: ${String(error)}` }], 0, null, {}, { cause: error });
    }
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page, say): reported below.
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new CalendarRequestError([{ message: `Expected a GraphQL JSON response, got HTTP ${response.status}` }], response.status);
    }
    return { status: response.status, body };
  }

  async function request(document: CalendarDocument<unknown, unknown>, variables?: unknown, requestOptions?: RequestOptions): Promise<unknown> {
    const query = document.toString();
    const operationName = /\b(?:query|mutation|subscription)\s+([_A-Za-z]\w*)/.exec(query)?.[1];
    const vars = variables ?? {};
    const signal = requestOptions?.signal;
    let answer: Answer | undefined;
    let register = false;

    if (persisted) {
      const hash = registered.get(query) ?? manifestHash(document) ?? (await sha256Hex(query));
      if (hash) {
        const params = new URLSearchParams();
        if (operationName) params.set('operationName', operationName);
        params.set('variables', stableJson(vars));
        params.set('extensions', JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }));
        const url = `${options.endpoint}${options.endpoint.includes('?') ? '&' : '?'}${params}`;
        if (url.length <= maxGetUrlLength) {
          answer = await send(url, { method: 'GET', headers: { ...identity, 'Service-Require-Preflight': 'true' }, signal });
          if (hasError(answer.body, NOT_SUPPORTED)) {
            persisted = false;
            answer = undefined;
          } else if (hasError(answer.body, NOT_FOUND)) {
            register = true;
            answer = undefined;
          }
        }
      }
    }

    if (!answer) {
      // APQ servers check that the hash is the SHA-256 of the query text they receive. The manifest
      // hash is of codegen's normalised print, not of this text, so registering needs our own hash.
      const hash = register ? await sha256Hex(query) : null;
      const extensions = hash ? { persistedQuery: { version: 1, sha256Hash: hash } } : undefined;
      const body = JSON.stringify({ query, variables: vars, operationName, extensions });
      answer = await send(options.endpoint, { method: 'POST', headers: { ...identity, 'Content-Type': 'application/json' }, body, signal });
      if (hash && !answer.body.errors?.length) registered.set(query, hash);
    }

    const { status, body } = answer;
    // Spec: `extensions.notice` is not an error; it is reported apart from the data and errors.
    const notice = body.extensions?.['notice'];
    lastNotice = typeof notice === 'string' ? notice : null;
    if (lastNotice) options.onNotice?.(lastNotice);
    // Spec, Errors rule 1: `errors` may come with partial data on 200; check every response.
    if (body.errors?.length) throw new CalendarRequestError(body.errors, status, body.data ?? null, body.extensions);
    if (status < 200 || status > 299 || body.data == null) {
      throw new CalendarRequestError([{ message: `Unexpected response: HTTP ${status} without data` }], status, null, body.extensions);
    }
    return body.data;
  }

  return {
    request: request as CalendarClient['request'],
    get lastNotice() {
      return lastNotice;
    },
  };
}
