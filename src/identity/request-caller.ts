import { headerValue, type Caller, type IncomingRequestView } from './caller.js';

/**
 * One request's caller, worked out once at the HTTP edge and handed to everything after it: the
 * response cache's hits, the GraphQL pipeline (as context), the usage counts.
 */
export interface RequestCaller {
  /** Who the key says is calling (anonymous for none; unknown or revoked keys are answered as anonymous). */
  readonly identity: Caller;
  /** What a successful answer to this caller says in `extensions.notice` (an unknown or revoked key). */
  readonly notice: string | undefined;
  /** Usage-count labels: the key's hash ('' when anonymous), the client id and the embedding page's origin. */
  readonly keyHash: string;
  readonly clientId: string;
  readonly pageOrigin: string;
  /**
   * Whose share of the service this request draws on (fair queueing, budgets): `key:<hash>` for a
   * valid key, else `address:<address>` (client-address.ts: IPv6 by its /64); `service` for the
   * service's own refreshes.
   */
  readonly shareKey: string;
  /** Which limits apply: a valid key's, or those of callers without one (unknown and revoked keys included). */
  readonly shareClass: 'key' | 'anonymous' | 'service';
}

/** The caller of a refresh the service runs itself (no key, no notice); never counted. */
export const SERVICE_CALLER: RequestCaller = {
  identity: { status: 'anonymous' },
  notice: undefined,
  keyHash: '',
  clientId: '',
  pageOrigin: '',
  shareKey: 'service',
  shareClass: 'service',
};

/** The caller of a request with this identity and notice, labelled from its headers; `address` tells callers without a valid key apart. */
export function requestCaller(identity: Caller, notice: string | undefined, request: IncomingRequestView, address: string): RequestCaller {
  const keyed = identity.status === 'keyed';
  return {
    identity,
    notice,
    keyHash: keyed ? identity.keyHash : '',
    clientId: clientId(headerValue(request, 'x-client-id')),
    pageOrigin: pageOrigin(headerValue(request, 'x-page-url')),
    shareKey: keyed ? `key:${identity.keyHash}` : `address:${address}`,
    shareClass: keyed ? 'key' : 'anonymous',
  };
}

/** Spec: `X-Page-Url` is "the full URL of the embedding page, starting with https"; we count its origin. */
function pageOrigin(value: string | undefined): string {
  if (!value) return '';
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? url.origin : '';
  } catch {
    return '';
  }
}

/** A client id is "form name/version": printable, bounded, so a caller cannot flood the table with junk. */
function clientId(value: string | undefined): string {
  return value && /^[\x20-\x7e]{1,100}$/.test(value) ? value : '';
}
