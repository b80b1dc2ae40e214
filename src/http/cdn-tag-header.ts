import { ALL_TAG, EVENTS_TAG, isEventTag } from '../domain/answer-tags.js';

/** The CDN tag header dialects the service can write (CDN_TAG_HEADER). */
export type CdnTagHeaderName = 'Surrogate-Key' | 'Cache-Tag' | 'Edge-Cache-Tag';

interface Dialect {
  separator: string;
  /** Most tags one answer may carry. */
  maxTags: number;
  /** Longest tag, in bytes. */
  maxTagBytes: number;
  /** Longest header value, in bytes. */
  maxBytes: number;
}

/**
 * Each CDN's reading of its header: Fastly's `Surrogate-Key` (what the shipped Varnish VCL maps to
 * xkey): space-separated, keys up to 1 024 bytes, 16 384 bytes in all; Cloudflare's `Cache-Tag`:
 * comma-separated, tags up to 1 024 bytes, 16 KB in all; Akamai's `Edge-Cache-Tag`: comma-separated,
 * at most 128 tags of 128 bytes.
 */
const DIALECTS: Readonly<Record<CdnTagHeaderName, Dialect>> = {
  'Surrogate-Key': { separator: ' ', maxTags: Number.POSITIVE_INFINITY, maxTagBytes: 1024, maxBytes: 16_384 },
  'Cache-Tag': { separator: ',', maxTags: Number.POSITIVE_INFINITY, maxTagBytes: 1024, maxBytes: 16_000 },
  'Edge-Cache-Tag': { separator: ',', maxTags: 128, maxTagBytes: 128, maxBytes: 16_384 },
};

/**
 * The header carrying an answer's tags in the dialect the operator picked, within that CDN's limits:
 * an answer whose tags do not fit loses its event tags for `events` (purged by any event change:
 * never stale, only purged more often). Every tagged answer carries `all` as well (purged after an
 * import too large to name its events). Undefined when there is no tag to send.
 */
export function cdnTagHeader(name: CdnTagHeaderName, answerTags: readonly string[]): Readonly<Record<string, string>> | undefined {
  if (answerTags.length === 0) return undefined;
  let made = madeHeaders.get(name);
  if (!made) madeHeaders.set(name, (made = new WeakMap()));
  let header = made.get(answerTags);
  if (!header) made.set(answerTags, (header = headerOf(name, answerTags)));
  return header;
}

/**
 * Process-wide: the header of each tag list, per dialect. A stored answer keeps its list, so a hit
 * reuses the header its first request made (measuring and joining the tags per hit was 2 % of a
 * cached answer's CPU); a list nobody holds any more is forgotten with it.
 */
const madeHeaders = new Map<CdnTagHeaderName, WeakMap<readonly string[], Readonly<Record<string, string>>>>();

function headerOf(name: CdnTagHeaderName, answerTags: readonly string[]): Readonly<Record<string, string>> {
  const tags = [ALL_TAG, ...answerTags];
  const dialect = DIALECTS[name];
  const fits = (list: readonly string[]) =>
    list.length <= dialect.maxTags &&
    list.every((tag) => Buffer.byteLength(tag) <= dialect.maxTagBytes) &&
    Buffer.byteLength(list.join(dialect.separator)) <= dialect.maxBytes;
  const sent = fits(tags) ? tags : [...new Set([ALL_TAG, EVENTS_TAG, ...answerTags.filter((tag) => !isEventTag(tag))])];
  return Object.freeze({ [name]: sent.join(dialect.separator) });
}
