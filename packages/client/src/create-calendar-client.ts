import { CalendarRequestError, type GraphQLErrorLike } from './calendar-request-error.js';
import { operationName } from './operation-name.js';
import { sha256Hex } from './sha256-hex.js';
import { stableJson } from './stable-json.js';

/**
 * A typed document: its text (`toString()`) and, as a phantom type, its result and variables. The
 * documents of this package (`./documents`) are plain strings typed this way; GraphQL Code
 * Generator's client preset (`documentMode: 'string'`) writes objects that fit too. Structural, so
 * no GraphQL parser is needed at run time.
 */
export interface CalendarDocument<TResult, TVariables> {
  readonly __apiType?: (variables: TVariables) => TResult;
  toString(): string;
}

export type ResultOf<T> = T extends CalendarDocument<infer TResult, infer _TVariables> ? TResult : never;
export type VariablesOf<T> = T extends CalendarDocument<infer _TResult, infer TVariables> ? TVariables : never;

/**
 * The platform's `AbortSignal` where DOM or Node types are loaded, else the one property the client
 * reads: the client's types need neither.
 */
export type AbortSignalLike = typeof globalThis extends { AbortSignal: { prototype: infer TSignal } } ? TSignal : { readonly aborted: boolean };

/** What the client hands to `fetch`: a subset of `RequestInit`. */
export interface FetchInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignalLike;
}

/** The part of `fetch` the client uses; `globalThis.fetch` fits, and so does a test double. */
export type FetchLike = (
  url: string,
  init: FetchInit,
) => Promise<{ readonly status: number; readonly headers?: { get(name: string): string | null }; text(): Promise<string> }>;

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
  signal?: AbortSignalLike | undefined;
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
  errors?: GraphQLErrorLike[];
  extensions?: Record<string, unknown>;
}

interface Answer {
  status: number;
  body: GraphQLResponseBody;
  /** Retry-After in seconds (429, 503), when given as a number of seconds. */
  retryAfter: number | undefined;
}

const NOT_FOUND = ['PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND'];
const NOT_SUPPORTED = ['PersistedQueryNotSupported', 'PERSISTED_QUERY_NOT_SUPPORTED'];
/** Hashes kept per client: documents are few, but a page that builds query text on the fly must not grow this forever. */
const MAX_KEPT_HASHES = 200;

function hasError(body: GraphQLResponseBody, names: readonly string[]): boolean {
  return (body.errors ?? []).some((error) => names.includes(error.message) || names.includes(String(error.extensions?.['code'])));
}

// Page-wide: said once per page, not per client: it is the page that lacks WebCrypto.
let toldWhyNoPersistedGets = false;

function tellWhyNoPersistedGets(): void {
  if (toldWhyNoPersistedGets) return;
  toldWhyNoPersistedGets = true;
  console.warn(
    '[calendar] Persisted GET queries are off: this page has no WebCrypto (crypto.subtle exists only in secure contexts: ' +
      'https pages and localhost), so the client cannot hash the queries it sends. Every query goes as POST, which no CDN ' +
      'caches. Serve the page over https to turn them on.',
  );
}

/**
 * The calendar's typed client. Queries go as GET by hash (automatic persisted queries), which a
 * CDN can cache; the `Service-Require-Preflight` header is what the service demands of any GET
 * (its CSRF rule). The hash is always the SHA-256 of the exact text this client sends, so the GET
 * of a document's first visitor registers the very hash every later visitor asks for; a hash
 * carried inside a document is never trusted (a stale one could name another document).
 */
export function createCalendarClient(options: CalendarClientOptions): CalendarClient {
  // Unbound `fetch` throws "Illegal invocation" in browsers; call it through globalThis.
  const fetchImpl: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const maxGetUrlLength = options.maxGetUrlLength ?? 2000;
  // `X-Client-Id` is never sent: the spec reserves it for the calendar's own clients.
  const identity: Record<string, string> = { Accept: 'application/json' };
  if (options.apiKey) identity['X-Api-Key'] = options.apiKey;
  if (options.pageUrl) identity['X-Page-Url'] = options.pageUrl;
  const hashes = new Map<string, Promise<string | null>>();
  let persisted = true;
  let lastNotice: string | null = null;

  function hashOf(query: string): Promise<string | null> {
    let hash = hashes.get(query);
    if (!hash) {
      if (hashes.size >= MAX_KEPT_HASHES) hashes.delete(hashes.keys().next().value!);
      hash = sha256Hex(query);
      hashes.set(query, hash);
    }
    return hash;
  }

  async function send(url: string, init: FetchInit): Promise<Answer> {
    let status: number;
    let text: string;
    let retryAfter: number | undefined;
    try {
      const response = await fetchImpl(url, init);
      status = response.status;
      const header = response.headers?.get('retry-after');
      if (header && /^\d{1,9}$/.test(header.trim())) retryAfter = Number(header.trim());
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
      throw new CalendarRequestError([{ message: `Expected a GraphQL JSON response, got HTTP ${status}` }], status, null, {}, { retryAfter });
    }
    return { status, body, retryAfter };
  }

  async function request(document: CalendarDocument<unknown, unknown>, variables?: unknown, requestOptions?: RequestOptions): Promise<unknown> {
    const query = document.toString();
    const name = operationName(query);
    const vars = variables ?? {};
    const signal = requestOptions?.signal ? { signal: requestOptions.signal } : {};
    let answer: Answer | undefined;
    let register: string | null = null;

    if (persisted) {
      const hash = await hashOf(query);
      if (hash === null) {
        persisted = false;
        tellWhyNoPersistedGets();
      } else {
        const params = new URLSearchParams();
        if (name) params.set('operationName', name);
        params.set('variables', stableJson(vars));
        params.set('extensions', JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }));
        const url = `${options.endpoint}${options.endpoint.includes('?') ? '&' : '?'}${params}`;
        if (url.length <= maxGetUrlLength) {
          answer = await send(url, { method: 'GET', headers: { ...identity, 'Service-Require-Preflight': 'true' }, ...signal });
          if (hasError(answer.body, NOT_SUPPORTED)) {
            persisted = false;
            answer = undefined;
          } else if (hasError(answer.body, NOT_FOUND)) {
            // APQ: the text goes once with its hash; the server checks the hash and keeps the text.
            register = hash;
            answer = undefined;
          }
        }
      }
    }

    if (!answer) {
      const extensions = register ? { persistedQuery: { version: 1, sha256Hash: register } } : undefined;
      const body = JSON.stringify({ query, variables: vars, operationName: name, extensions });
      answer = await send(options.endpoint, { method: 'POST', headers: { ...identity, 'Content-Type': 'application/json' }, body, ...signal });
    }

    const { status, body, retryAfter } = answer;
    // Spec: `extensions.notice` is not an error; it is reported apart from the data and errors.
    const notice = body.extensions?.['notice'];
    lastNotice = typeof notice === 'string' ? notice : null;
    if (lastNotice) options.onNotice?.(lastNotice);
    // Spec, Errors rule 1: `errors` may come with partial data on 200; check every response.
    if (body.errors?.length) throw new CalendarRequestError(body.errors, status, body.data ?? null, body.extensions, { retryAfter });
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
