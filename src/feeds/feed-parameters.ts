import type { Filter, WhenPreset } from '../../generated/schema-types.js';

/** Language of a feed's titles, descriptions and labels. */
export type FeedLanguage = 'nb' | 'en';

/** What a feed URL asks for: an `events` filter and a language. */
export interface FeedRequest {
  filter: Filter;
  lan: FeedLanguage;
  /** Every parameter that changes the feed, in one canonical text (the cache key's part). */
  normalized: string;
}

/** A parameter the feed cannot take: `parameter` is named in the 400's plain-text message. */
export interface FeedParameterProblem {
  parameters: string[];
  message: string;
}

export type FeedParameters = { ok: true; request: FeedRequest } | { ok: false; problem: FeedParameterProblem };

/** Filter fields that take a list: comma-separated (`categories=CONCERT,DANCE`) or repeated. */
const LIST_PARAMETERS = ['categories', 'notCategories', 'venues', 'organizers', 'postalCodes'] as const;
/** Filter fields that take one string, validated by the same code as the API's (event-query.ts). */
const STRING_PARAMETERS = [
  'fromDate', 'untilDate', 'fromStartDate', 'hoursRange', 'mode', 'municipality', 'organizerSlug', 'searchTerm', 'superEvent',
  'tag', 'venueSlug', 'when',
] as const;
const BOOLEAN_PARAMETERS = ['cancelledNotIncluded', 'soldOutNotIncluded', 'onlyFeatured', 'onlyFeaturedSpecialEvent'] as const;
/**
 * Accepted and without effect: `groupRepetitionsByDay` (a feed lists every date anyway), `sortBy`
 * (deprecated in the API too) and `key` (the application key, which does not change the answer).
 */
const IGNORED_PARAMETERS = ['groupRepetitionsByDay', 'sortBy', 'key'] as const;

const KNOWN = new Set<string>([...LIST_PARAMETERS, ...STRING_PARAMETERS, ...BOOLEAN_PARAMETERS, ...IGNORED_PARAMETERS, 'near', 'lan']);

const problem = (parameter: string, message: string): FeedParameters => ({ ok: false, problem: { parameters: [parameter], message } });

/**
 * Reads a feed URL's query string into the API's `Filter`. Only the shape is checked here (known
 * names, one value where one is meant, booleans, `near`, `lan`); the values themselves are checked
 * by buildEventQuery, as for the API. An unknown parameter is refused rather than ignored: a typo
 * (`category=`) would otherwise subscribe someone to the whole calendar.
 */
export function readFeedParameters(search: URLSearchParams): FeedParameters {
  for (const name of new Set(search.keys())) {
    if (!KNOWN.has(name)) {
      return problem(name, `Unknown parameter "${name}". The feed takes the events Filter's fields (docs/feeds.md), near and lan.`);
    }
    if (!(LIST_PARAMETERS as readonly string[]).includes(name) && search.getAll(name).length > 1) {
      return problem(name, `The parameter "${name}" is given more than once; it takes one value.`);
    }
  }
  const filter: Filter = {};
  for (const name of LIST_PARAMETERS) {
    const values = search.getAll(name);
    if (values.length === 0) continue;
    filter[name] = values.flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
  }
  for (const name of STRING_PARAMETERS) {
    const value = search.get(name);
    if (value === null) continue;
    if (name === 'when') filter.when = value as WhenPreset;
    else filter[name] = value;
  }
  for (const name of BOOLEAN_PARAMETERS) {
    const value = search.get(name);
    if (value === null) continue;
    if (value !== 'true' && value !== 'false') return problem(name, `The parameter "${name}" takes true or false, not "${value}".`);
    filter[name] = value === 'true';
  }
  const near = search.get('near');
  if (near !== null) {
    const parts = near.split(',').map((part) => part.trim());
    const numbers = parts.map((part) => (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(part) ? Number(part) : Number.NaN));
    if (numbers.length !== 3 || numbers.some((n) => !Number.isFinite(n))) {
      return problem('near', `The parameter "near" takes latitude,longitude,radiusKm in decimal degrees and km (near=59.91,10.75,5), not "${near}".`);
    }
    filter.near = { latitude: numbers[0]!, longitude: numbers[1]!, radiusKm: numbers[2]! };
  }
  const lan = search.get('lan') ?? 'nb';
  if (lan !== 'nb' && lan !== 'en') return problem('lan', `The parameter "lan" takes nb or en, not "${lan}".`);
  // Keys in one order, so that the same filter written in another order shares cached answers.
  const normalized = JSON.stringify([lan, Object.entries(filter).sort(([a], [b]) => (a < b ? -1 : 1))]);
  return { ok: true, request: { filter, lan, normalized } };
}
