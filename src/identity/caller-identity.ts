import type { Kysely } from 'kysely';
import { isDatabaseUnavailable } from '../db/connection-errors.js';
import type { Database } from '../db/database.js';
import type { DatabaseHealth } from '../db/database-health.js';
import { findApiKeyByHash, type ApiKeyIdentity } from '../db/repositories/api-keys.js';
import { hashApiKey } from '../domain/api-key-hash.js';
import type { Logger } from '../logger.js';
import { headerValue, type Caller, type IncomingRequestView } from './caller.js';
import { ClientAddresses } from './client-address.js';
import { requestCaller, type RequestCaller } from './request-caller.js';

export const UNKNOWN_KEY_NOTICE =
  'The API key sent with this request (X-Api-Key header or key parameter) is not known, so the request was answered as anonymous. ' +
  'Check the key for typing errors, or leave it out: no key is required.';
export const REVOKED_KEY_NOTICE =
  'The API key sent with this request (X-Api-Key header or key parameter) has been revoked, so the request was answered as anonymous. ' +
  'Ask the calendar for a new key, or leave it out: no key is required.';

export interface CallerIdentityOptions {
  db: Kysely<Database>;
  logger: Logger;
  /** Where a lookup that fails for an outage is reported (once per episode, not per request). */
  databaseHealth?: DatabaseHealth | undefined;
  /** How long a looked-up key (known or not) is reused before the database is asked again; a revocation takes effect within it. @default 60000 */
  cacheTtlMs?: number;
  /** Keys remembered at most (oldest dropped first). @default 10000 */
  maxCachedKeys?: number;
  /** Who calls without a key: the socket's peer, or what the trusted proxies say (TRUST_PROXY). @default the peer */
  addresses?: ClientAddresses | undefined;
}

/** Spec: the key comes in `X-Api-Key`, or "where headers cannot be set, in the query-string parameter key". */
function sentKey(request: IncomingRequestView | undefined): string | undefined {
  const fromHeader = headerValue(request, 'x-api-key');
  if (fromHeader !== undefined) return fromHeader;
  const fromQuery = request?.query?.['key'];
  return typeof fromQuery === 'string' && fromQuery.trim() !== '' ? fromQuery.trim() : undefined;
}

/** Keys are `hsk_` plus printable characters; anything else cannot be one, so the database is not asked. */
const KEY_SHAPE = /^hsk_[\x21-\x7e]{1,200}$/;

/**
 * Resolves the key a request carries into a caller, through a small in-process cache with a short
 * TTL: a known key costs no database read per request. The HTTP edge asks once per request, for
 * cache hits and executions alike (the pipeline gets the answer as context).
 */
export class CallerIdentity {
  private readonly ttlMs: number;
  private readonly maxKeys: number;
  private readonly cache = new Map<string, { expires: number; identity: Promise<ApiKeyIdentity | undefined> }>();
  private readonly addresses: ClientAddresses;

  constructor(private readonly options: CallerIdentityOptions) {
    this.ttlMs = options.cacheTtlMs ?? 60_000;
    this.maxKeys = options.maxCachedKeys ?? 10_000;
    this.addresses = options.addresses ?? new ClientAddresses({ kind: 'none' });
  }

  /**
   * The caller of a request, with its notice and usage labels: worked out once per request, at the
   * HTTP edge. Synchronous when no key is sent (the common case costs no promise).
   */
  callerOf(request: IncomingRequestView): RequestCaller | Promise<RequestCaller> {
    const key = sentKey(request);
    if (key === undefined) return requestCaller(ANONYMOUS, undefined, request, this.addressOf(request));
    if (!KEY_SHAPE.test(key)) return requestCaller(UNKNOWN, UNKNOWN_KEY_NOTICE, request, this.addressOf(request));
    return this.resolveKey(key).then((identity) => requestCaller(identity, noticeFor(identity), request, identity.status === 'keyed' ? '' : this.addressOf(request)));
  }

  private addressOf(request: IncomingRequestView): string {
    return this.addresses.of({ headers: request.headers, socketAddress: request.socketAddress });
  }

  private async resolveKey(key: string): Promise<Caller> {
    try {
      const identity = await this.lookup(hashApiKey(key));
      if (!identity) return UNKNOWN;
      if (identity.revoked) return { status: 'revoked' };
      return { status: 'keyed', keyHash: identity.keyHash, application: identity.application };
    } catch (error) {
      // Identity never fails a request: without the database we cannot tell, so no notice either.
      if (isDatabaseUnavailable(error) && this.options.databaseHealth) this.options.databaseHealth.reportFailure(error);
      else this.options.logger.warn({ err: error }, 'API key lookup failed; answering as anonymous');
      return ANONYMOUS;
    }
  }

  private lookup(keyHash: string): Promise<ApiKeyIdentity | undefined> {
    const now = Date.now();
    const cached = this.cache.get(keyHash);
    if (cached && cached.expires > now) return cached.identity;
    // The promise is cached, so concurrent first requests with one key share one read.
    const identity = findApiKeyByHash(this.options.db, keyHash);
    this.cache.delete(keyHash);
    this.cache.set(keyHash, { expires: now + this.ttlMs, identity });
    identity.catch(() => this.cache.delete(keyHash));
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= this.maxKeys) break;
      this.cache.delete(oldest);
    }
    return identity;
  }
}

const ANONYMOUS: Caller = { status: 'anonymous' };
const UNKNOWN: Caller = { status: 'unknown' };

/** The notice a successful answer to this caller carries, if any. */
function noticeFor(caller: Caller): string | undefined {
  if (caller.status === 'unknown') return UNKNOWN_KEY_NOTICE;
  if (caller.status === 'revoked') return REVOKED_KEY_NOTICE;
  return undefined;
}
