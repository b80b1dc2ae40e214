import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { ContentCoding } from '../content-coding.js';
import { encodeLargeForm } from './large-form-encoder.js';

/**
 * The compressed forms a stored answer keeps beside its bytes: made once, in libuv's thread pool
 * (never on the event loop, never per hit), each with its own entity-tag suffix, so that a strong
 * validator always names one sequence of bytes (RFC 9110 §8.8.1).
 *
 * brotli comes in two forms: a fast one (quality 5: 1.6 ms for an events page of 26 KB) made on the
 * first demand, and the smallest (quality 11: 35 ms for the same page, 10 % smaller) made in the
 * background once the fast one has been sent BEST_FORM_AFTER times: only answers that are asked
 * for again pay the slow setting, and they pay it once (docs/performance.md, "Compressed answers").
 */
export type AnswerForm = 'br' | 'br-best' | 'gzip' | 'zstd';

/** Sends of an answer's fast brotli form after which its smallest one is made. */
export const BEST_FORM_AFTER = 4;
/**
 * Larger answers (a whole-world area, a `changes` page of thousands: up to megabytes, mostly not kept)
 * never get the smallest brotli form (quality 11 takes ~1.4 ms per KB), and are compressed at the
 * fastest settings: brotli 1, gzip 1, zstd 1, 10–30 ms per MB against ~140 for brotli 5, for 1–2
 * points of ratio (a synthetic 3.8 MB area answer: brotli 1 15.8 %, brotli 5 16.8 %), by a stream
 * (large-form-encoder.ts) that the answer's writer feeds as it writes (answer-bytes.ts).
 */
export const LARGE_ANSWER_BYTES = 256 * 1024;

/** The entity tag's suffix of each form; the identity has none. */
export const FORM_TAG_SUFFIX: Readonly<Record<AnswerForm, string>> = { br: '-br', 'br-best': '-br11', gzip: '-gz', zstd: '-zst' };

/** The coding of each form (what `Content-Encoding` says). */
export const FORM_CODING: Readonly<Record<AnswerForm, Exclude<ContentCoding, 'identity'>>> = { br: 'br', 'br-best': 'br', gzip: 'gzip', zstd: 'zstd' };

/** The coding a tag's suffix stands for ('' the identity); undefined for anything else. */
export function codingOfTagSuffix(suffix: string): ContentCoding | undefined {
  if (suffix === '') return 'identity';
  for (const form in FORM_TAG_SUFFIX) if (FORM_TAG_SUFFIX[form as AnswerForm] === suffix) return FORM_CODING[form as AnswerForm];
  return undefined;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const zstd = promisify(zlib.zstdCompress);

const brotliParams = (quality: number, size: number) => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});

/**
 * Makes one form of `body`. Levels measured on the demo calendar's answers (bench/compression.ts):
 * gzip 6 (zlib's default) and zstd 9 cost about what brotli 5 does and land within 10 % of it.
 */
export function compressForm(body: Buffer, form: AnswerForm): Promise<Buffer> {
  // A body of a given size always gets the same setting, and a large one the same input calls
  // whether it is compressed whole or as it is written: one tag, one sequence of bytes.
  if (body.length > LARGE_ANSWER_BYTES && form !== 'br-best') return encodeLargeForm(body, form);
  switch (form) {
    case 'br':
      return brotli(body, brotliParams(5, body.length));
    case 'br-best':
      return brotli(body, brotliParams(11, body.length));
    case 'gzip':
      return gzip(body, { level: 6 });
    case 'zstd':
      return zstd(body, { params: { [zlib.constants.ZSTD_c_compressionLevel]: 9 } });
  }
}

/** The bytes of a brotli form (a Redis entry's): synchronous, a few hundred µs for an events page. */
export function decompressBrotli(bytes: Buffer): Buffer {
  return zlib.brotliDecompressSync(bytes);
}
