import zlib from 'node:zlib';
import type { ContentCoding } from '../content-coding.js';

/**
 * The encoder of a large answer's form (answer-forms.ts, LARGE_ANSWER_BYTES): one of node:zlib's
 * streams at the fastest setting, its work in libuv's thread pool, fed the body as it is written
 * (answer-bytes.ts) or whole (a form asked for once the body exists).
 *
 * Either way the encoder gets the same input calls, so one body gives one sequence of bytes (one
 * entity tag, one form: RFC 9110 §8.8.1), however it was written: the body in pieces of exactly
 * PIECE_BYTES (the last one shorter), each processed before the next, and the end asked for only once
 * every piece is processed. An encoder's output depends on how its input was cut (brotli 1 compresses
 * what it holds at each call), so that cut must not depend on how the body was written, nor on when
 * node:zlib processes a piece (it finishes a stream with the last piece itself when `end()` comes
 * while that piece still waits).
 *
 * Why 1 MiB: brotli 1 compresses each call's input as a fragment of its own, so small pieces cost
 * ratio (a whole-world area of 7.7 MB: 0.82 MB made whole, 1.08 MB fed in 64 KiB pieces; a synthetic
 * 10 MB answer: 6.5 % whole, 7.3 % in 64 KiB, 6.7 % in 256 KiB, 6.6 % in 1 MiB pieces), while the
 * last piece, compressed once the body is done, costs at most ~10–30 ms at that setting.
 */
const PIECE_BYTES = 1024 * 1024;
/** Output buffer of each call into zlib: fewer trips to the thread pool than node:zlib's 16 KiB. */
const OUTPUT_CHUNK_BYTES = 64 * 1024;

/** The codings a large form can be in, and their encoder: brotli 1, gzip 1, zstd 1 (why: answer-forms.ts). */
function encoderOf(coding: Exclude<ContentCoding, 'identity'>): zlib.BrotliCompress | zlib.Gzip | zlib.ZstdCompress {
  switch (coding) {
    case 'br':
      return zlib.createBrotliCompress({
        chunkSize: OUTPUT_CHUNK_BYTES,
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
      });
    case 'gzip':
      return zlib.createGzip({ level: 1, chunkSize: OUTPUT_CHUNK_BYTES });
    case 'zstd':
      return zlib.createZstdCompress({ chunkSize: OUTPUT_CHUNK_BYTES, params: { [zlib.constants.ZSTD_c_compressionLevel]: 1 } });
  }
}

export class LargeFormEncoder {
  readonly #encoder: zlib.BrotliCompress | zlib.Gzip | zlib.ZstdCompress;
  readonly #output: Buffer[] = [];
  /** Body bytes not fed yet: less than a piece. */
  #held: Buffer[] = [];
  #heldBytes = 0;
  /** Settles once every piece fed so far is processed. */
  #fed: Promise<void> = Promise.resolve();
  readonly #made: Promise<Buffer>;

  constructor(coding: Exclude<ContentCoding, 'identity'>) {
    const encoder = (this.#encoder = encoderOf(coding));
    encoder.on('data', (chunk: Buffer) => this.#output.push(chunk));
    this.#made = new Promise((resolve, reject) => {
      encoder.once('end', () => resolve(Buffer.concat(this.#output)));
      encoder.once('error', reject);
    });
    // Abandoned, or failed: whoever awaits `end()` hears of it; nobody else has to.
    this.#made.catch(() => undefined);
  }

  /** Feeds the next bytes of the body (kept as they are: the caller must not change them). */
  write(bytes: Buffer): void {
    let rest = bytes;
    if (this.#heldBytes > 0) {
      const needed = PIECE_BYTES - this.#heldBytes;
      if (rest.length < needed) return this.#hold(rest);
      this.#feed(Buffer.concat([...this.#held, rest.subarray(0, needed)]));
      this.#held = [];
      this.#heldBytes = 0;
      rest = rest.subarray(needed);
    }
    while (rest.length >= PIECE_BYTES) {
      this.#feed(rest.subarray(0, PIECE_BYTES));
      rest = rest.subarray(PIECE_BYTES);
    }
    if (rest.length > 0) this.#hold(rest);
  }

  /** The form, once the body is all written: the rest fed, then the stream's end. */
  end(): Promise<Buffer> {
    if (this.#heldBytes > 0) this.#feed(this.#held.length === 1 ? this.#held[0]! : Buffer.concat(this.#held));
    this.#held = [];
    this.#heldBytes = 0;
    this.#fed.then(
      () => this.#encoder.end(),
      () => undefined,
    );
    return this.#made;
  }

  /** Stops the encoder (its body will not be finished): its memory and thread-pool work are released. */
  abandon(): void {
    this.#encoder.destroy(new Error('abandoned'));
  }

  #hold(bytes: Buffer): void {
    this.#held.push(bytes);
    this.#heldBytes += bytes.length;
  }

  #feed(piece: Buffer): void {
    this.#fed = new Promise((resolve, reject) => this.#encoder.write(piece, (error) => (error ? reject(error) : resolve())));
    this.#fed.catch(() => undefined);
  }
}

/** A large body's form, made of the whole body: the same bytes as one fed while the body was written. */
export function encodeLargeForm(body: Buffer, coding: Exclude<ContentCoding, 'identity'>): Promise<Buffer> {
  const encoder = new LargeFormEncoder(coding);
  encoder.write(body);
  return encoder.end();
}
