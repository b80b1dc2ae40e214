import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BODY_TAG_LENGTH } from './caching-headers.js';

/** A list longer than this is written a slice per turn of the event loop. */
export const LIST_WRITTEN_IN_TURNS = 1000;
/** Items per turn: about 5–10 ms of JSON for events with a map's fields (bench/area.ts). */
const ITEMS_PER_TURN = 500;

export interface AnswerBytes {
  /** Exactly `JSON.stringify({ data })`, as UTF-8. */
  body: Buffer;
  /** The body's tag (caching-headers.ts `bodyTag`), computed as the body is written. */
  tag: string;
}

/** Whether a root field of the answer is a list long enough to be written in turns. */
export function hasLongList(data: Record<string, unknown>): boolean {
  for (const key in data) {
    const value = data[key];
    if (Array.isArray(value) && value.length > LIST_WRITTEN_IN_TURNS) return true;
  }
  return false;
}

/**
 * The bytes of `{"data":…}` for an answer with a long root list (a whole-world area: tens of
 * thousands of events, megabytes): each such list is written ITEMS_PER_TURN items at a time, the
 * digest of its tag updated as it goes, with a turn of the event loop between slices, so that other
 * requests (and `/health`) are answered meanwhile instead of waiting for one long JSON.stringify and
 * hash. The bytes are those of `JSON.stringify({ data })` (same tag, same stored answer).
 */
export async function answerBytesInTurns(data: Record<string, unknown>): Promise<AnswerBytes> {
  const parts: Buffer[] = [];
  const digest = createHash('sha256');
  const write = (text: string) => {
    const bytes = Buffer.from(text);
    parts.push(bytes);
    digest.update(bytes);
  };
  write('{"data":{');
  let first = true;
  for (const key in data) {
    const value = data[key];
    const json = Array.isArray(value) ? null : JSON.stringify(value);
    // As JSON.stringify does: a property whose value has no JSON form is left out.
    if (!Array.isArray(value) && json === undefined) continue;
    write(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (!Array.isArray(value)) {
      write(json!);
      continue;
    }
    if (value.length <= LIST_WRITTEN_IN_TURNS) {
      write(JSON.stringify(value));
      continue;
    }
    for (let start = 0; start < value.length; start += ITEMS_PER_TURN) {
      if (start > 0) await nextTurn();
      const slice: string[] = [];
      // Inside an array, what has no JSON form is written `null`, as JSON.stringify does.
      for (let i = start; i < Math.min(value.length, start + ITEMS_PER_TURN); i++) slice.push(JSON.stringify(value[i]) ?? 'null');
      write(`${start === 0 ? '[' : ','}${slice.join(',')}`);
    }
    write(']');
  }
  write('}}');
  return { body: Buffer.concat(parts), tag: digest.digest('base64url').slice(0, BODY_TAG_LENGTH) };
}
