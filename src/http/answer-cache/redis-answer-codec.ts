import { decompressBrotli, FORM_TAG_SUFFIX, type AnswerForm } from './answer-forms.js';
import { storedAnswerOfBytes, type EncodedForm, type StoredAnswer } from './stored-answer.js';

/** The forms an entry's bytes may be in: `-` the answer's own bytes, else a brotli form (answer-forms.ts). */
const ENTRY_FORMS: readonly AnswerForm[] = ['br', 'br-best'];

/**
 * A stored answer as Redis holds it: `<storedAt> <ttlMs> <tag> <operation or -> <CDN tags,
 * comma-separated, or -> <deprecated coordinates, comma-separated, or -> <form>\n<bytes>`: a few
 * bytes of bookkeeping in front of the answer's bytes, in its brotli form (`br` or `br-best`) when it
 * has one, else as they are (`-`): the shared cache holds about an eighth of the JSON, and a node
 * that reads the entry has the form most clients ask for without compressing anything. `tag` is
 * always the uncompressed body's. (CDN tags and schema coordinates hold no space, comma or newline.)
 * Nodes of versions before the form field read other keys (redis-answer-store.ts: `rc2`).
 */
export function encodeAnswer(answer: StoredAnswer, form?: EncodedForm): Buffer {
  const cdnTags = answer.cdnTags.length > 0 ? answer.cdnTags.join(',') : '-';
  const deprecated = answer.deprecatedUses?.length ? answer.deprecatedUses.join(',') : '-';
  const formName = form ? ENTRY_FORMS.find((name) => FORM_TAG_SUFFIX[name] === form.tagSuffix) : undefined;
  const bytes = formName && form ? form.bytes : answer.body;
  return Buffer.concat([Buffer.from(`${answer.storedAt} ${answer.ttlMs} ${answer.tag} ${answer.operation ?? '-'} ${cdnTags} ${deprecated} ${formName ?? '-'}\n`), bytes]);
}

/** The answer of an entry {@link encodeAnswer} wrote; undefined for anything else. */
export function decodeAnswer(value: Buffer): StoredAnswer | undefined {
  const newline = value.indexOf(10);
  if (newline < 0) return undefined;
  const [storedAt, ttlMs, tag, operation, cdnTags, deprecated, formName] = value.subarray(0, newline).toString().split(' ');
  const stamp = Number(storedAt);
  const ttl = Number(ttlMs);
  if (!Number.isFinite(stamp) || !Number.isFinite(ttl) || !tag) return undefined;
  const form = ENTRY_FORMS.find((name) => name === formName);
  const bytes = value.subarray(newline + 1);
  let body: Buffer;
  try {
    body = form ? decompressBrotli(bytes) : bytes;
  } catch {
    return undefined;
  }
  const answer = storedAnswerOfBytes(
    { body, tag },
    {
      storedAt: stamp,
      ttlMs: ttl,
      operation: operation && operation !== '-' ? operation : undefined,
      cdnTags: cdnTags && cdnTags !== '-' ? cdnTags.split(',') : [],
      deprecatedUses: deprecated && deprecated !== '-' ? deprecated.split(',') : undefined,
    },
  );
  if (form) answer.addForm(form, bytes);
  return answer;
}
