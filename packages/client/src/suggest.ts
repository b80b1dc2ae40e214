import type { AbortSignalLike, CalendarClient } from './create-calendar-client.js';
import { SuggestDocument, type Filter, type SuggestQuery } from './generated/documents.js';

/** One suggestion of `suggest`: `kind`, `value` (what the filter takes), `label_nb`, `label_en`, `hits`. */
export type Suggestion = SuggestQuery['suggest'][number];

export interface SuggestOptions {
  /** The filter the page shows: each suggestion's `hits` is the `totalCount` of `events` with it added. */
  filter?: Filter | null | undefined;
  /** Most suggestions, 1 to 50. @default 8 (the service's) */
  limit?: number | undefined;
  /** Abort a request a newer keystroke has made useless. */
  signal?: AbortSignalLike | undefined;
}

/** The service's longest prefix (`suggest` refuses longer ones). */
const MAX_PREFIX = 100;

/**
 * Typeahead suggestions for what a reader has typed (`Query.suggest`): venues, organizers, categories,
 * tags and events, best first, each with its hits under `filter`. Debouncing is the caller's: ask
 * after the reader pauses (about 150 ms), and abort the previous request through `signal`.
 *
 * The prefix is sent lowercased, trimmed and with runs of spaces as one, which the service matches
 * alike, so that `Kon`, `kon ` and `KON` are one cached answer (one GET per prefix at a CDN). Nothing
 * but whitespace: `[]` without a request. Longer than 100 characters: its first 100 are sent.
 */
export async function suggest(client: CalendarClient, prefix: string, options: SuggestOptions = {}): Promise<Suggestion[]> {
  let typed = prefix.trim().replace(/\s+/g, ' ').toLowerCase();
  if (typed === '') return [];
  if (typed.length > MAX_PREFIX) typed = typed.slice(0, /[\ud800-\udbff]/.test(typed[MAX_PREFIX - 1]!) ? MAX_PREFIX - 1 : MAX_PREFIX);
  const variables = { prefix: typed, ...(options.filter ? { filter: options.filter } : {}), ...(options.limit !== undefined ? { limit: options.limit } : {}) };
  return (await client.request(SuggestDocument, variables, { signal: options.signal })).suggest;
}

/**
 * The `Filter` fields a suggestion stands for, to merge into the page's filter (`{ ...filter,
 * ...suggestionFilter(s) }`: exactly what its `hits` counted); null for an event, which is one
 * event's page (`eventBySlug(value)`).
 */
export function suggestionFilter(suggestion: Pick<Suggestion, 'kind' | 'value'>): Filter | null {
  switch (suggestion.kind) {
    case 'VENUE':
      return { venueSlug: suggestion.value };
    case 'ORGANIZER':
      return { organizerSlug: suggestion.value };
    case 'CATEGORY':
      return { categories: [suggestion.value] };
    case 'TAG':
      return { tag: suggestion.value };
    default:
      return null;
  }
}
