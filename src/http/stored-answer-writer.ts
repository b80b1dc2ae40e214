import type { IncomingMessage, ServerResponse } from 'node:http';
import { countCacheLookup } from '../telemetry/metrics.js';
import { answerAge } from './answer-cache/answer-age.js';
import type { LookupKind } from './answer-cache/response-cache.js';
import type { StoredAnswer } from './answer-cache/stored-answer.js';
import { NO_STORE, OUTDATED_CACHE_CONTROL, entityTag, matchesIfNoneMatch, publicCacheControl } from './caching-headers.js';
import { cdnTagHeader } from './cdn-tag-header.js';
import type { SharedCaches } from './shared-caches.js';

export interface StoredAnswerWrite {
  /** The request's method, HEAD as GET: only GET answers are public (HTTP caches do not keep POST answers). */
  method: string;
  /** The media type written (`application/json`, `text/calendar`, ...); the entity tag depends on it. */
  mediaType: string;
  /** This caller's notice (an unknown or revoked key): the answer is then meant for this caller alone. */
  notice?: string | undefined;
  /**
   * Extensions meant for this caller alone (`cost`), added to answers no HTTP cache keeps (POST); a
   * GET answer may be public, so its body never carries them.
   */
  privateExtensions?: Record<string, unknown> | undefined;
  /** Headers of every response, 304 included (`Vary`). */
  headers?: Record<string, string> | undefined;
  /** Headers of a response with the body only (`Content-Disposition`). */
  contentHeaders?: Record<string, string> | undefined;
  /** What the response cache found (LookupOutcome.lookup), counted in its metrics (a 304 as `revalidated`); absent when it was not looked up. */
  lookup?: LookupKind | undefined;
  /** What public answers tell CDNs: their tags' header, and whether an answer is outdated already. */
  sharedCaches?: SharedCaches | undefined;
  /** The data version the answer was looked up at (LookupOutcome.version). */
  version?: string | undefined;
}

/**
 * The one writer of shareable answers, whether found in the response cache or just run. Caching: a
 * GET answer with no per-caller notice is public for what remains of its TTL (max-age counts down;
 * `Age` says how old it is; a matching If-None-Match gets a 304); a POST answer is `no-store` (HTTP
 * caches do not keep POST answers; ours keeps it: docs/transport.md); an answer with a notice is
 * meant for this caller alone: `private, no-store`. Only public answers carry CDN tags; while this node
 * still reads an import it knows of, public answers are outdated and say max-age=0 (SharedCaches).
 */
export function writeStoredAnswer(req: IncomingMessage, res: ServerResponse, answer: StoredAnswer, write: StoredAnswerWrite): void {
  const contentType = `${write.mediaType}; charset=utf-8`;
  let notModified = false;
  const own = write.method === 'GET' ? undefined : write.privateExtensions;
  if (write.notice !== undefined || own) {
    // The stored body is exactly `{"data":...}`: the caller's extensions go in before its last brace.
    const extensions = { ...(write.notice === undefined ? {} : { notice: write.notice }), ...own };
    const body = Buffer.concat([answer.body.subarray(0, answer.body.length - 1), Buffer.from(`,"extensions":${JSON.stringify(extensions)}}`)]);
    const cacheControl = write.notice === undefined ? NO_STORE : `private, ${NO_STORE}`;
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length, 'Cache-Control': cacheControl, ...write.headers });
    res.end(body);
  } else if (write.method !== 'GET') {
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': answer.body.length, 'Cache-Control': NO_STORE, ...write.headers });
    res.end(answer.body);
  } else {
    const etag = entityTag(answer.tag, write.mediaType);
    const { ageMs } = answerAge(answer, Date.now());
    const shared = write.sharedCaches;
    const outdated = shared?.outdated(write.version) === true;
    const tagged = shared?.tagHeader && !outdated ? cdnTagHeader(shared.tagHeader, answer.cdnTags) : undefined;
    const cacheControl = outdated ? OUTDATED_CACHE_CONTROL : publicCacheControl({ ttlMs: answer.ttlMs, ageMs });
    const headers = { 'Cache-Control': cacheControl, ETag: etag, Age: String(Math.floor(ageMs / 1000)), ...write.headers, ...tagged };
    notModified = matchesIfNoneMatch(req, etag);
    if (notModified) {
      res.writeHead(304, headers);
      res.end();
    } else {
      res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': answer.body.length, ...write.contentHeaders, ...headers });
      res.end(answer.body);
    }
  }
  countLookup(write.lookup, notModified);
}

/**
 * The one place the response cache's lookups are counted: here, where an answer is written, as only
 * the writer knows whether a hit became a 304. A route that answers a miss with no shareable answer
 * (errors) counts it here too.
 */
export function countLookup(lookup: LookupKind | undefined, notModified = false): void {
  if (lookup) countCacheLookup(notModified && lookup !== 'miss' ? 'revalidated' : lookup);
}
