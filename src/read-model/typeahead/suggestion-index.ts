import { foldedWords } from '../../domain/search-term.js';
import {
  SUGGEST_CATEGORY,
  SUGGEST_ORGANIZER,
  SUGGEST_TAG,
  SUGGEST_VENUE,
  type CalendarSnapshot,
  type PackedLists,
  type SuggestedEventLabel,
  type SuggestionIndex,
} from '../snapshot/calendar-snapshot.js';
import { WordIndexBuilder } from './word-index.js';

/** What the index is built from: the rest of the snapshot. */
export type SuggestionSources = Pick<
  CalendarSnapshot,
  | 'catalogue'
  | 'venueIds'
  | 'organizerIds'
  | 'categoryIds'
  | 'categoryListed'
  | 'eventIds'
  | 'eventTags'
  | 'tagKeys'
  | 'eventCategories'
  | 'eventOrganizers'
  | 'eventPublishing'
  | 'eventDateOffsets'
  | 'dateVenue'
  | 'dateEnds'
  | 'dateOrder'
  | 'dateEvent'
  | 'venueDateRanks'
>;

/** Distinct titles whose words a build remembers (about 100 bytes each). */
const MAX_REMEMBERED_TITLES = 100_000;

/** Kind order in label-rank ties: the catalogue kinds' numbers, then events. */
const EVENT_KIND = 4;

/**
 * The key a label ranks by: its folded words, then the value (unique within a kind), then the kind.
 * U+0001 sorts before every folded unit (letters, digits, the space between words).
 */
function rankKey(labelWords: readonly string[], value: string, kind: number): string {
  return `${labelWords.join(' ')}\u0001${value}\u0001${kind}`;
}

/**
 * The key an event's label ranks by (as `addEvent` makes it): its shown label's words — `label_nb`,
 * else `label_en`, else the slug's —, its slug, the event kind. Layered typeahead ranks with it.
 */
export function eventRankKey(slug: string, titleNb: string | null, titleEn: string | null): string {
  return rankKey(titleNb ? foldedWords(titleNb) : titleEn ? foldedWords(titleEn) : slugWords(slug), slug, EVENT_KIND);
}

/**
 * The key a catalogue entity's label ranks by (as `build` makes it: its first label's words, its
 * value, its kind): `local` is the entity's number in its kind (venuesByName, organizersByName,
 * categories, the snapshot's tagNames).
 */
export function entityRankKey(snapshot: Pick<CalendarSnapshot, 'catalogue' | 'suggestions'>, kind: number, local: number): string {
  const { catalogue } = snapshot;
  if (kind === SUGGEST_VENUE) {
    const venue = catalogue.venuesByName[local]!;
    return rankKey(foldedWords(venue.name), venue.slug, kind);
  }
  if (kind === SUGGEST_ORGANIZER) {
    const organizer = catalogue.organizersByName[local]!;
    return rankKey(foldedWords(organizer.name), organizer.slug, kind);
  }
  if (kind === SUGGEST_CATEGORY) {
    const category = catalogue.categories[local]!;
    return rankKey(foldedWords(category.name_nb), category.id, kind);
  }
  const tag = snapshot.suggestions.tagNames[local]!;
  return rankKey(foldedWords(tag), tag, kind);
}

function isDigits(word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    const code = word.charCodeAt(k);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/**
 * A slug's words, but those of digits only: slugs end in numbers that tell events of one title apart
 * (`konsert-i-parken-2041`), which nobody types, and which would be a distinct word per event.
 */
function slugWords(slug: string): string[] {
  return foldedWords(slug).filter((word) => !isDigits(word));
}

/**
 * Per member, the distinct entities whose `each` visits it, in the order `entities` lists them (a
 * counting sort in two passes).
 */
function invert(entities: Uint32Array, memberCount: number, each: (entity: number, visit: (member: number) => void) => void): PackedLists {
  const offsets = new Uint32Array(memberCount + 1);
  const lastSeen = new Int32Array(memberCount).fill(-1);
  for (const entity of entities) {
    each(entity, (member) => {
      if (lastSeen[member] === entity) return;
      lastSeen[member] = entity;
      offsets[member + 1] = offsets[member + 1]! + 1;
    });
  }
  for (let m = 0; m < memberCount; m++) offsets[m + 1] = offsets[m + 1]! + offsets[m]!;
  const values = new Uint32Array(offsets[memberCount]!);
  const next = offsets.slice(0, memberCount);
  lastSeen.fill(-1);
  for (const entity of entities) {
    each(entity, (member) => {
      if (lastSeen[member] === entity) return;
      lastSeen[member] = entity;
      values[next[member]!] = entity;
      next[member] = next[member]! + 1;
    });
  }
  return { offsets, values };
}

/** The last end of the event's dates at the venue (-Infinity when it has none there). */
export function lastEndAt(sources: Pick<CalendarSnapshot, 'eventDateOffsets' | 'dateVenue' | 'dateEnds'>, event: number, venue: number): number {
  let last = Number.NEGATIVE_INFINITY;
  for (let d = sources.eventDateOffsets[event]!; d < sources.eventDateOffsets[event + 1]!; d++) {
    if (sources.dateVenue[d] === venue && sources.dateEnds[d]! > last) last = sources.dateEnds[d]!;
  }
  return last;
}

/** The start of the event's first date at the venue (+Infinity when it has none there). */
export function firstStartAt(sources: Pick<CalendarSnapshot, 'eventDateOffsets' | 'dateVenue' | 'dateStart'>, event: number, venue: number): number {
  // An event's dates are stored by start: the first one at the venue is the earliest there.
  for (let d = sources.eventDateOffsets[event]!; d < sources.eventDateOffsets[event + 1]!; d++) if (sources.dateVenue[d] === venue) return sources.dateStart[d]!;
  return Number.POSITIVE_INFINITY;
}

/**
 * Builds the snapshot's SuggestionIndex: the events' titles and slugs are given one at a time while
 * the events are read (so no title outlives its row: only its words and its rank key are kept until
 * the build), the catalogue and the lists come from the finished snapshot.
 */
export class SuggestionIndexBuilder {
  private readonly eventWords = new WordIndexBuilder();
  private readonly eventKeys: string[] = [];
  /** The events' labels in read order, when kept (a delta's: `keepLabels`). */
  private readonly labels: SuggestedEventLabel[] | null;

  constructor(options: { keepLabels?: boolean } = {}) {
    this.labels = options.keepLabels === true ? [] : null;
  }

  /** Titles folded so far: a title recurs (a weekly quiz, a series entered as events), a slug does not. Bounded. */
  private readonly titleWords = new Map<string, string[]>();

  private wordsOfTitle(title: string | null): string[] {
    if (!title) return [];
    let words = this.titleWords.get(title);
    if (!words) {
      words = foldedWords(title);
      if (this.titleWords.size < MAX_REMEMBERED_TITLES) this.titleWords.set(title, words);
    }
    return words;
  }

  /** The next event in read order. */
  addEvent(slug: string, titleNb: string | null, titleEn: string | null): void {
    const nb = this.wordsOfTitle(titleNb);
    const en = this.wordsOfTitle(titleEn);
    const slugged = slugWords(slug);
    this.eventWords.add(this.eventKeys.length, [nb, en, slugged]);
    // The label a suggestion shows first: `label_nb`, else `label_en`, else the slug.
    this.eventKeys.push(rankKey(titleNb ? nb : titleEn ? en : slugged, slug, EVENT_KIND));
    this.labels?.push({ slug, title_nb: titleNb, title_en: titleEn });
  }

  /**
   * `readOrder[i]`: the read position of the snapshot's event i. `publishingHorizon`: the earliest
   * "now" a request of this snapshot is expected to have (publishing dates before it are not kept).
   */
  build(sources: SuggestionSources, readOrder: Uint32Array, publishingHorizon: number): SuggestionIndex {
    const eventCount = readOrder.length;
    const eventOfRead = new Uint32Array(eventCount);
    for (let i = 0; i < eventCount; i++) eventOfRead[readOrder[i]!] = i;
    const { eventDateOffsets, dateVenue, dateEnds, eventOrganizers, eventCategories, eventTags, eventPublishing, catalogue } = sources;
    // NaN (no publishing date) compares false everywhere below: such an event is never "late".

    const eventLastEnd = new Float64Array(eventCount);
    for (let e = 0; e < eventCount; e++) {
      let last = Number.NEGATIVE_INFINITY;
      for (let d = eventDateOffsets[e]!; d < eventDateOffsets[e + 1]!; d++) if (dateEnds[d]! > last) last = dateEnds[d]!;
      eventLastEnd[e] = last;
    }
    // Lists built in this order come out latest-ending first (a venue's nearly so: see below).
    const byLastEnd = new Uint32Array(eventCount);
    for (let e = 0; e < eventCount; e++) byLastEnd[e] = e;
    byLastEnd.sort((a, b) => eventLastEnd[b]! - eventLastEnd[a]! || a - b);

    // And by the start of their first date, earliest first (ties by event number), for windows with an
    // end: the order in which the listing order (by start, then event) first meets each event.
    const { dateOrder, dateEvent } = sources;
    const byFirstStart = new Uint32Array(eventCount);
    const met = new Uint8Array(eventCount);
    for (let r = 0, n = 0; r < dateOrder.length; r++) {
      const event = dateEvent[dateOrder[r]!]!;
      if (met[event] === 1) continue;
      met[event] = 1;
      byFirstStart[n++] = event;
    }

    const listed = (lists: PackedLists) => (event: number, visit: (member: number) => void) => {
      for (let k = lists.offsets[event]!; k < lists.offsets[event + 1]!; k++) visit(lists.values[k]!);
    };
    const tagNames = [...sources.tagKeys.keys()];
    const venuesOf = (event: number, visit: (member: number) => void) => {
      for (let d = eventDateOffsets[event]!; d < eventDateOffsets[event + 1]!; d++) if (dateVenue[d]! >= 0) visit(dateVenue[d]!);
    };
    const entityLists = [venuesOf, listed(eventOrganizers), listed(eventCategories), listed(eventTags)];
    const entityCounts = [sources.venueIds.length, sources.organizerIds.length, sources.categoryIds.length, tagNames.length];
    const byKind = entityLists.map((each, kind) => invert(byLastEnd, entityCounts[kind]!, each));
    // The same members in the other order (invert keeps one entry per distinct member); a venue's are
    // made below from its dates, by its first date there.
    const byKindStart = entityLists.map((each, kind) => (kind === SUGGEST_VENUE ? null : invert(byFirstStart, entityCounts[kind]!, each)));
    const venueRanks = sources.venueDateRanks;
    const metAt = new Int32Array(eventCount).fill(-1);

    // Categories that are suggested: listed and visible, under a visible parent (hidden ones are never shown).
    const visibleCategories = new Set(catalogue.categories.filter((c) => c.visible).map((c) => c.id));
    const suggestedCategory = (k: number) => {
      const row = catalogue.categories[k];
      return row !== undefined && sources.categoryListed[k] === 1 && visibleCategories.has(row.id) && (row.parent_id === null || visibleCategories.has(row.parent_id));
    };

    const kinds: number[] = [];
    const locals: number[] = [];
    const keys: string[] = [];
    const catalogueOf = byKind.map((lists) => new Int32Array(lists.offsets.length - 1).fill(-1));
    const catalogueWords = new WordIndexBuilder();
    const addEntity = (kind: number, local: number, labels: readonly (readonly string[])[], value: string) => {
      const lists = byKind[kind]!;
      if (lists.offsets[local + 1] === lists.offsets[local]) return;
      catalogueOf[kind]![local] = kinds.length;
      catalogueWords.add(kinds.length, labels);
      keys.push(rankKey(labels[0]!, value, kind));
      kinds.push(kind);
      locals.push(local);
    };
    catalogue.venuesByName.forEach((venue, v) => addEntity(SUGGEST_VENUE, v, [foldedWords(venue.name), slugWords(venue.slug)], venue.slug));
    catalogue.organizersByName.forEach((organizer, o) => addEntity(SUGGEST_ORGANIZER, o, [foldedWords(organizer.name), slugWords(organizer.slug)], organizer.slug));
    // "Categories by their labels, never their ids."
    catalogue.categories.forEach((category, k) => {
      if (suggestedCategory(k)) addEntity(SUGGEST_CATEGORY, k, [foldedWords(category.name_nb), foldedWords(category.name_en)], category.id);
    });
    tagNames.forEach((tag, t) => addEntity(SUGGEST_TAG, t, [foldedWords(tag)], tag));

    const catalogueCount = kinds.length;
    const offsets = new Uint32Array(catalogueCount + 1);
    for (let c = 0; c < catalogueCount; c++) {
      const lists = byKind[kinds[c]!]!;
      offsets[c + 1] = offsets[c]! + lists.offsets[locals[c]! + 1]! - lists.offsets[locals[c]!]!;
    }
    const values = new Uint32Array(offsets[catalogueCount]!);
    const lastEnds = new Float64Array(offsets[catalogueCount]!);
    const byStart = new Uint32Array(offsets[catalogueCount]!);
    const dates = new Uint32Array(catalogueCount);
    for (let c = 0; c < catalogueCount; c++) {
      const kind = kinds[c]!;
      const local = locals[c]!;
      const lists = byKind[kind]!;
      const from = lists.offsets[local]!;
      const to = lists.offsets[local + 1]!;
      let at = offsets[c]!;
      let dateTotal = 0;
      for (let k = from; k < to; k++, at++) {
        const event = lists.values[k]!;
        values[at] = event;
        lastEnds[at] = kind === SUGGEST_VENUE ? lastEndAt(sources, event, local) : eventLastEnd[event]!;
        dateTotal += eventDateOffsets[event + 1]! - eventDateOffsets[event]!;
      }
      if (kind === SUGGEST_VENUE) {
        // An event's last date at a venue may end before its last date elsewhere: an insertion sort
        // puts those few in place (the list is already in the order of the events' own last ends).
        for (let k = offsets[c]! + 1; k < offsets[c + 1]!; k++) {
          const event = values[k]!;
          const end = lastEnds[k]!;
          let j = k - 1;
          while (j >= offsets[c]! && (lastEnds[j]! < end || (lastEnds[j] === end && values[j]! > event))) {
            values[j + 1] = values[j]!;
            lastEnds[j + 1] = lastEnds[j]!;
            j--;
          }
          values[j + 1] = event;
          lastEnds[j + 1] = end;
        }
        const ranks = sources.venueDateRanks.offsets;
        dates[c] = ranks[local + 1]! - ranks[local]!;
      } else dates[c] = dateTotal;
      if (kind === SUGGEST_VENUE) {
        // By their first date at the venue: the order in which the venue's dates in listing order first meet them.
        let at = offsets[c]!;
        for (let k = venueRanks.offsets[local]!; k < venueRanks.offsets[local + 1]!; k++) {
          const event = dateEvent[dateOrder[venueRanks.values[k]!]!]!;
          if (metAt[event] === local) continue;
          metAt[event] = local;
          byStart[at++] = event;
        }
      } else {
        const starting = byKindStart[kind]!;
        byStart.set(starting.values.subarray(starting.offsets[local], starting.offsets[local + 1]), offsets[c]);
      }
    }

    // Per entity, its events published after the horizon, latest-published first.
    const lateOffsets = new Uint32Array(catalogueCount + 1);
    const late: number[] = [];
    for (let c = 0; c < catalogueCount; c++) {
      const own: number[] = [];
      for (let k = offsets[c]!; k < offsets[c + 1]!; k++) if (eventPublishing[values[k]!]! > publishingHorizon) own.push(k);
      own.sort((a, b) => eventPublishing[values[b]!]! - eventPublishing[values[a]!]! || a - b);
      for (const k of own) late.push(k);
      lateOffsets[c + 1] = late.length;
    }

    // One order over every label, catalogue entities first in the key list, events after.
    const allKeys = keys;
    for (let i = 0; i < eventCount; i++) allKeys.push(this.eventKeys[readOrder[i]!]!);
    this.eventKeys.length = 0;
    this.titleWords.clear();
    // An Array, not a typed array: V8 took twice as long to sort these (concatenated) keys through a
    // Uint32Array with the same comparator (1M keys: 5.5 s against 2.4 s on a busy machine).
    const order = Array.from({ length: allKeys.length }, (_, i) => i).sort((a, b) => (allKeys[a]! < allKeys[b]! ? -1 : allKeys[a]! > allKeys[b]! ? 1 : 0));
    allKeys.length = 0;
    const rank = new Uint32Array(order.length);
    for (let r = 0; r < order.length; r++) rank[order[r]!] = r;
    const eventOfRank = new Int32Array(order.length);
    for (let r = 0; r < order.length; r++) eventOfRank[r] = order[r]! >= catalogueCount ? order[r]! - catalogueCount : -1;

    return {
      catalogueKind: Uint8Array.from(kinds),
      catalogueLocal: Uint32Array.from(locals),
      catalogueOf,
      catalogueRank: rank.slice(0, catalogueCount),
      catalogueEvents: { offsets, values },
      catalogueEventsByStart: byStart,
      eventLastEnd,
      latePublishing: {
        offsets: lateOffsets,
        dates: Float64Array.from(late, (k) => eventPublishing[values[k]!]!),
        lastEnds: Float64Array.from(late, (k) => lastEnds[k]!),
      },
      publishingHorizon,
      catalogueDates: dates,
      catalogueWords: catalogueWords.build(),
      eventWords: this.eventWords.build((read) => rank[catalogueCount + eventOfRead[read]!]!),
      eventOfRank,
      tagNames,
      eventLabels: this.labels && Array.from(readOrder, (read) => this.labels![read]!),
    };
  }
}
