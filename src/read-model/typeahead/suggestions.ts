import type { SuggestionKind } from '../../../generated/schema-types.js';
import { onlyConditions, type EventQuery } from '../../domain/event-query.js';
import type { SuggestQueries } from '../../domain/suggest-input.js';
import { SUGGEST_CATEGORY, SUGGEST_ORGANIZER, SUGGEST_VENUE, type CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { firstWhere } from '../first-where.js';
import { Best, before, KIND_NAMES, type Ranked } from './suggestion-ranking.js';
import { scratchFor, stamps, type Scratch } from './suggestion-scratch.js';
import type { WordMatch } from '../search/search-matches.js';
import { firstStartAt, lastEndAt } from './suggestion-index.js';
import { allowedVenues } from '../walk/allowed-venues.js';
import { eventNodes, type EventNodes } from '../walk/event-nodes.js';
import { findResultPage } from '../walk/find-result-page.js';
import { windowBounds } from '../walk/window-bounds.js';
import { INNER, oneEditRuns, prefixRun, TYPO_MIN_UNITS, type WordIndex, type WordRun } from './word-index.js';

export interface SuggestRequest {
  queries: SuggestQueries;
  /** The prefix's folded words (searchWords): each must start a word of a label. */
  words: readonly string[];
  limit: number;
  /** Literal matches of each word of the filter's `searchTerm` (empty without one). */
  literal: readonly WordMatch[];
  /** Their approximate matches, for the fallback of `searchTerm`; null without one. */
  approximate: readonly WordMatch[] | null;
}

export interface FoundSuggestion {
  kind: SuggestionKind;
  /** The venue, organizer, category or tag number in the snapshot; for EVENT the event number. */
  entity: number;
  hits: number;
}

export type SearchPhase = 'literal' | 'approximate';

/** "A literal match anywhere means no approximate matches": the literal phase unless it finds no node at all. */
function filterPhaseIn(snapshot: CalendarSnapshot, request: SuggestRequest): SearchPhase {
  if (!request.approximate) return 'literal';
  return hasNode(snapshot, request.queries.filter, request.literal) ? 'literal' : 'approximate';
}

export function hasNode(snapshot: CalendarSnapshot, query: EventQuery, words: readonly WordMatch[]): boolean {
  return findResultPage(snapshot, { query, words, page: 0, pageSize: 1, facets: [], wantsTotal: false }).nodes.length > 0;
}

/**
 * A base view's masked events (layered-snapshot.ts) per catalogue entity of its index (the full
 * build's): offsets by entity, each one's last end (at the venue, for a venue) and its publishing
 * date in the full build.
 */
interface MaskedEvents {
  offsets: Uint32Array;
  lastEnds: Float64Array;
  publishing: Float64Array;
}

const maskedEvents = new WeakMap<CalendarSnapshot, MaskedEvents>();

/** The masked events of a base view of `segment` (the first `masked` of its `publishedLate`), kept per view. */
export function maskedEventsOf(base: CalendarSnapshot, segment: CalendarSnapshot, masked: number): MaskedEvents {
  let kept = maskedEvents.get(base);
  if (kept) return kept;
  const index = base.suggestions;
  const perEntity: { lastEnd: number; publishing: number }[][] = Array.from({ length: index.catalogueKind.length }, () => []);
  const add = (kind: number, local: number, lastEnd: number, publishing: number) => {
    const c = index.catalogueOf[kind]![local]!;
    if (c >= 0) perEntity[c]!.push({ lastEnd, publishing });
  };
  const seenVenue = new Set<number>();
  for (const event of base.walk.publishedLate.subarray(0, masked)) {
    const publishing = segment.eventPublishing[event]!;
    const lastEnd = index.eventLastEnd[event]!;
    seenVenue.clear();
    for (let d = base.eventDateOffsets[event]!; d < base.eventDateOffsets[event + 1]!; d++) {
      const venue = base.dateVenue[d]!;
      if (venue < 0 || seenVenue.has(venue)) continue;
      seenVenue.add(venue);
      add(SUGGEST_VENUE, venue, lastEndAt(base, event, venue), publishing);
    }
    const lists = [base.eventOrganizers, base.eventCategories, base.eventTags];
    lists.forEach((list, i) => {
      const members = new Set<number>();
      for (let k = list.offsets[event]!; k < list.offsets[event + 1]!; k++) members.add(list.values[k]!);
      for (const member of members) add(SUGGEST_ORGANIZER + i, member, lastEnd, publishing);
    });
  }
  const offsets = new Uint32Array(perEntity.length + 1);
  perEntity.forEach((own, c) => (offsets[c + 1] = offsets[c]! + own.length));
  const all = perEntity.flat();
  kept = { offsets, lastEnds: Float64Array.from(all, (m) => m.lastEnd), publishing: Float64Array.from(all, (m) => m.publishing) };
  maskedEvents.set(base, kept);
  return kept;
}

/** One way of matching the prefix: for each of its words, the runs of indexed words it may start. */
type MatchPlan = WordRun[][];

/**
 * The ways the prefix is matched in an index: literally (every word a prefix of an indexed word), or
 * with one typo, in any one word of TYPO_MIN_UNITS or more (one plan per such word, the others literal).
 */
function plans(index: WordIndex, words: readonly string[], typo: boolean): MatchPlan[] {
  const literal = words.map((word) => [prefixRun(index, word)]);
  if (!typo) return [literal];
  return words.flatMap((word, j) => (word.length >= TYPO_MIN_UNITS ? [literal.map((runs, k) => (k === j ? oneEditRuns(index, word) : runs))] : []));
}

/** Each entry of the runs, as (entity, inner). */
function eachEntry(index: WordIndex, runs: readonly WordRun[], visit: (entity: number, inner: number) => void): void {
  const { entryOffsets, entries } = index;
  for (const run of runs) {
    for (let k = entryOffsets[run.from]!, end = entryOffsets[run.to]!; k < end; k++) {
      const value = entries[k]!;
      visit(value % INNER, value >= INNER ? 1 : 0);
    }
  }
}

/** Catalogue entities matching a plan (every word), with their inner bit (1: the first word started no label's first word). */
function catalogueMatches(index: WordIndex, count: number, plan: MatchPlan, found: Uint8Array): void {
  // matched[c] = j: c has matched the first j words. `found` keeps the best quality + 1 (0: not found).
  const matched = new Uint8Array(count);
  const inner = new Uint8Array(count).fill(1);
  plan.forEach((runs, j) => {
    eachEntry(index, runs, (c, bit) => {
      if (matched[c] === j) {
        matched[c] = j + 1;
        if (j === 0) inner[c] = bit;
      } else if (j === 0 && bit === 0) inner[c] = 0;
    });
  });
  for (let c = 0; c < count; c++) {
    if (matched[c] !== plan.length) continue;
    const quality = inner[c]! + 1;
    if (found[c] === 0 || quality < found[c]!) found[c] = quality;
  }
}

/**
 * Events matching a plan, each offered (possibly more than once) as its entry: inner bit * 2^31 +
 * label rank, the order suggestions of events take. One word: its entries straight away, each indexed
 * word's only up to the first that `worst()` says is not wanted (they are in that order). Several:
 * marked word after word (stamps), then offered from the last word's.
 */
function eventMatches(index: WordIndex, scratch: Scratch, plan: MatchPlan, offer: (entry: number) => void, worst: () => number): void {
  const { entryOffsets, entries } = index;
  if (plan.length === 1) {
    for (const run of plan[0]!) {
      for (let w = run.from; w < run.to; w++) {
        for (let k = entryOffsets[w]!, end = entryOffsets[w + 1]!; k < end; k++) {
          const entry = entries[k]!;
          if (entry >= worst()) break;
          offer(entry);
        }
      }
    }
    return;
  }
  const first = stamps(scratch, plan.length);
  const { mark, inner } = scratch;
  plan.forEach((runs, j) => {
    eachEntry(index, runs, (e, bit) => {
      if (j === 0) {
        if (mark[e] !== first) {
          mark[e] = first;
          inner[e] = bit;
        } else if (bit === 0) inner[e] = 0;
      } else if (mark[e] === first + j - 1) mark[e] = first + j;
    });
  });
  const last = first + plan.length - 1;
  eachEntry(index, plan[plan.length - 1]!, (e) => {
    if (mark[e] === last) offer(inner[e]! * INNER + e);
  });
}

/**
 * Counts nodes the way `events` does (eventNodes), per catalogue entity: its kind's query, with the
 * search words of the phase `events` would use for that query, plus the entity's condition. Only the
 * entity's events whose last date ends after the window's start are walked (the rest cannot have a
 * node), or, in a window with an end (`untilDate`, a `when` preset), those whose first date starts
 * before it when they are fewer (a weekend's events, not every upcoming one); an event's nodes under a
 * query are remembered for the request (a category and a tag share most events).
 *
 * Under a query with no condition but its window's start (no filter, or `fromDate` alone: what a
 * typeahead mostly asks), a node is "published, and a date ends after the start": the entity's count
 * is then the length of that prefix of its events, less those of them not published yet (the few
 * events with a later publishing date), with no walk at all. test/api/suggest.test.ts holds every
 * count equal to `events`' totalCount, both ways.
 */
export class HitCounter {
  private readonly scratch: Scratch;
  private readonly filterPhaseOf: () => SearchPhase;
  private readonly counters = new Map<EventQuery, { literal: EventNodes; approximate: EventNodes | null; literalStamp: number; approximateStamp: number }>();
  private readonly baseVenues: Uint8Array | null;
  private readonly oneVenue: Uint8Array;
  private readonly masked: MaskedEvents | null;
  private filterPhase: SearchPhase | undefined;

  /**
   * `layer`, for one layer of a version (findLayeredSuggestions): the filter's phase decided on every
   * layer, and the masked events of a base view (their hits are left out of the closed form too).
   */
  constructor(
    private readonly snapshot: CalendarSnapshot,
    private readonly request: SuggestRequest,
    layer?: { filterPhase: () => SearchPhase; masked: MaskedEvents | null },
  ) {
    this.scratch = scratchFor(snapshot);
    this.filterPhaseOf = layer ? layer.filterPhase : () => filterPhaseIn(snapshot, request);
    this.masked = layer?.masked ?? null;
    this.baseVenues = allowedVenues(snapshot, request.queries.venue);
    this.oneVenue = new Uint8Array(snapshot.venueIds.length);
  }

  private counterOf(query: EventQuery) {
    let counter = this.counters.get(query);
    if (!counter) {
      const { literal, approximate } = this.request;
      const stamp = stamps(this.scratch, 2);
      counter = {
        literal: eventNodes(this.snapshot, query, literal),
        approximate: approximate ? eventNodes(this.snapshot, query, approximate) : null,
        literalStamp: stamp,
        approximateStamp: stamp + 1,
      };
      this.counters.set(query, counter);
    }
    return counter;
  }

  private remembered(nodesOf: EventNodes, stamp: number, event: number): number {
    const { countedAt, counted } = this.scratch;
    if (countedAt[event] === stamp) return counted[event]!;
    const nodes = nodesOf(event);
    countedAt[event] = stamp;
    counted[event] = nodes;
    return nodes;
  }

  /** Whether `events(filter)` lists the event: its search phase is the one the whole filter's total decides. */
  listed(event: number): boolean {
    const counter = this.counterOf(this.request.queries.filter);
    this.filterPhase ??= this.filterPhaseOf();
    return this.filterPhase === 'literal'
      ? this.remembered(counter.literal, counter.literalStamp, event) > 0
      : this.remembered(counter.approximate!, counter.approximateStamp, event) > 0;
  }

  /** The query entity c is counted under. */
  queryOf(c: number): EventQuery {
    const kind = this.snapshot.suggestions.catalogueKind[c]!;
    const { queries } = this.request;
    return kind === SUGGEST_VENUE ? queries.venue : kind === SUGGEST_ORGANIZER ? queries.organizer : kind === SUGGEST_CATEGORY ? queries.category : queries.tag;
  }

  /** How many of c's events have a date ending after `start`: a prefix of them (catalogueEvents' order). */
  endingAfter(c: number, start: number): number {
    const index = this.snapshot.suggestions;
    const { offsets, values } = index.catalogueEvents;
    // The order's key, read again at each step of the search (a handful): not stored per event.
    const venue = index.catalogueKind[c] === SUGGEST_VENUE ? index.catalogueLocal[c]! : -1;
    const lastEnd = (event: number) => (venue >= 0 ? lastEndAt(this.snapshot, event, venue) : index.eventLastEnd[event]!);
    const first = offsets[c]!;
    return firstWhere(first, offsets[c + 1]!, (k) => !(lastEnd(values[k]!) > start)) - first;
  }

  /**
   * How many of c's events have a date (at it, for a venue) starting before `until`: a prefix of them
   * in `catalogueEventsByStart`'s order (by their first date's start).
   */
  startingBefore(c: number, until: number): number {
    const index = this.snapshot.suggestions;
    const values = index.catalogueEventsByStart;
    const { offsets } = index.catalogueEvents;
    const venue = index.catalogueKind[c] === SUGGEST_VENUE ? index.catalogueLocal[c]! : -1;
    const { dateStart, eventDateOffsets } = this.snapshot;
    const firstStart = (event: number) => (venue >= 0 ? firstStartAt(this.snapshot, event, venue) : dateStart[eventDateOffsets[event]!]!);
    const first = offsets[c]!;
    return firstWhere(first, offsets[c + 1]!, (k) => !(firstStart(values[k]!) < until)) - first;
  }

  /**
   * The events of c that can have a node under its query: those with a date ending after the window's
   * start (a prefix of catalogueEvents), or, when the window has an end and that is fewer, those with a
   * date starting before it (a prefix of catalogueEventsByStart): every node is a date of one of both.
   */
  candidates(c: number): { values: Uint32Array; from: number; to: number } {
    const index = this.snapshot.suggestions;
    const query = this.queryOf(c);
    const from = index.catalogueEvents.offsets[c]!;
    const { notEndedAt, until } = windowBounds(query);
    const ending = this.endingAfter(c, notEndedAt);
    if (until !== Number.POSITIVE_INFINITY) {
      const starting = this.startingBefore(c, until);
      if (starting < ending) return { values: index.catalogueEventsByStart, from, to: from + starting };
    }
    return { values: index.catalogueEvents.values, from, to: from + ending };
  }

  /** The most hits c can have: its events that can have a node, or, grouped by day, all their dates. */
  most(c: number): number {
    const query = this.queryOf(c);
    if (query.groupByDay) return this.snapshot.suggestions.catalogueDates[c]!;
    const { from, to } = this.candidates(c);
    return to - from;
  }

  /** `totalCount` of the entity's kind query with its condition added: literal, unless that finds nothing and `searchTerm` has an approximate phase. */
  hits(c: number): number {
    const literal = this.count(c, 'literal');
    return literal > 0 || !this.request.approximate ? literal : this.count(c, 'approximate');
  }

  /** The nodes of the entity's kind query with its condition added, in one search phase (`approximate` only with a `searchTerm`). */
  count(c: number, phase: SearchPhase): number {
    const index = this.snapshot.suggestions;
    const query = this.queryOf(c);
    const start = windowBounds(query).notEndedAt;
    const now = query.now.getTime();
    if (onlyConditions(query) && now >= index.publishingHorizon) return this.endingAfter(c, start) - this.unpublished(c, now, start) - this.maskedAmong(c, now, start);
    const { values, from, to } = this.candidates(c);
    const words = phase === 'literal' ? this.request.literal : this.request.approximate!;
    if (index.catalogueKind[c] === SUGGEST_VENUE) {
      // A date-level condition: the venue's own dates count, so it narrows the allowed venues to one.
      const venue = index.catalogueLocal[c]!;
      if (this.baseVenues && this.baseVenues[venue] !== 1) return 0;
      this.oneVenue[venue] = 1;
      try {
        const sum = (nodesOf: EventNodes) => {
          let total = 0;
          for (let k = from; k < to; k++) total += nodesOf(values[k]!);
          return total;
        };
        return sum(eventNodes(this.snapshot, query, words, this.oneVenue));
      } finally {
        this.oneVenue[venue] = 0;
      }
    }
    // Event-level conditions: the entity's events are exactly those that satisfy it.
    const counter = this.counterOf(query);
    const [nodesOf, stamp] = phase === 'literal' ? [counter.literal, counter.literalStamp] : [counter.approximate!, counter.approximateStamp];
    let total = 0;
    for (let k = from; k < to; k++) total += this.remembered(nodesOf, stamp, values[k]!);
    return total;
  }

  /**
   * How many of c's events are masked in this base view (unpublished at every instant) while
   * `unpublished` does not count them: a date of theirs (at it, for a venue) ends after `start` and
   * the full build's publishing date is not after `now` (with one after it, `unpublished` has it).
   */
  private maskedAmong(c: number, now: number, start: number): number {
    const masked = this.masked;
    if (!masked) return 0;
    let count = 0;
    for (let k = masked.offsets[c]!, end = masked.offsets[c + 1]!; k < end; k++) if (masked.lastEnds[k]! > start && !(masked.publishing[k]! > now)) count++;
    return count;
  }

  /**
   * How many of c's events are not published at `now` (eventCondition: "a publishingDate in the
   * future") while a date of theirs (at it, for a venue) ends after `start`: of its events published
   * after the horizon, the first ones (latest-published first) while they are after `now`.
   */
  private unpublished(c: number, now: number, start: number): number {
    const { offsets, dates, lastEnds } = this.snapshot.suggestions.latePublishing;
    let count = 0;
    for (let k = offsets[c]!, end = offsets[c + 1]!; k < end && dates[k]! > now; k++) if (lastEnds[k]! > start) count++;
    return count;
  }
}

/**
 * The events of one matching phase that `events(filter)` lists, as their entries (inner * 2^31 +
 * label rank: the order they are suggested in), the `limit` best, best first, each event once with its
 * best entry. An entry is only looked at further when it would enter the list.
 */
export function eventCandidates(snapshot: CalendarSnapshot, request: SuggestRequest, counter: HitCounter, typo: boolean): number[] {
  const index = snapshot.suggestions;
  const chosen: number[] = [];
  let worst = Number.POSITIVE_INFINITY;
  const { eventOfRank } = index;
  const offerEvent = (entry: number) => {
    if (entry >= worst) return;
    const rank = entry % INNER;
    const known = chosen.findIndex((c) => c % INNER === rank);
    if (known >= 0) {
      if (entry >= chosen[known]!) return;
      chosen[known] = entry;
    } else {
      if (!counter.listed(eventOfRank[rank]!)) return;
      chosen.push(entry);
    }
    chosen.sort((a, b) => a - b);
    if (chosen.length > request.limit) chosen.pop();
    if (chosen.length >= request.limit) worst = chosen[chosen.length - 1]!;
  };
  const scratch = scratchFor(snapshot);
  for (const plan of plans(index.eventWords, request.words, typo)) eventMatches(index.eventWords, scratch, plan, offerEvent, () => worst);
  return chosen;
}

/** Per catalogue entity of the snapshot's index, the best quality + 1 with which it matches the prefix (0: not at all). */
export function catalogueFound(snapshot: CalendarSnapshot, request: SuggestRequest, typo: boolean): Uint8Array {
  const index = snapshot.suggestions;
  const found = new Uint8Array(index.catalogueKind.length);
  for (const plan of plans(index.catalogueWords, request.words, typo)) catalogueMatches(index.catalogueWords, index.catalogueKind.length, plan, found);
  return found;
}

/**
 * The best `limit` suggestions of one matching phase (literal, or with one typo): the events first
 * (hits 1: the `limit` best by quality, then label, among those `events(filter)` lists), then the
 * catalogue entities by quality and by the most hits they could have (their events, or dates grouped
 * by day), counting each one's hits only while it could still enter the list.
 */
function suggestionsOf(snapshot: CalendarSnapshot, request: SuggestRequest, counter: HitCounter, typo: boolean): Ranked[] {
  const index = snapshot.suggestions;
  const best = new Best<Ranked>(request.limit, before);
  for (const entry of eventCandidates(snapshot, request, counter, typo)) {
    const rank = entry % INNER;
    best.offer({ quality: entry >= INNER ? 1 : 0, hits: 1, label: rank, kind: 'EVENT', entity: index.eventOfRank[rank]! });
  }

  const found = catalogueFound(snapshot, request, typo);
  const candidates: { c: number; quality: number; most: number; label: number }[] = [];
  for (let c = 0; c < found.length; c++) {
    if (found[c] === 0) continue;
    const most = counter.most(c);
    if (most > 0) candidates.push({ c, quality: found[c]! - 1, most, label: index.catalogueRank[c]! });
  }
  candidates.sort((a, b) => a.quality - b.quality || b.most - a.most || a.label - b.label);
  for (const candidate of candidates) {
    const worst = best.worst;
    // Later candidates have a worse quality, or fewer possible hits, or a later label: none can enter.
    if (best.full && worst && !before({ ...candidate, hits: candidate.most, kind: 'VENUE', entity: 0 }, worst)) break;
    const hits = counter.hits(candidate.c);
    if (hits > 0) {
      const kind = KIND_NAMES[index.catalogueKind[candidate.c]!]!;
      best.offer({ quality: candidate.quality, hits, label: candidate.label, kind, entity: index.catalogueLocal[candidate.c]! });
    }
  }
  return best.list;
}

/**
 * The suggestions for a prefix, best first (at most `limit`): literal matches, or, when there are
 * none and a word of the prefix is long enough, matches with one typo in one word.
 */
export function findSuggestions(snapshot: CalendarSnapshot, request: SuggestRequest): FoundSuggestion[] {
  if (request.words.length === 0) return [];
  const counter = new HitCounter(snapshot, request);
  let found = suggestionsOf(snapshot, request, counter, false);
  if (found.length === 0 && request.words.some((word) => word.length >= TYPO_MIN_UNITS)) found = suggestionsOf(snapshot, request, counter, true);
  return found.map(({ kind, entity, hits }) => ({ kind, entity, hits }));
}
