import { createHash, type Hash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LARGE_ANSWER_BYTES } from './answer-cache/answer-forms.js';
import { LargeFormEncoder } from './answer-cache/large-form-encoder.js';
import type { Compression, FormsUnderWay } from './answer-cache/stored-answer.js';
import { BODY_TAG_LENGTH } from './caching-headers.js';

/** A list longer than this is written a slice per turn of the event loop. */
export const LIST_WRITTEN_IN_TURNS = 1000;
/** Items per turn: about 5–10 ms of JSON for events with a map's fields (bench/area.ts). */
const ITEMS_PER_TURN = 500;
/** A list of at least this many items is written item by item (why: answerBytes). */
const ITEMIZED_LIST = 8;
/** How deep the writer goes into objects (`data`, a root field, its page object): below, values are written whole. */
const WALKED_DEPTH = 3;
/**
 * An answer whose lists (down to WALKED_DEPTH) hold at most this many items in all is written whole,
 * by one JSON.stringify: at this size that is 3x cheaper than item by item (an events page of 20 with
 * three facets, 7.7 KB: 12 µs against 37), and a two-byte text costs it little.
 */
const WHOLE_ANSWER_ITEMS = 256;

export interface AnswerBytes {
  /** Exactly `JSON.stringify({ data })`, as UTF-8. */
  body: Buffer;
  /**
   * The body's tag (caching-headers.ts `bodyTag`), when it was computed as a long body was written;
   * a short body's is left to whoever needs it (answer-cache/stored-answer.ts computes it once, when first asked).
   */
  tag?: string | undefined;
  /** The form of a large body in the coding asked for, made as the body was written (it may finish a little after). */
  formsUnderWay?: FormsUnderWay | undefined;
}

/** What has no JSON form inside an object (the property is left out, as JSON.stringify does). */
function hasNoJsonForm(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * Texts encoded into chunks of the body as it goes, each chunk hashed into the tag and, once the body
 * is past LARGE_ANSWER_BYTES, fed to the encoder of its form in the coding asked for (in the thread
 * pool meanwhile, so the form is done about when the body is).
 */
class BodyWriter {
  private texts: string[] = [];
  private readonly chunks: Buffer[] = [];
  private readonly digest: Hash = createHash('sha256');
  private length = 0;
  private encoder: LargeFormEncoder | undefined;

  constructor(private readonly coding: Compression | undefined) {}

  write(text: string): void {
    this.texts.push(text);
  }

  /** Encodes what was written since the last flush into one chunk: each text straight into place. */
  flush(): void {
    let length = 0;
    for (const text of this.texts) length += Buffer.byteLength(text);
    const chunk = Buffer.allocUnsafe(length);
    let offset = 0;
    for (const text of this.texts) offset += chunk.write(text, offset);
    this.texts = [];
    this.chunks.push(chunk);
    this.digest.update(chunk);
    this.length += chunk.length;
    if (this.encoder) this.encoder.write(chunk);
    else if (this.coding && this.length > LARGE_ANSWER_BYTES) {
      // Large from here on, whatever follows: the form compressForm would make of the whole body.
      this.encoder = new LargeFormEncoder(this.coding);
      for (const written of this.chunks) this.encoder.write(written);
    }
  }

  finish(): AnswerBytes {
    this.flush();
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const formsUnderWay = this.encoder && this.coding ? { [this.coding]: this.encoder.end() } : undefined;
    return { body, tag: this.digest.digest('base64url').slice(0, BODY_TAG_LENGTH), formsUnderWay };
  }

  /** The body will not be finished: its form's encoder stops. */
  abandon(): void {
    this.encoder?.abandon();
  }
}

/** The items of the lists down to WALKED_DEPTH, counted until there are more than `limit`. */
function listItems(value: unknown, depth: number, limit: number): number {
  if (Array.isArray(value)) return value.length;
  if (depth >= WALKED_DEPTH || value === null || typeof value !== 'object') return 0;
  let items = 0;
  for (const key in value) {
    items += listItems((value as Record<string, unknown>)[key], depth + 1, limit - items);
    if (items > limit) break;
  }
  return items;
}

/** Yielded between slices of a long list: the caller may let the event loop turn. */
const TURN = Symbol('turn');

/**
 * Writes `value` as JSON.stringify would, walking objects down to WALKED_DEPTH and writing the
 * items of a list of ITEMIZED_LIST or more one by one; yields TURN every ITEMS_PER_TURN items of a
 * list longer than LIST_WRITTEN_IN_TURNS.
 */
function* writeValue(writer: BodyWriter, value: unknown, depth: number): Generator<typeof TURN, void, void> {
  const ownJson = value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function';
  if (Array.isArray(value) && value.length >= ITEMIZED_LIST && !ownJson) {
    const inTurns = value.length > LIST_WRITTEN_IN_TURNS;
    writer.write('[');
    for (let i = 0; i < value.length; i++) {
      if (inTurns && i > 0 && i % ITEMS_PER_TURN === 0) yield TURN;
      // Inside a list, what has no JSON form is written `null`, as JSON.stringify does.
      writer.write(i === 0 ? (JSON.stringify(value[i]) ?? 'null') : `,${JSON.stringify(value[i]) ?? 'null'}`);
    }
    writer.write(']');
    return;
  }
  const walked = depth < WALKED_DEPTH && value !== null && typeof value === 'object' && !Array.isArray(value) && !ownJson;
  if (!walked) {
    writer.write(JSON.stringify(value) ?? 'null');
    return;
  }
  const object = value as Record<string, unknown>;
  let first = true;
  for (const key of Object.keys(object)) {
    const property = object[key];
    if (hasNoJsonForm(property)) continue;
    writer.write(`${first ? '{' : ','}${JSON.stringify(key)}:`);
    first = false;
    yield* writeValue(writer, property, depth + 1);
  }
  writer.write(first ? '{}' : '}');
}

/**
 * The bytes of `{"data":…}`, exactly those of `JSON.stringify({ data })` (same tag, same stored
 * answer), and, for a long answer, their tag. A short answer (WHOLE_ANSWER_ITEMS) is one stringify.
 *
 * The items of a longer answer's lists are written one by one, each encoded straight into the body: V8 keeps a string
 * one byte per character only while every character fits in Latin-1, so one title with an en dash
 * made the whole answer text two bytes per character, and that text is slow to write and slower to
 * encode (a `changes` page of 1 000 events, 355 KB: JSON.stringify 4.3 ms and Buffer.from 2.4 ms
 * whole, against 1.6 ms in all item by item; docs/performance.md, "Answers written item by item").
 *
 * A list longer than LIST_WRITTEN_IN_TURNS (a whole-world area: tens of thousands of events,
 * megabytes) is written ITEMS_PER_TURN items at a time, the tag's digest updated as it goes, with a
 * turn of the event loop between slices, so that other requests (and `/health`) are answered
 * meanwhile instead of waiting for one long write and hash. Given the `coding` its first request
 * asked for, a body past LARGE_ANSWER_BYTES is compressed in that coding slice by slice too, in the
 * thread pool while the next slice is written (large-form-encoder.ts: the same bytes as the form of
 * the whole body), so that request's answer is ready about when its body is.
 */
export async function answerBytes(data: Record<string, unknown>, coding?: Compression): Promise<AnswerBytes> {
  if (listItems(data, 0, WHOLE_ANSWER_ITEMS) <= WHOLE_ANSWER_ITEMS) return { body: Buffer.from(JSON.stringify({ data })) };
  const writer = new BodyWriter(coding);
  try {
    writer.write('{"data":');
    for (const _turn of writeValue(writer, data, 0)) {
      writer.flush();
      await nextTurn();
    }
    writer.write('}');
    return writer.finish();
  } catch (error) {
    writer.abandon();
    throw error;
  }
}
