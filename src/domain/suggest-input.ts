import type { Filter } from '../../generated/schema-types.js';
import { buildEventQuery, type EventQuery } from './event-query.js';
import { searchWords } from './search-term.js';

/** Longest `prefix` accepted, in characters (UTF-16 units, as `searchTerm` counts): a typeahead's input is a few words. */
export const MAX_SUGGEST_PREFIX_LENGTH = 100;
export const DEFAULT_SUGGEST_LIMIT = 8;
export const MAX_SUGGEST_LIMIT = 50;

/**
 * The `events` queries a suggestion's hits are totals of. `events(filter: { ...filter, <condition> })`
 * sets one field of the filter, replacing what `filter` gave it: so each catalogue kind counts under
 * the filter without its own field (`venueSlug`, `organizerSlug`, `categories`, `tag`), to which its
 * condition is added. A kind whose field the filter leaves out shares `filter` itself.
 */
export interface SuggestQueries {
  /** The filter as given: an event is suggested when `events(filter)` lists it. */
  filter: EventQuery;
  venue: EventQuery;
  organizer: EventQuery;
  category: EventQuery;
  tag: EventQuery;
}

export interface SuggestInput {
  /** The prefix's folded words, as searchTerm folds them (searchWords: unique, at most MAX_SEARCH_WORDS). */
  words: string[];
  limit: number;
  queries: SuggestQueries;
}

export type SuggestInputResult = { ok: true; input: SuggestInput } | { ok: false; invalidArgs: string[]; detail?: string };

/**
 * Validates `suggest`'s arguments: an empty or whitespace-only prefix, one over MAX_SUGGEST_PREFIX_LENGTH,
 * a limit outside 1..MAX_SUGGEST_LIMIT, and whatever `events` refuses in the filter, all named at once.
 */
export function buildSuggestInput(prefix: string, filter: Filter | null | undefined, limit: number | null | undefined, now: Date): SuggestInputResult {
  const invalidArgs: string[] = [];
  const details: string[] = [];
  if (prefix.trim() === '' || prefix.length > MAX_SUGGEST_PREFIX_LENGTH) {
    invalidArgs.push('prefix');
    details.push(`prefix must hold a character other than whitespace and be at most ${MAX_SUGGEST_PREFIX_LENGTH} characters`);
  }
  const wanted = limit ?? DEFAULT_SUGGEST_LIMIT;
  if (!(wanted >= 1 && wanted <= MAX_SUGGEST_LIMIT)) {
    invalidArgs.push('limit');
    details.push(`limit must be from 1 to ${MAX_SUGGEST_LIMIT}`);
  }
  const built = buildEventQuery(filter, now);
  if (!built.ok) {
    invalidArgs.push(...built.invalidArgs);
    if (built.detail) details.push(built.detail);
  }
  if (!built.ok || invalidArgs.length > 0) return { ok: false, invalidArgs, ...(details.length > 0 ? { detail: details.join('; ') } : {}) };

  const f = filter ?? {};
  // The filter was valid whole, so it is without one of its fields.
  const without = (field: 'venueSlug' | 'organizerSlug' | 'categories' | 'tag'): EventQuery => {
    if (f[field] == null) return built.query;
    const rebuilt = buildEventQuery({ ...f, [field]: null }, now);
    if (!rebuilt.ok) throw new Error(`a valid filter without ${field} was refused`);
    return rebuilt.query;
  };
  return {
    ok: true,
    input: {
      words: searchWords(prefix),
      limit: wanted,
      queries: { filter: built.query, venue: without('venueSlug'), organizer: without('organizerSlug'), category: without('categories'), tag: without('tag') },
    },
  };
}
