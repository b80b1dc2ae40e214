import type { Filter } from '../../generated/schema-types.js';
import { parseDateArgument } from './oslo-time.js';
import { parseHoursRange, type HoursRange } from './hours-range.js';
import { searchWords } from './search-term.js';
import { WHEN_PRESETS, whenPresetWindow, type WhenPreset } from './when-preset.js';

/** Largest `pageSize` accepted: existing public clients send up to 1000 to fetch a whole programme. */
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 10;
/**
 * Longest `searchTerm` accepted, in characters. Approximate matching costs grow with a word's
 * length (a 90 kB word took seconds of database time); no real search needs more.
 */
export const MAX_SEARCH_TERM_LENGTH = 200;
/** Most entries in a list argument (`categories`, `venues`, `eventsSlugs`, ...): each becomes a SQL parameter. */
export const MAX_LIST_ARGUMENT_LENGTH = 100;

/** Largest `near.radiusKm` accepted: from the middle of Norway, 1000 km reaches both ends of the country. */
export const MAX_NEAR_RADIUS_KM = 1000;

/** The list arguments of `Filter`, in the order their problems are reported. */
const LIST_ARGUMENTS = ['categories', 'notCategories', 'venues', 'organizers', 'postalCodes'] as const;

/**
 * A validated `events` filter. Each field is one condition; null means "not given".
 * Date-level conditions apply to one date of the event, event-level ones to the event.
 */
/** `Filter.near`, validated: a point in degrees and a radius in km. */
export interface NearPoint {
  latitude: number;
  longitude: number;
  radiusKm: number;
}

export interface EventQuery {
  now: Date;
  /** `fromDate`, default now: the date has not ended (no end time: started under 3 h before). */
  from: Date;
  /** `untilDate`: the date starts before this. */
  until: Date | null;
  /** `fromStartDate`: the date starts at or after this. */
  fromStart: Date | null;
  categories: string[] | null;
  notCategories: string[];
  /** Every list given (`venues`, `venueSlug`) must hold: each is one any-of set of slugs. */
  venueSlugSets: string[][];
  organizerSlugSets: string[][];
  /** Normalised words of `searchTerm`; empty when none. */
  searchWords: string[];
  tag: string | null;
  mode: 'online' | 'offline' | null;
  superEvent: string | null;
  onlyFeatured: boolean;
  onlyFeaturedSpecialEvent: boolean;
  cancelledNotIncluded: boolean;
  soldOutNotIncluded: boolean;
  hoursRange: HoursRange | null;
  groupByDay: boolean;
  municipality: string | null;
  postalCodes: string[] | null;
  /** `near`: the date's venue lies within the radius of the point. */
  near: NearPoint | null;
  /** `when`: the preset given (its window is already in `from` and `until`). */
  when: WhenPreset | null;
  /** When `when` is given: the instant its window moves on, past which no answer of it may be kept. */
  validUntil: Date | null;
}

/**
 * Whether each field of a query is absent as a condition: the window's start (`now`, `from`) never is
 * one, and `when` is its window (`from`, `until`). Typed over every field of EventQuery, so a new
 * condition does not compile until it is said here how it is absent.
 */
const ABSENT: { [K in keyof EventQuery]-?: (q: EventQuery) => boolean } = {
  now: () => true,
  from: () => true,
  when: () => true,
  validUntil: () => true,
  until: (q) => q.until === null,
  fromStart: (q) => q.fromStart === null,
  categories: (q) => q.categories === null,
  notCategories: (q) => q.notCategories.length === 0,
  venueSlugSets: (q) => q.venueSlugSets.length === 0,
  organizerSlugSets: (q) => q.organizerSlugSets.length === 0,
  searchWords: (q) => q.searchWords.length === 0,
  tag: (q) => q.tag === null,
  mode: (q) => q.mode === null,
  superEvent: (q) => q.superEvent === null,
  onlyFeatured: (q) => !q.onlyFeatured,
  onlyFeaturedSpecialEvent: (q) => !q.onlyFeaturedSpecialEvent,
  cancelledNotIncluded: (q) => !q.cancelledNotIncluded,
  soldOutNotIncluded: (q) => !q.soldOutNotIncluded,
  hoursRange: (q) => q.hoursRange === null,
  groupByDay: (q) => !q.groupByDay,
  municipality: (q) => q.municipality === null,
  postalCodes: (q) => q.postalCodes === null,
  near: (q) => q.near === null,
};
const ABSENT_FIELDS = Object.entries(ABSENT) as [keyof EventQuery, (q: EventQuery) => boolean][];

/** Whether a query has no condition but its window's start (`fromDate`, now) and those of `allowed`. */
export function onlyConditions(q: EventQuery, allowed: readonly (keyof EventQuery)[] = []): boolean {
  return ABSENT_FIELDS.every(([field, absent]) => allowed.includes(field) || absent(q));
}

/** `detail` says in words what is wrong, where the names alone would not tell a developer. */
export type EventQueryResult = { ok: true; query: EventQuery } | { ok: false; invalidArgs: string[]; detail?: string };

function cleanList(list: ReadonlyArray<string | null | undefined> | null | undefined): string[] | null {
  if (list == null) return null;
  return list.filter((v): v is string => typeof v === 'string');
}

/** A date argument of the filter, or null when absent; an invalid one is named in `invalidArgs`. */
function dateArgument(f: Filter, name: 'fromDate' | 'untilDate' | 'fromStartDate', invalidArgs: string[]): Date | null {
  const raw = f[name];
  if (raw == null) return null;
  const parsed = parseDateArgument(raw);
  if (!parsed) invalidArgs.push(name);
  return parsed;
}

/**
 * Validates and normalises a `Filter`. Invalid values are collected, not thrown, so that the error
 * names every bad argument at once (`extensions.invalidArgs`).
 */
export function buildEventQuery(filter: Filter | null | undefined, now: Date): EventQueryResult {
  const f = filter ?? {};
  const invalidArgs: string[] = [];
  const details: string[] = [];
  const from = dateArgument(f, 'fromDate', invalidArgs);
  const until = dateArgument(f, 'untilDate', invalidArgs);
  const fromStart = dateArgument(f, 'fromStartDate', invalidArgs);

  let hoursRange: HoursRange | null = null;
  if (f.hoursRange != null) {
    hoursRange = parseHoursRange(f.hoursRange);
    if (!hoursRange) invalidArgs.push('hoursRange');
  }
  let mode: 'online' | 'offline' | null = null;
  if (f.mode != null) {
    if (f.mode === 'online' || f.mode === 'offline') mode = f.mode;
    else invalidArgs.push('mode');
  }
  if (f.searchTerm != null && f.searchTerm.length > MAX_SEARCH_TERM_LENGTH) invalidArgs.push('searchTerm');
  for (const name of LIST_ARGUMENTS) {
    if ((f[name]?.length ?? 0) > MAX_LIST_ARGUMENT_LENGTH) invalidArgs.push(name);
  }
  // GraphQL checks the enum; callers that build a Filter from other input (URL parameters) may not.
  if (f.when != null && !WHEN_PRESETS.includes(f.when)) invalidArgs.push('when');
  else if (f.when != null && (f.fromDate != null || f.untilDate != null)) {
    // A preset is a fromDate and an untilDate of its own: two lower or upper bounds would leave the client
    // guessing which one won.
    invalidArgs.push('when', ...(['fromDate', 'untilDate'] as const).filter((name) => f[name] != null && !invalidArgs.includes(name)));
    details.push('when cannot be combined with fromDate or untilDate');
  }
  let near: NearPoint | null = null;
  if (f.near != null) {
    const { latitude, longitude, radiusKm } = f.near;
    // Float arguments are always finite numbers (GraphQL rejects NaN and Infinity): ranges only.
    const before = invalidArgs.length;
    if (!(latitude >= -90 && latitude <= 90)) invalidArgs.push('near.latitude');
    if (!(longitude >= -180 && longitude <= 180)) invalidArgs.push('near.longitude');
    if (!(radiusKm > 0 && radiusKm <= MAX_NEAR_RADIUS_KM)) invalidArgs.push('near.radiusKm');
    if (invalidArgs.length > before) {
      details.push(`near takes a latitude from -90 to 90, a longitude from -180 to 180 and a radiusKm above 0 and at most ${MAX_NEAR_RADIUS_KM}`);
    }
    near = { latitude, longitude, radiusKm };
  }
  if (invalidArgs.length > 0) return { ok: false, invalidArgs, ...(details.length > 0 ? { detail: details.join('; ') } : {}) };
  const preset = f.when != null ? whenPresetWindow(f.when, now) : null;

  const categories = cleanList(f.categories);
  const venueSlugSets: string[][] = [];
  const venues = cleanList(f.venues);
  if (venues && venues.length > 0) venueSlugSets.push(venues);
  if (f.venueSlug != null) venueSlugSets.push([f.venueSlug]);
  const organizerSlugSets: string[][] = [];
  const organizers = cleanList(f.organizers);
  if (organizers && organizers.length > 0) organizerSlugSets.push(organizers);
  if (f.organizerSlug != null) organizerSlugSets.push([f.organizerSlug]);
  const postalCodes = cleanList(f.postalCodes);

  return {
    ok: true,
    query: {
      now,
      from: preset?.from ?? from ?? now,
      until: preset?.until ?? until,
      fromStart,
      // "Empty means all."
      categories: categories && categories.length > 0 ? categories : null,
      notCategories: cleanList(f.notCategories) ?? [],
      venueSlugSets,
      organizerSlugSets,
      searchWords: f.searchTerm ? searchWords(f.searchTerm) : [],
      tag: f.tag ?? null,
      mode,
      superEvent: f.superEvent ?? null,
      onlyFeatured: f.onlyFeatured === true,
      onlyFeaturedSpecialEvent: f.onlyFeaturedSpecialEvent === true,
      cancelledNotIncluded: f.cancelledNotIncluded === true,
      soldOutNotIncluded: f.soldOutNotIncluded === true,
      hoursRange,
      groupByDay: f.groupRepetitionsByDay === true,
      municipality: f.municipality?.trim() ? f.municipality.trim() : null,
      postalCodes: postalCodes && postalCodes.length > 0 ? postalCodes : null,
      near,
      when: f.when ?? null,
      validUntil: preset?.validUntil ?? null,
    },
  };
}
