import type { CategoryRow, OrganizerRow, VenueRow } from '../../db/database.js';
import { firstWhere } from '../first-where.js';
import type { SnapshotChangeLog } from './snapshot-change-log.js';
import { walkIndexBytes, type WalkIndexes } from './walk-indexes.js';
import { wordIndexBytes, type WordIndex } from '../typeahead/word-index.js';

/** Bits of `eventFlags`. */
export const EVENT_FEATURED = 1;
export const EVENT_FEATURED_SPECIAL = 2;
export const EVENT_SUPER = 4;
/** Bits of `dateFlags`. */
export const DATE_CANCELLED = 1;
export const DATE_SOLD_OUT = 2;
/**
 * The date has no end time (`end_at` null): `dateEnds` is then its start + 3 h, and the API's
 * endDate its start. With an end time, `dateEnds` is that end (the importer writes `ends_at` as
 * `end_at` whenever there is one), so the snapshot answers endDate without reading the date.
 */
export const DATE_NO_END = 4;

/** `eventMode` values; anything else the importer accepted is `MODE_OTHER`. */
export const MODE_OFFLINE = 0;
export const MODE_ONLINE = 1;
export const MODE_OTHER = 2;

/** A list per entity, stored as offsets into one flat array (entity i: values[offsets[i] .. offsets[i+1])). */
export interface PackedLists {
  offsets: Uint32Array;
  values: Uint32Array;
}

/** `SuggestionIndex.catalogueKind` values. */
export const SUGGEST_VENUE = 0;
export const SUGGEST_ORGANIZER = 1;
export const SUGGEST_CATEGORY = 2;
export const SUGGEST_TAG = 3;

/**
 * What `suggest` looks names up in (suggestion-index.ts builds it, suggestions.ts reads it). Two kinds
 * of entities: the catalogue ones (venues, organizers, visible categories and tags that an event of
 * the snapshot has; numbered kind after kind) and the events. Every one of either has a label rank: its
 * place in the order of all of them by folded label, then value, then kind, so that suggestions of any
 * kinds compare by label as two numbers.
 */
export interface SuggestionIndex {
  /** SUGGEST_VENUE .. SUGGEST_TAG. */
  catalogueKind: Uint8Array;
  /** Its venue, organizer, category or tag number in the snapshot. */
  catalogueLocal: Uint32Array;
  /** Per kind, the catalogue number of each venue, organizer, category or tag number; -1 when it has none. */
  catalogueOf: readonly Int32Array[];
  catalogueRank: Uint32Array;
  /**
   * Its events (with a date at it, for a venue), latest-ending first by the end of their last date (at
   * the venue, for a venue: see `eventLastEnd`), so the events that can still have a node after an
   * instant are a prefix found by binary search.
   */
  catalogueEvents: PackedLists;
  /**
   * The same events again (entity c's: [catalogueEvents.offsets[c], catalogueEvents.offsets[c + 1])),
   * by the start of their first date (at the venue, for a venue), earliest first: the events that can
   * have a node in a window ending at an instant (`untilDate`, a `when` preset) are a prefix found by
   * binary search, the window's few events rather than every upcoming one.
   */
  catalogueEventsByStart: Uint32Array;
  /** The end of each event's last-ending date (ms). */
  eventLastEnd: Float64Array;
  /**
   * Of those, the ones published after `publishingHorizon`, the latest-published first: entity c's are
   * [latePublishing.offsets[c], latePublishing.offsets[c + 1]) of `latePublishing.dates` (publishing,
   * ms) and `latePublishing.lastEnds` (their last ends, as catalogueEvents is ordered by).
   */
  latePublishing: { offsets: Uint32Array; dates: Float64Array; lastEnds: Float64Array };
  /** The build's clock less RETAINED_ENDED_MS: a request's "now" is later but for clocks set back. */
  publishingHorizon: number;
  /** Dates of those events (at it, for a venue): the most nodes it can lead to grouped by day. */
  catalogueDates: Uint32Array;
  /** Names and slugs (venues, organizers), both labels (categories), the tag (tags); entity: catalogue number. */
  catalogueWords: WordIndex;
  /**
   * Both titles and the slug; entity: the event's label rank, so that the entries of a prefix are
   * ranked without reading anything else. `eventOfRank` gives the event (-1: a catalogue entity's rank).
   */
  eventWords: WordIndex;
  eventOfRank: Int32Array;
  /** The tags, by tag number (`tagKeys` the other way round). */
  tagNames: readonly string[];
  /**
   * A delta's events' labels by event number (null for a full build: a million titles would stay in
   * memory): layered typeahead ranks and labels the delta's candidates without reading them (issue 54).
   */
  eventLabels: readonly SuggestedEventLabel[] | null;
}

/** What ranks and shows a suggested event: its slug and titles. */
export interface SuggestedEventLabel {
  slug: string;
  title_nb: string | null;
  title_en: string | null;
}

/** The venue, organizer and category records of one data version, as the API shows them. */
export interface SnapshotCatalogue {
  venues: ReadonlyMap<string, VenueRow>;
  organizers: ReadonlyMap<string, OrganizerRow>;
  /** In the calendar's order (position, then id). */
  categories: readonly CategoryRow[];
  /** The same, by id (the category facet's records). */
  categoriesById: ReadonlyMap<string, CategoryRow>;
  /** The `venues` and `organizers` lists, in Norwegian name order (see repositories/catalogue.ts). */
  venuesByName: readonly VenueRow[];
  organizersByName: readonly OrganizerRow[];
}

/**
 * Everything the read model knows of one data version, in columns: the catalogue records, the
 * event-level facts every filter tests, and every date that had not ended when it was built (see
 * RETAINED_ENDED_MS), grouped by event (each event's dates chronological), with `dateOrder` listing
 * them in the order results are listed: by start, then event id, then date id.
 *
 * Events are numbered in the code-unit order of their ids (so comparing numbers compares ids), and
 * venues, organizers and categories by their position in the id tables below. Immutable once built:
 * every request holding it reads the same version, whatever lands meanwhile.
 */
export interface CalendarSnapshot {
  /** `calendar_state.version` it was read at. */
  version: string;
  catalogue: SnapshotCatalogue;

  venueIds: readonly string[];
  venueBySlug: ReadonlyMap<string, number>;
  /** Folded (lower, unaccented) names, matched by search words. */
  venueFoldedNames: readonly string[];
  /** `lower(municipality)`, or null. */
  venueMunicipalities: readonly (string | null)[];
  venuePostalCodes: readonly (string | null)[];
  /** NaN when unknown. */
  venueLatitudes: Float64Array;
  venueLongitudes: Float64Array;

  organizerIds: readonly string[];
  organizerBySlug: ReadonlyMap<string, number>;
  organizerFoldedNames: readonly string[];

  /** Every category id an event names (listed in `categories` or not). */
  categoryIds: readonly string[];
  categoryByKey: ReadonlyMap<string, number>;
  /** 1 when the category is in the `categories` table: only those are counted in the facet. */
  categoryListed: Uint8Array;
  /** Folded `name_nb name_en` of listed categories ('' for the others). */
  categoryFoldedNames: readonly string[];

  /** Ids in code-unit order: event i has the i-th id. */
  eventIds: readonly string[];
  /** Publishing date in ms, NaN when none. */
  eventPublishing: Float64Array;
  eventMode: Uint8Array;
  eventFlags: Uint8Array;
  /** Index into `superEventKeys`, -1 when none. */
  eventSuperEvent: Int32Array;
  superEventKeys: ReadonlyMap<string, number>;
  eventTags: PackedLists;
  tagKeys: ReadonlyMap<string, number>;
  /** In the event's own order. */
  eventCategories: PackedLists;
  eventOrganizers: PackedLists;
  /** Event e's dates are the date indices eventDateOffsets[e] .. eventDateOffsets[e + 1], chronological. */
  eventDateOffsets: Uint32Array;

  dateCount: number;
  /** Every date index, by start, then event id, then date id. */
  dateOrder: Uint32Array;
  /**
   * Per venue, the positions in `dateOrder` (ranks) of its dates, ascending: a filter on a few
   * venues walks their dates alone, in listing order, instead of every date (walk/venue-rank-ranges.ts).
   */
  venueDateRanks: PackedLists;
  /** Sorted columns and posting lists the planned walk reads (walk-indexes.ts). */
  walk: WalkIndexes;
  /** ms since the epoch. */
  dateStart: Float64Array;
  /** When the date stops counting as ongoing: its end, or start + 3 h without an end time. */
  dateEnds: Float64Array;
  dateEvent: Uint32Array;
  /** Venue index, -1 when none. */
  dateVenue: Int32Array;
  /** `occurrences.id`. */
  dateId: Float64Array;
  /** Oslo calendar day of the start, in days since 1970-01-01. */
  dateDay: Int32Array;
  /** Oslo wall-clock minute of the start. */
  dateMinute: Uint16Array;
  dateFlags: Uint8Array;

  /**
   * The highest `occurrences.id` in its view (0: none). Ids are a sequence and an import rewrites the
   * dates of every event it lists, changed or not: the events with a date above it are those an import
   * rewrote since (layered-snapshot.ts), whether or not the change log counts them as changed.
   */
  occurrencesUpTo: number;
  /** `event_changes` of this version: what `changes` lists in a round's data phase. */
  changeLog: SnapshotChangeLog;

  suggestions: SuggestionIndex;
}

/** Binary search in ids sorted by code unit, each once; -1 when absent. */
export function indexOfSorted(ids: readonly string[], id: string): number {
  const at = firstWhere(0, ids.length, (k) => !(ids[k]! < id));
  return at < ids.length && ids[at] === id ? at : -1;
}

/** The event's index in the snapshot, -1 when it has no date that had not ended at build time. */
export function eventIndexOf(snapshot: CalendarSnapshot, eventId: string): number {
  return indexOfSorted(snapshot.eventIds, eventId);
}

/** The event's dates that have not ended at `now`, chronological (date indices). */
export function upcomingDatesOf(snapshot: CalendarSnapshot, event: number, now: number): number[] {
  const offsets = snapshot.eventDateOffsets;
  const dates: number[] = [];
  for (let date = offsets[event]!; date < offsets[event + 1]!; date++) if (snapshot.dateEnds[date]! > now) dates.push(date);
  return dates;
}

/** Whether the event is visible at `now`: "an event whose publishingDate is in the future is not returned". */
export function isEventPublished(snapshot: CalendarSnapshot, event: number, now: number): boolean {
  const publishing = snapshot.eventPublishing[event]!;
  return Number.isNaN(publishing) || publishing <= now;
}

/** Bytes held by the snapshot's typed arrays (strings and records aside), for the build log and the bench. */
export function typedArrayBytes(snapshot: CalendarSnapshot): number {
  let bytes = walkIndexBytes(snapshot.walk);
  for (const value of Object.values(snapshot) as unknown[]) {
    if (ArrayBuffer.isView(value)) bytes += value.byteLength;
    else if (value && typeof value === 'object' && 'offsets' in value && 'values' in value) {
      const lists = value as PackedLists;
      bytes += lists.offsets.byteLength + lists.values.byteLength;
    }
  }
  const suggestions = snapshot.suggestions;
  const late = suggestions.latePublishing;
  for (const value of [...(Object.values(suggestions) as unknown[]), ...suggestions.catalogueOf, late.offsets, late.dates, late.lastEnds]) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  bytes += suggestions.catalogueEvents.offsets.byteLength + suggestions.catalogueEvents.values.byteLength;
  bytes += wordIndexBytes(suggestions.catalogueWords) + wordIndexBytes(suggestions.eventWords);
  return bytes + snapshot.changeLog.versions.byteLength + snapshot.changeLog.removed.byteLength;
}
