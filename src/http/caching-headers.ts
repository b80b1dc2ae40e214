import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * What changes the body of a GET /graphQL answer besides the URL: `Accept` (sandbox HTML or JSON,
 * and which JSON media type), `X-Api-Key` (an unknown or revoked key adds a notice), the CSRF
 * header (without it the answer is a 400) and `Accept-Encoding` (brotli, zstd, gzip or none:
 * content-coding.ts). A shared cache must keep these variants apart.
 */
export const GRAPHQL_VARY = 'Accept, X-Api-Key, Service-Require-Preflight, Accept-Encoding';

export const NO_STORE = 'no-store';

/** Freshness of a cached answer as the response cache reports it. */
export interface Freshness {
  /** TTL the answer was cached with. */
  ttlMs: number;
  /** How long ago it was cached (0 when cached by this request). */
  ageMs: number;
}

/**
 * How long past its freshness a cache may still serve an answer when the origin errors or cannot
 * be reached (RFC 5861 `stale-if-error`): a day. A reader behind a CDN then sees the calendar as it
 * was, not an error, through an origin outage; the TTLs bound only what moves with "now" (which
 * dates have ended), and an answer hours old is better than none. Fastly, Cloudflare and Akamai
 * honour it; Varnish needs its VCL to (grace).
 */
export const STALE_IF_ERROR_SECONDS = 86_400;

/**
 * `Cache-Control` of a cacheable GET answer, from the same TTL as our response cache: browsers and
 * CDNs keep it for what remains of that TTL, a CDN may serve it stale for half a TTL more while
 * it revalidates, and for STALE_IF_ERROR_SECONDS while the origin fails. An answer served stale by
 * our own cache (while it is refreshed) has max-age=0.
 */
export function publicCacheControl(freshness: Freshness): string {
  // Whole seconds, so that Age + max-age is the TTL: `Age` is the age in whole seconds, floored.
  const remaining = Math.max(0, Math.floor(freshness.ttlMs / 1000) - Math.floor(freshness.ageMs / 1000));
  const stale = Math.floor(freshness.ttlMs / 2000);
  return `public, max-age=${remaining}, s-maxage=${remaining}, stale-while-revalidate=${stale}, stale-if-error=${STALE_IF_ERROR_SECONDS}`;
}

/**
 * `Cache-Control` of a public answer that is outdated already (its node still reads a newer import):
 * nobody may keep it fresh, a CDN may still fall back on it while the origin fails.
 */
export const OUTDATED_CACHE_CONTROL = `public, max-age=0, s-maxage=0, stale-if-error=${STALE_IF_ERROR_SECONDS}`;

/** Characters of the SHA-256 digest (base64url) a body tag keeps: 162 bits. */
export const BODY_TAG_LENGTH = 27;

/** A digest of a body's bytes, for entity tags: BODY_TAG_LENGTH characters of base64url SHA-256. */
export function bodyTag(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, BODY_TAG_LENGTH);
}

/**
 * A strong validator of one representation: the tag of the body's bytes, a suffix per media type
 * (the same bytes sent as application/graphql-response+json are another representation) and one
 * per compressed form (`-br`, `-gz`, ...: answer-cache/answer-forms.ts), so that each tag names one
 * sequence of bytes on the wire (RFC 9110 §8.8.1).
 */
export function entityTag(bodyTag: string, mediaType: string, formSuffix = ''): string {
  return mediaType === 'application/graphql-response+json' ? `"${bodyTag}-gr${formSuffix}"` : `"${bodyTag}${formSuffix}"`;
}

/**
 * RFC 9110 If-None-Match (weak comparison) across the content codings of one content: the tag a
 * 304 carries, or undefined for a 200. A listed tag matches when it is the selected
 * representation's (`selected`), `*`, or the tag of the same content (`identity`'s tag plus a suffix)
 * in a form whose coding this request accepts (`accepted`): the client's copy decodes to exactly
 * the bytes it would get, in a coding it asked for, so the server selects that copy (proactive
 * negotiation may pick any acceptable representation) and the 304 names it, which is how a cache
 * knows which stored response to freshen (RFC 9111 §4.3.4).
 */
export function notModifiedTag(
  ifNoneMatch: string | undefined,
  selected: string,
  identity: string,
  accepted: (formSuffix: string) => boolean,
): string | undefined {
  if (!ifNoneMatch) return undefined;
  const stem = identity.slice(0, -1);
  let other: string | undefined;
  for (const listed of ifNoneMatch.split(',')) {
    const tag = listed.trim().replace(/^W\//, '');
    if (tag === '*' || tag === selected) return selected;
    if (other === undefined && tag.length >= identity.length && tag.startsWith(stem) && tag.endsWith('"') && accepted(tag.slice(stem.length, -1))) other = tag;
  }
  return other;
}

/** RFC 9110 If-None-Match with the weak comparison (a `W/` prefix is ignored). */
export function matchesIfNoneMatch(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}
