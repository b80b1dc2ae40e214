import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { EventQuery } from '../domain/event-query.js';
import { DATE_CANCELLED, DATE_NO_END, type CalendarSnapshot, type SnapshotCatalogue } from '../read-model/snapshot/calendar-snapshot.js';
import { onOneDataVersion } from '../read-model/data-version-moved.js';
import { layeredWordMatches } from '../read-model/calendar-reader.js';
import { findLayeredPage } from '../read-model/layers/layered-result-page.js';
import { layersOf, type LayeredSnapshot } from '../read-model/layers/layered-snapshot.js';
import type { ReadModel } from '../read-model/read-model.js';
import type { SearchMode } from '../read-model/search/search-matches.js';
import { feedEventRecords, type FeedEventRecord } from './feed-records.js';

/** How far ahead a feed looks: dates that start within this many days of now (docs/feeds.md). */
export const FEED_WINDOW_DAYS = 365;
/** Most dates in one feed: the earliest ones of its window (docs/feeds.md). */
export const MAX_FEED_OCCURRENCES = 1000;

const DAY_MS = 86_400_000;

/** One VEVENT's worth: a date of an event, all of one data version. */
export interface FeedOccurrence {
  event: FeedEventRecord;
  /** The event's category ids, in its own order. */
  categoryIds: string[];
  start: Date;
  /** Null without an end time (the API's endDate then equals startDate). */
  end: Date | null;
  venueId: string | null;
  cancelled: boolean;
}

export interface FeedOccurrences {
  occurrences: FeedOccurrence[];
  /** More dates matched in the window than MAX_FEED_OCCURRENCES. */
  capped: boolean;
  catalogue: SnapshotCatalogue;
}

/**
 * A view of a snapshot in which every date is an Oslo "day" of its own (its own index), so that
 * the API's walk with `groupRepetitionsByDay` (one node per event and day: read-model/walk/) makes a
 * node of every date that satisfies the filter. The feed thus reuses the API's conditions as they
 * are, rather than a copy of them that could drift. Kept per snapshot (keyed by it, gone with it): the
 * walk keeps its scratch marks per snapshot object.
 */
const everyDateViews = new WeakMap<CalendarSnapshot, CalendarSnapshot>();
/** Process-wide: 0, 1, 2, ... (every date its own day), grown to the largest snapshot; its content never changes. */
let ownDays = new Int32Array(0);

function everyDateView(snapshot: CalendarSnapshot): CalendarSnapshot {
  let view = everyDateViews.get(snapshot);
  if (!view) {
    if (ownDays.length < snapshot.dateCount) {
      // One array for every snapshot (each uses a prefix of it): 4 bytes per date of the largest.
      ownDays = new Int32Array(snapshot.dateCount + (snapshot.dateCount >> 3));
      for (let i = 0; i < ownDays.length; i++) ownDays[i] = i;
    }
    view = { ...snapshot, dateDay: ownDays.subarray(0, snapshot.dateCount) };
    everyDateViews.set(snapshot, view);
  }
  return view;
}

/**
 * The feed's query: the API's, with its upper bound brought to at most FEED_WINDOW_DAYS after now,
 * and every date counted (not one per event).
 */
export function feedQuery(query: EventQuery): EventQuery {
  const horizon = new Date(query.now.getTime() + FEED_WINDOW_DAYS * DAY_MS);
  const until = query.until && query.until.getTime() < horizon.getTime() ? query.until : horizon;
  return { ...query, until, groupByDay: true };
}

/**
 * Every date of the feed, chronological (by start, then event id, then date id): a date is in it
 * when it satisfies the filter's date-level conditions and its event the event-level ones, as a
 * date the API promotes must (docs/feeds.md, "Which dates"), within the feed's window, the earliest
 * MAX_FEED_OCCURRENCES. Every part comes from one data version: when an import lands meanwhile, the
 * walk starts over on the new snapshot.
 */
export function feedOccurrences(model: ReadModel, db: Kysely<Database>, query: EventQuery): Promise<FeedOccurrences> {
  return onOneDataVersion(
    async () => occurrencesOf(await model.snapshot(), db, query),
    (moved) => {
      if (moved.version !== undefined) model.require(moved.version);
    },
  );
}

async function occurrencesOf(layers: LayeredSnapshot, db: Kysely<Database>, query: EventQuery): Promise<FeedOccurrences> {
  // Each layer seen through its every-date view (the views share the layer's columns but `dateDay`).
  const views: LayeredSnapshot = { ...layers, bases: layers.bases.map(everyDateView), delta: layers.delta && everyDateView(layers.delta) };
  const ownLayer = new Map<CalendarSnapshot, CalendarSnapshot>(layersOf(views).map((view, i) => [view, layersOf(layers)[i]!]));
  const layerOf = (view: CalendarSnapshot) => ownLayer.get(view)!;
  const feed = feedQuery(query);
  const matches = (mode: SearchMode) => layeredWordMatches(db, layers, query.searchWords, mode);
  const walk = (words: Awaited<ReturnType<typeof matches>>) =>
    findLayeredPage(views, { query: feed, page: 0, pageSize: MAX_FEED_OCCURRENCES, facets: [], wantsTotal: false }, words);
  let result = walk(await matches('literal'));
  if (query.searchWords.length > 0 && result.nodes.length === 0) {
    // The API's rule, "a literal match anywhere means no approximate matches", is decided on the
    // API's own result (which may match literally beyond the feed's window): asked for one node.
    const literal = await matches('literal');
    const api = findLayeredPage(layers, { query, page: 0, pageSize: 1, facets: [], wantsTotal: false }, literal);
    if (api.nodes.length === 0) result = walk(await matches('approximate'));
  }
  const nodes = result.nodes.map(({ snapshot, event, date }) => ({ snapshot: layerOf(snapshot), event, date }));
  // The dates' starts, ends, venues and marks are all in the snapshot: only the events are read (per layer).
  const records = new Map<CalendarSnapshot, Map<number, FeedEventRecord>>();
  await Promise.all(
    layersOf(layers).map(async (snapshot) => {
      const events = [...new Set(nodes.filter((n) => n.snapshot === snapshot).map((n) => n.event))];
      records.set(snapshot, await feedEventRecords(db, snapshot, events));
    }),
  );
  const categoriesOf = new Map<string, string[]>();
  const occurrences = nodes.map(({ snapshot, event, date }): FeedOccurrence => {
    const record = records.get(snapshot)?.get(event);
    // The statement read the snapshot's version: a missing record was changed outside an import.
    if (!record) throw new Error(`event ${snapshot.eventIds[event]} changed outside an import (data version ${snapshot.version})`);
    const { eventCategories, categoryIds, dateStart, dateEnds, dateVenue, dateFlags, venueIds } = snapshot;
    let categories = categoriesOf.get(record.id);
    if (!categories) {
      categories = [];
      for (let k = eventCategories.offsets[event]!; k < eventCategories.offsets[event + 1]!; k++) categories.push(categoryIds[eventCategories.values[k]!]!);
      categoriesOf.set(record.id, categories);
    }
    const venue = dateVenue[date]!;
    const flags = dateFlags[date]!;
    return {
      event: record,
      categoryIds: categories,
      // Epoch milliseconds read as float8: rounded back to the whole millisecond stored.
      start: new Date(Math.round(dateStart[date]!)),
      end: (flags & DATE_NO_END) !== 0 ? null : new Date(Math.round(dateEnds[date]!)),
      venueId: venue >= 0 ? venueIds[venue]! : null,
      cancelled: (flags & DATE_CANCELLED) !== 0,
    };
  });
  return { occurrences, capped: result.hasMore, catalogue: layers.catalogue };
}
