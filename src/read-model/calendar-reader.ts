import type { Kysely } from 'kysely';
import type { Database, EventRecord, OccurrenceRow } from '../db/database.js';
import type { EventQuery } from '../domain/event-query.js';
import { EVENT_SUPER, eventIndexOf, isEventPublished, upcomingDatesOf, type CalendarSnapshot, type SnapshotCatalogue } from './calendar-snapshot.js';
import { DataVersionMoved } from './data-version-moved.js';
import { findResultPage, type FacetCount, type FacetKind } from './event-results.js';
import { dateRecordsAt, eventRecordsAt } from './page-records.js';
import type { ReadModel } from './read-model.js';
import { wordMatch, type WordMatch } from './search-matches.js';

/**
 * One node of a result: an event with one of its dates promoted into the event's date fields.
 * `groupedDay` (days since 1970-01-01) is set when nodes are grouped per Oslo day: repetitions then
 * stay within that day. `repetitions` is filled when the operation selects them.
 */
export interface CalendarNode {
  event: EventRecord;
  occurrence: OccurrenceRow;
  groupedDay: number | null;
  repetitions: OccurrenceRow[] | null;
  /** Venues and organizers of the same version, so that a node's are looked up without waiting. */
  catalogue: SnapshotCatalogue;
}

export interface NodeOptions {
  /** Load each node's later dates too (the operation selects `repetitions`). */
  repetitions: boolean;
}

export interface EventsPageRequest extends NodeOptions {
  query: EventQuery;
  page: number;
  pageSize: number;
  facets: readonly FacetKind[];
  wantsTotal: boolean;
}

export interface EventsPage {
  nodes: CalendarNode[];
  hasMore: boolean;
  totalCount: number | null;
  facets: Partial<Record<FacetKind, FacetCount[]>>;
}

export interface Box {
  minLatitude: number;
  maxLatitude: number;
  minLongitude: number;
  maxLongitude: number;
}

interface NodeRef {
  event: number;
  date: number;
  groupedDay: number | null;
}

/**
 * What one request reads of the calendar. Every answer comes from one snapshot of the read model
 * (pinned for the request) and records of that same data version: when an import lands in
 * between, the part being answered starts over on the new snapshot.
 */
export class CalendarReader {
  private pinned: Promise<CalendarSnapshot> | null = null;

  constructor(
    private readonly model: ReadModel,
    private readonly db: Kysely<Database>,
    private readonly now: Date,
  ) {}

  /** Venues, organizers and categories of the request's snapshot. */
  async catalogue(): Promise<SnapshotCatalogue> {
    return (await this.snapshot()).catalogue;
  }

  /** A page of `events`, its total and facets. */
  eventsPage(request: EventsPageRequest): Promise<EventsPage> {
    return this.consistently(async (snapshot) => {
      const q = request.query;
      const matches = (mode: 'literal' | 'approximate'): Promise<WordMatch[]> =>
        Promise.all(q.searchWords.map((word) => wordMatch(this.db, snapshot, word, mode)));
      let result = findResultPage(snapshot, { ...request, words: await matches('literal') });
      // "A literal match anywhere means no approximate matches."
      if (q.searchWords.length > 0 && result.totalCount === 0) {
        result = findResultPage(snapshot, { ...request, words: await matches('approximate') });
      }
      const refs = result.nodes.map(({ event, date }) => ({ event, date, groupedDay: q.groupByDay ? snapshot.dateDay[date]! : null }));
      return {
        nodes: await this.loadNodes(snapshot, refs, request),
        hasMore: result.hasMore,
        totalCount: result.totalCount,
        facets: result.facets,
      };
    });
  }

  /**
   * The events with these ids, in that order, each with its next date that has not ended promoted;
   * events without one, unpublished or unknown are left out.
   */
  upcomingNodes(eventIds: readonly string[], options: NodeOptions): Promise<CalendarNode[]> {
    return this.consistently(async (snapshot) => {
      const refs: NodeRef[] = [];
      for (const id of eventIds) {
        const ref = this.upcomingRef(snapshot, eventIndexOf(snapshot, id));
        if (ref) refs.push(ref);
      }
      return this.loadNodes(snapshot, refs, options);
    });
  }

  /** Container events with a date that has not ended, chronological. */
  upcomingSuperEvents(options: NodeOptions): Promise<CalendarNode[]> {
    return this.consistently(async (snapshot) => {
      const refs: NodeRef[] = [];
      for (let e = 0; e < snapshot.eventIds.length; e++) {
        if ((snapshot.eventFlags[e]! & EVENT_SUPER) === 0) continue;
        const ref = this.upcomingRef(snapshot, e);
        if (ref) refs.push(ref);
      }
      return this.loadNodes(snapshot, chronological(snapshot, refs), options);
    });
  }

  /**
   * Events with a date that has not ended at a venue inside the box (edges included), each with its
   * next date promoted (wherever it is), chronological.
   */
  eventsInArea(box: Box, options: NodeOptions): Promise<CalendarNode[]> {
    return this.consistently(async (snapshot) => {
      const { venueLatitudes, venueLongitudes } = snapshot;
      const inside = new Uint8Array(venueLatitudes.length);
      for (let v = 0; v < inside.length; v++) {
        const lat = venueLatitudes[v]!;
        const lon = venueLongitudes[v]!;
        // NaN (no location) fails every comparison.
        if (lat >= box.minLatitude && lat <= box.maxLatitude && lon >= box.minLongitude && lon <= box.maxLongitude) inside[v] = 1;
      }
      const now = this.now.getTime();
      const seen = new Uint8Array(snapshot.eventIds.length);
      const refs: NodeRef[] = [];
      for (let d = 0; d < snapshot.dateCount; d++) {
        const venue = snapshot.dateVenue[d]!;
        const event = snapshot.dateEvent[d]!;
        if (venue < 0 || inside[venue] !== 1 || seen[event] === 1 || snapshot.dateEnds[d]! <= now) continue;
        seen[event] = 1;
        const ref = this.upcomingRef(snapshot, event);
        if (ref) refs.push(ref);
      }
      return this.loadNodes(snapshot, chronological(snapshot, refs), options);
    });
  }

  private upcomingRef(snapshot: CalendarSnapshot, event: number): NodeRef | null {
    const now = this.now.getTime();
    if (event < 0 || !isEventPublished(snapshot, event, now)) return null;
    const [next] = upcomingDatesOf(snapshot, event, now);
    return next === undefined ? null : { event, date: next, groupedDay: null };
  }

  /** The records of the nodes (and of their later dates), in one wave of two statements. */
  private async loadNodes(snapshot: CalendarSnapshot, refs: readonly NodeRef[], options: NodeOptions): Promise<CalendarNode[]> {
    const now = this.now.getTime();
    const laterDates = refs.map((ref) => {
      if (!options.repetitions) return null;
      // "The event's later dates that have not ended"; grouped by day: that day's later dates only.
      const upcoming = upcomingDatesOf(snapshot, ref.event, now);
      return upcoming.filter((d) => d > ref.date && (ref.groupedDay === null || snapshot.dateDay[d] === ref.groupedDay));
    });
    const dates = new Set<number>(refs.map((r) => r.date));
    for (const list of laterDates) for (const d of list ?? []) dates.add(d);
    const [events, occurrences] = await Promise.all([
      eventRecordsAt(this.db, snapshot, [...new Set(refs.map((r) => r.event))]),
      dateRecordsAt(this.db, snapshot, [...dates]),
    ]);
    const nodes: CalendarNode[] = [];
    refs.forEach((ref, i) => {
      const event = events.get(ref.event);
      const occurrence = occurrences.get(ref.date);
      // Both statements read the snapshot's version, so both records exist unless the data was changed
      // without raising the version (not by an import): reading again could not mend that.
      if (!event || !occurrence) throw new Error(`event ${snapshot.eventIds[ref.event]} changed outside an import (data version ${snapshot.version})`);
      const later = laterDates[i];
      nodes.push({
        event,
        occurrence,
        groupedDay: ref.groupedDay,
        repetitions: later ? later.flatMap((d) => occurrences.get(d) ?? []) : null,
        catalogue: snapshot.catalogue,
      });
    });
    return nodes;
  }

  private snapshot(): Promise<CalendarSnapshot> {
    this.pinned ??= this.model.snapshot();
    this.pinned.catch(() => {
      this.pinned = null;
    });
    return this.pinned;
  }

  private async consistently<T>(work: (snapshot: CalendarSnapshot) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const snapshot = await this.snapshot();
      try {
        return await work(snapshot);
      } catch (error) {
        if (!(error instanceof DataVersionMoved) || attempt >= 4) throw error;
        if (error.version !== undefined) this.model.require(error.version);
        this.pinned = null;
      }
    }
  }
}

/** By the promoted date's start, then event id (event numbers follow ids). */
function chronological(snapshot: CalendarSnapshot, refs: NodeRef[]): NodeRef[] {
  return refs.sort((a, b) => snapshot.dateStart[a.date]! - snapshot.dateStart[b.date]! || a.event - b.event);
}
