import { countAnswerForm, type FormMaking } from '../../telemetry/metrics.js';
import { bodyTag } from '../caching-headers.js';
import type { ContentCoding } from '../content-coding.js';
import { BEST_FORM_AFTER, LARGE_ANSWER_BYTES, FORM_TAG_SUFFIX, compressForm, type AnswerForm } from './answer-forms.js';

/** A coding an answer can be compressed in. */
export type Compression = Exclude<ContentCoding, 'identity'>;

/** An answer's bytes in one content coding (answer-forms.ts), and its entity tag's suffix. */
export interface EncodedForm {
  readonly bytes: Buffer;
  readonly tagSuffix: string;
}

/**
 * One shareable answer: the exact bytes of `{"data":...}` (nothing per caller), as written to the
 * wire, with what a cache and a writer need to know of it. The one model of the response cache: the
 * stores keep it, the writer (stored-answer-writer.ts) writes it, its age is answer-age.ts's.
 */
export interface StoredAnswer {
  readonly body: Buffer;
  /** Strong entity tag of the body, without quotes; each media type adds its own suffix. */
  readonly tag: string;
  /** When it was computed (ms since 1970). */
  readonly storedAt: number;
  /** How long it is fresh from `storedAt`. */
  readonly ttlMs: number;
  /** Name of the operation that produced it (for the access log line and metrics of a hit). */
  readonly operation?: string | undefined;
  /** What an import can change under it, for CDNs to purge by (domain/answer-tags.ts). */
  readonly cdnTags: readonly string[];
  /**
   * The deprecated schema coordinates the request that produced it used (schema/deprecated-uses.ts):
   * every request it answers asked the same (the same document and variables), so a hit counts them
   * without parsing anything.
   */
  readonly deprecatedUses?: readonly string[] | undefined;
  /** The answer in `coding`, when that form is made already (a hit's path: nothing is computed). */
  formFor(coding: Compression): EncodedForm | undefined;
  /** Makes the answer's form in `coding` (once: concurrent callers share it), in the thread pool. */
  encode(coding: Compression): Promise<EncodedForm>;
  /** Adds a form made elsewhere (a Redis entry holds the answer's brotli form). */
  addForm(form: AnswerForm, bytes: Buffer): void;
  /** Bytes the answer holds: its body and the forms made so far. */
  readonly keptBytes: number;
  /** Calls `resized` whenever {@link keptBytes} grows (once per `key`: a store recounts its entry under that key). */
  watchSize(key: string, resized: () => void): void;
}

/** Forms of an answer being made as its body was written (answer-bytes.ts), by coding. */
export type FormsUnderWay = Partial<Record<Compression, Promise<Buffer>>>;

/** What an answer says of itself besides its bytes. */
export interface AnswerFacts {
  ttlMs: number;
  operation: string | undefined;
  cdnTags: readonly string[];
  deprecatedUses?: readonly string[] | undefined;
  /** @default now */
  storedAt?: number | undefined;
}

/**
 * A stored answer whose tag is computed when first asked for: a GET's entity tag, the shared cache's
 * entry. An answer written to a POST and never asked for again needs none (a SHA-256 of the body, a
 * third of what a small answer's bytes cost: docs/performance.md, "A leaner pipeline").
 */
class LazilyTaggedAnswer implements StoredAnswer {
  #tag: string | undefined;
  readonly storedAt: number;
  readonly ttlMs: number;
  readonly operation: string | undefined;
  readonly cdnTags: readonly string[];
  readonly deprecatedUses: readonly string[] | undefined;

  constructor(
    readonly body: Buffer,
    tag: string | undefined,
    facts: AnswerFacts,
    formsUnderWay?: FormsUnderWay,
  ) {
    this.#tag = tag;
    this.keptBytes = body.length;
    // Its failure is handled by whoever asks for the form (#making keeps it from going unhandled).
    for (const coding in formsUnderWay) void this.#making(coding as Compression, formsUnderWay[coding as Compression]!, 'as_written');
    this.storedAt = facts.storedAt ?? Date.now();
    this.ttlMs = facts.ttlMs;
    this.operation = facts.operation;
    this.cdnTags = facts.cdnTags;
    this.deprecatedUses = facts.deprecatedUses;
  }

  get tag(): string {
    return (this.#tag ??= bodyTag(this.body));
  }

  #forms: Partial<Record<Compression, EncodedForm>> | undefined;
  #makingForms: Partial<Record<Compression, Promise<EncodedForm>>> | undefined;
  #watchers: Map<string, () => void> | undefined;
  /** Sends of the fast brotli form, until its smallest form is under way. */
  #brotliSends = 0;
  keptBytes: number;

  formFor(coding: Compression): EncodedForm | undefined {
    const form = this.#forms?.[coding];
    if (form !== undefined && form.tagSuffix === FORM_TAG_SUFFIX.br && ++this.#brotliSends === BEST_FORM_AFTER && this.body.length <= LARGE_ANSWER_BYTES) {
      // Asked for again and again: worth the slow setting, once, in the background.
      compressForm(this.body, 'br-best').then(
        (bytes) => {
          countAnswerForm('br-best', 'whole');
          this.addForm('br-best', bytes);
        },
        () => undefined,
      );
    }
    return form;
  }

  encode(coding: Compression): Promise<EncodedForm> {
    const made = this.#forms?.[coding];
    if (made) return Promise.resolve(made);
    return this.#makingForms?.[coding] ?? this.#making(coding, compressForm(this.body, coding), 'whole');
  }

  /** A form under way: asked for meanwhile, it is this one; made, it is kept; failed, the next ask makes it anew. */
  #making(coding: Compression, bytes: Promise<Buffer>, made: FormMaking): Promise<EncodedForm> {
    const making = (this.#makingForms ??= {});
    const form = bytes.then(
      (done) => {
        delete making[coding];
        countAnswerForm(coding, made);
        return this.#forms?.[coding] ?? this.#add(coding, { bytes: done, tagSuffix: FORM_TAG_SUFFIX[coding] });
      },
      (error: unknown) => {
        delete making[coding];
        throw error;
      },
    );
    // A form made as the body was written may have nobody waiting for it.
    form.catch(() => undefined);
    return (making[coding] = form);
  }

  addForm(form: AnswerForm, bytes: Buffer): void {
    this.#add(form === 'br-best' ? 'br' : form, { bytes, tagSuffix: FORM_TAG_SUFFIX[form] });
  }

  #add(coding: Compression, form: EncodedForm): EncodedForm {
    const forms = (this.#forms ??= {});
    this.keptBytes += form.bytes.length - (forms[coding]?.bytes.length ?? 0);
    forms[coding] = form;
    if (this.#watchers) for (const resized of this.#watchers.values()) resized();
    return form;
  }

  watchSize(key: string, resized: () => void): void {
    (this.#watchers ??= new Map()).set(key, resized);
  }
}

/** The shareable answer of an execution: its text, stamped now. */
export function storedAnswer(body: string, ttlMs: number, operation: string | undefined, cdnTags: readonly string[]): StoredAnswer {
  return new LazilyTaggedAnswer(Buffer.from(body), undefined, { ttlMs, operation, cdnTags });
}

/**
 * The same, of bytes whose tag may be known already (hashed as they were written: answer-bytes.ts, or
 * read from Redis), and the forms being made of them as they were written (answer-bytes.ts): the
 * answer's forms in those codings, asked for before they are done, wait for them.
 */
export function storedAnswerOfBytes(bytes: { body: Buffer; tag?: string | undefined; formsUnderWay?: FormsUnderWay | undefined }, facts: AnswerFacts): StoredAnswer {
  return new LazilyTaggedAnswer(bytes.body, bytes.tag, facts, bytes.formsUnderWay);
}
