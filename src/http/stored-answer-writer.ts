import type { IncomingMessage, ServerResponse } from 'node:http';
import { countCacheLookup } from '../telemetry/metrics.js';
import { answerAge } from './answer-cache/answer-age.js';
import type { LookupKind } from './answer-cache/response-cache.js';
import { FORM_CODING, FORM_TAG_SUFFIX, LARGE_ANSWER_BYTES, codingOfTagSuffix, type AnswerForm } from './answer-cache/answer-forms.js';
import type { EncodedForm, StoredAnswer } from './answer-cache/stored-answer.js';
import { NO_STORE, OUTDATED_CACHE_CONTROL, entityTag, notModifiedTag, publicCacheControl } from './caching-headers.js';
import { COMPRESSION_MIN_BYTES, acceptsCoding, negotiateContentCoding } from './content-coding.js';
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
 *
 * Content coding (content-coding.ts): an answer of COMPRESSION_MIN_BYTES or more goes in the coding
 * the client prefers, from the form the stored answer keeps (answer-forms.ts): a hit compresses
 * nothing; the first request of a coding waits for its form, made in the thread pool. The request
 * that made a POST answer gets, among the codings it ranks equally, the cheapest to make (gzip: a
 * POST answer is kept by no HTTP cache, and often never asked again), later ones the smallest
 * (content-coding.ts). An answer
 * with this caller's own extensions (a notice, `cost`) is sent as it is: it is made for one
 * response, and such answers are few (an unknown key, a POST asking its cost).
 */
export function writeStoredAnswer(req: IncomingMessage, res: ServerResponse, answer: StoredAnswer, write: StoredAnswerWrite): void | Promise<void> {
  const own = write.method === 'GET' ? undefined : write.privateExtensions;
  if (write.notice !== undefined || own) return writeOwnAnswer(res, answer, write, own);
  // A POST answer this request made (not a hit), not large: the cheapest coding among the client's
  // equals. Not a GET's: a browser or CDN keeps that response, and sends it again for its lifetime;
  // nor a large one: compressed as written, in the client's preferred coding (answer-bytes.ts).
  const fresh = write.method !== 'GET' && write.lookup !== 'hit' && write.lookup !== 'stale' && answer.body.length <= LARGE_ANSWER_BYTES;
  const made = fresh ? 'fresh' : 'kept';
  const coding = answer.body.length < COMPRESSION_MIN_BYTES ? 'identity' : negotiateContentCoding(req.headers['accept-encoding'], made);
  if (coding === 'identity') return writeForm(req, res, answer, write, undefined);
  const form = answer.formFor(coding);
  if (form) return writeForm(req, res, answer, write, form);
  return answer.encode(coding).then(
    (made) => writeForm(req, res, answer, write, made),
    // Compression failed (nothing known makes it): the answer as it is is still right.
    () => writeForm(req, res, answer, write, undefined),
  );
}

/** An answer with this caller's notice or extensions, added to the stored body: for this response alone. */
function writeOwnAnswer(res: ServerResponse, answer: StoredAnswer, write: StoredAnswerWrite, own: Record<string, unknown> | undefined): void {
  // The stored body is exactly `{"data":...}`: the caller's extensions go in before its last brace.
  const extensions = { ...(write.notice === undefined ? {} : { notice: write.notice }), ...own };
  const body = Buffer.concat([answer.body.subarray(0, answer.body.length - 1), Buffer.from(`,"extensions":${JSON.stringify(extensions)}}`)]);
  const cacheControl = write.notice === undefined ? NO_STORE : `private, ${NO_STORE}`;
  res.writeHead(200, { 'Content-Type': `${write.mediaType}; charset=utf-8`, 'Content-Length': body.length, 'Cache-Control': cacheControl, ...write.headers });
  res.end(body);
  countLookup(write.lookup);
}

/** Writes the answer in one form (undefined: as it is). */
function writeForm(req: IncomingMessage, res: ServerResponse, answer: StoredAnswer, write: StoredAnswerWrite, form: EncodedForm | undefined): void {
  const contentType = `${write.mediaType}; charset=utf-8`;
  const bytes = form ? form.bytes : answer.body;
  const encoding = form ? { 'Content-Encoding': FORM_CODING_OF_SUFFIX.get(form.tagSuffix)! } : undefined;
  let notModified = false;
  if (write.method !== 'GET') {
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': bytes.length, ...encoding, 'Cache-Control': NO_STORE, ...write.headers });
    res.end(bytes);
  } else {
    const etag = entityTag(answer.tag, write.mediaType, form?.tagSuffix);
    const { ageMs } = answerAge(answer, Date.now());
    const shared = write.sharedCaches;
    const outdated = shared?.outdated(write.version) === true;
    const tagged = shared?.tagHeader && !outdated ? cdnTagHeader(shared.tagHeader, answer.cdnTags) : undefined;
    const cacheControl = outdated ? OUTDATED_CACHE_CONTROL : publicCacheControl({ ttlMs: answer.ttlMs, ageMs });
    const headers = { 'Cache-Control': cacheControl, ETag: etag, Age: String(Math.floor(ageMs / 1000)), ...write.headers, ...tagged };
    const ifNoneMatch = req.headers['if-none-match'];
    const matched = ifNoneMatch === undefined ? undefined : notModifiedTag(ifNoneMatch, etag, form ? entityTag(answer.tag, write.mediaType) : etag, (suffix) => acceptedSuffix(req, suffix));
    notModified = matched !== undefined;
    if (matched !== undefined) {
      res.writeHead(304, { ...headers, ETag: matched });
      res.end();
    } else {
      res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': bytes.length, ...encoding, ...write.contentHeaders, ...headers });
      res.end(bytes);
    }
  }
  countLookup(write.lookup, notModified);
}

/** The content coding of each form's tag suffix (`-br` → br). */
const FORM_CODING_OF_SUFFIX = new Map<string, string>(Object.entries(FORM_TAG_SUFFIX).map(([form, suffix]) => [suffix, FORM_CODING[form as AnswerForm]]));

/** Whether a tag suffix names a form in a coding the request accepts ('' the identity, always). */
function acceptedSuffix(req: IncomingMessage, suffix: string): boolean {
  const coding = codingOfTagSuffix(suffix);
  return coding !== undefined && acceptsCoding(req.headers['accept-encoding'], coding);
}

/**
 * The one place the response cache's lookups are counted: here, where an answer is written, as only
 * the writer knows whether a hit became a 304. A route that answers a miss with no shareable answer
 * (errors) counts it here too.
 */
export function countLookup(lookup: LookupKind | undefined, notModified = false): void {
  if (lookup) countCacheLookup(notModified && lookup !== 'miss' ? 'revalidated' : lookup);
}
