import { describe, SECTION_NAMES } from './import-problems.js';

/**
 * A calendar as the loader reads it: its top-level keys in order, and the elements of each list
 * one at a time, so that no source has to hold the whole calendar (docs/import-format.md).
 */
export type CalendarPart =
  /** The document is not an object at all. */
  | { kind: 'notAnObject'; description: string }
  /** A top-level key holding a list; its elements follow, then `end`. `length` when known ahead. */
  | { kind: 'list'; key: string; length?: number | undefined }
  /** A top-level key holding something else than a list. */
  | { kind: 'value'; key: string; description: string }
  /** A top-level key present without a value (`undefined`, only in memory): as if left out. */
  | { kind: 'absent'; key: string }
  /** The next element of the current list. */
  | { kind: 'element'; value: unknown }
  /** The current list ended. */
  | { kind: 'end' };

export type CalendarParts = Iterable<CalendarPart> | AsyncIterable<CalendarPart>;

function isListLike(value: unknown): value is Iterable<unknown> {
  return Array.isArray(value) || (typeof value === 'object' && value !== null && Symbol.iterator in value);
}

function knownLength(value: Iterable<unknown>): number | undefined {
  const length = (value as { length?: unknown }).length;
  return typeof length === 'number' ? length : undefined;
}

/**
 * The parts of a calendar held in memory. A section may be an array or any iterable (the demo
 * calendar generates its events lazily); an iterable with a numeric `length` tells the progress
 * total. In memory the order of the keys carries no meaning, so the sections come in the order
 * the loader writes them (categories first, events after what they reference): nothing waits.
 */
export function* calendarParts(input: unknown): Generator<CalendarPart> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    yield { kind: 'notAnObject', description: describe(input) };
    return;
  }
  const record = input as Record<string, unknown>;
  const keys = Object.keys(record);
  const ordered = [...keys.filter((k) => !(SECTION_NAMES as string[]).includes(k)), ...SECTION_NAMES.filter((k) => keys.includes(k))];
  for (const key of ordered) {
    const value = record[key];
    if (value === undefined) yield { kind: 'absent', key };
    else if (isListLike(value)) {
      yield { kind: 'list', key, length: Array.isArray(value) ? value.length : knownLength(value) };
      for (const element of value) yield { kind: 'element', value: element };
      yield { kind: 'end' };
    } else yield { kind: 'value', key, description: describe(value) };
  }
}
