import Negotiator from 'negotiator';

/**
 * The content codings answers are sent in (RFC 9110 §8.4.1): brotli, gzip and zstd, which every
 * supported Node has in node:zlib, or none.
 */
export type ContentCoding = 'br' | 'gzip' | 'zstd' | 'identity';

const OFFERED: readonly ContentCoding[] = ['br', 'zstd', 'gzip', 'identity'];
/** Our order among codings a client ranks equally (`gzip, deflate, br, zstd`): the smallest first. */
const PREFERRED: readonly ContentCoding[] = ['br', 'zstd', 'gzip', 'identity'];
/**
 * The same for an answer made for this request (not found in the cache): the cheapest to make
 * first. Measured on one-shot POSTs (docs/performance.md, "Answers made for one request"): an 8 KB
 * answer costs 0.3 ms more CPU in brotli 5, 0.03 ms in gzip 6, which is 3–5 % larger. Asked again,
 * the answer is a hit, and a hit gets the smallest form (PREFERRED).
 */
const CHEAPEST_FIRST: readonly ContentCoding[] = ['gzip', 'br', 'zstd', 'identity'];

/**
 * Answers smaller than this are sent as they are, whatever the client accepts: below it a coding
 * saves a few hundred bytes at most (a TCP segment holds the answer either way), while a client
 * still pays for inflating it.
 */
export const COMPRESSION_MIN_BYTES = 1024;

/** negotiator 1.1's encoding choice with a server preference among ties (@types/negotiator 0.6.5 predates the option). */
interface EncodingNegotiator {
  encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined;
  encodings(available: readonly string[]): string[];
}

const negotiatorOf = (acceptEncoding: string) => new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as unknown as EncodingNegotiator;

/** The last few Accept-Encoding headers negotiated: clients send a handful of distinct ones. */
const remembered = new Map<string, ContentCoding>();
const rememberedFresh = new Map<string, ContentCoding>();
const REMEMBERED_HEADERS = 64;

/**
 * The coding of an answer to a request with this `Accept-Encoding` (q-values honoured, `identity`
 * and `*` as RFC 9110 §12.5.3 says, by jshttp's negotiator): the client's most preferred of ours,
 * ours breaking ties. No header: identity. Nothing acceptable (`identity;q=0` alone): identity too,
 * as RFC 9110 §12.5.3 allows rather than a 406 (the spec answers JSON to everyone). `fresh`: for an
 * answer this request just made (no form of it exists yet), ties go to the cheapest coding to make
 * (CHEAPEST_FIRST); a client's q-values still decide.
 */
export function negotiateContentCoding(acceptEncoding: string | undefined, made: 'kept' | 'fresh' = 'kept'): ContentCoding {
  if (!acceptEncoding) return 'identity';
  const known = made === 'fresh' ? rememberedFresh : remembered;
  let coding = known.get(acceptEncoding);
  if (coding === undefined) {
    const preferred = made === 'fresh' ? CHEAPEST_FIRST : PREFERRED;
    coding = (negotiatorOf(acceptEncoding).encoding(OFFERED, { preferred }) as ContentCoding | undefined) ?? 'identity';
    if (known.size >= REMEMBERED_HEADERS) known.clear();
    known.set(acceptEncoding, coding);
  }
  return coding;
}

/** Whether a request with this `Accept-Encoding` accepts `coding` (q > 0). */
export function acceptsCoding(acceptEncoding: string | undefined, coding: ContentCoding): boolean {
  if (coding === 'identity' || negotiateContentCoding(acceptEncoding) === coding) return true;
  if (!acceptEncoding) return false;
  return negotiatorOf(acceptEncoding).encodings([coding]).includes(coding);
}
