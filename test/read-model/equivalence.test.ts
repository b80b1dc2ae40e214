import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filter } from '../../generated/schema-types.js';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { generateDemoCalendar } from '../../src/demo/demo-calendar.js';
import { mulberry32 } from '../../src/demo/seeded-random.js';
import { buildEventQuery } from '../../src/domain/event-query.js';
import { parseDateArgument } from '../../src/domain/oslo-time.js';
import { searchWords } from '../../src/domain/search-term.js';
import { exportTimestamp } from '../../src/export/export-calendar.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { readDataVersion } from '../../src/db/repositories/calendar-state.js';
import { buildSuggestInput, type SuggestInput } from '../../src/domain/suggest-input.js';
import { createLogger } from '../../src/logger.js';
import { DATE_NO_END, eventIndexOf, isEventPublished, upcomingDatesOf, type CalendarSnapshot } from '../../src/read-model/snapshot/calendar-snapshot.js';
import { layeredWordMatches } from '../../src/read-model/calendar-reader.js';
import { findLayeredPage, type LayeredResultPage } from '../../src/read-model/layers/layered-result-page.js';
import { fullLayers, isFullBuild, layeredEventOf, type LayeredSnapshot } from '../../src/read-model/layers/layered-snapshot.js';
import { ReadModel } from '../../src/read-model/read-model.js';
import { metricsRegistry } from '../../src/telemetry/metrics.js';
import { changesInLog } from '../../src/read-model/snapshot/snapshot-change-log.js';
import { findLayeredSuggestions } from '../../src/read-model/typeahead/layered-suggestions.js';
import { findSuggestions } from '../../src/read-model/typeahead/suggestions.js';
import { eventRecordsAt } from '../../src/read-model/records/event-records.js';
import { everyNode } from '../../src/read-model/walk/every-node.js';
import { findResultPage } from '../../src/read-model/walk/find-result-page.js';
import { planWalk, type WalkStrategy } from '../../src/read-model/walk/plan-walk.js';
import type { FacetKind, ResultPage, ResultRequest } from '../../src/read-model/walk/result-page.js';
import { loadFullBuildSince, loadLayeredSnapshot, loadSegmentSince, loadSnapshot } from '../../src/read-model/snapshot/load-snapshot.js';
import { wordMatch, wordMatches } from '../../src/read-model/search/search-matches.js';
import { createGraphQLRunner, type GraphQLRunner } from '../support/graphql-runner.js';
import { referenceFacets, referenceNodes, referenceWhenWindow, type ReferenceFilter } from '../support/reference-events.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';

/*
 * The read model answers `events` from memory. Here its pages, totals and facets are compared with
 * a plain SQL statement of the same rules (test/support/reference-events.ts) over many random
 * filters, instants and page sizes, on the demo calendar (every shape of event it generates); then
 * every strategy of its planned walk (src/read-model/walk/, `planWalk`) with its full walk (`everyNode`).
 */

const TODAY = new Date('2026-06-01T10:00:00Z');
const DAY = 86_400_000;
const calendar = generateDemoCalendar({ events: 500, seed: 11, today: TODAY });

let database: DatabaseHandle;
let run: GraphQLRunner;
let clock = TODAY;

beforeAll(async () => {
  database = await createTestDatabase();
  await importCalendar(database, calendar);
  run = createGraphQLRunner(database, () => clock);
});
afterAll(async () => {
  await run?.close();
  await database?.close();
});

/** Seeded, so a failure names a case that can be run again. */
function randomSource(seed: number) {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  const some = <T>(items: readonly T[], most: number): T[] => [...new Set(Array.from({ length: int(1, most) }, () => pick(items)))];
  return { chance: (p: number) => next() < p, int, pick, some };
}

const PAGE = `query ($filter: Filter, $page: Int, $pageSize: Int) {
  events(filter: $filter, page: $page, pageSize: $pageSize) {
    totalCount hasMore
    data { id startDate distanceKm }
    venues { id hits } organizers { id hits } categories { id hits }
  }
}`;

/** Without totals or facets the read model walks dates in listing order and stops after the page (firstNodes). */
const PAGE_ONLY = `query ($filter: Filter, $page: Int, $pageSize: Int) {
  events(filter: $filter, page: $page, pageSize: $pageSize) { hasMore data { id startDate distanceKm } }
}`;

interface Answer {
  totalCount: number;
  hasMore: boolean;
  data: { id: string; startDate: string; distanceKm: number | null }[];
  venues: { id: string; hits: number }[];
  organizers: { id: string; hits: number }[];
  categories: { id: string; hits: number }[];
}

const oslo = (instant: Date) => instant.toISOString();
const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

describe(`read model (${databaseLabel}): the same answers as plain SQL`, () => {
  it('agrees on pages, totals and facets for random filters, instants and page sizes', async () => {
    const random = randomSource(20261125);
    const categoryIds = (calendar.categories ?? []).map((c) => c.id);
    const venueSlugs = (calendar.venues ?? []).map((v) => v.slug);
    const organizerSlugs = (calendar.organizers ?? []).map((o) => o.slug);
    const municipalities = [...new Set((calendar.venues ?? []).map((v) => v.municipality).filter((m): m is string => m != null))];
    const postalCodes = [...new Set((calendar.venues ?? []).map((v) => v.postalCode).filter((p): p is string => p != null))];
    const tags = [...new Set((calendar.events ?? []).flatMap((e) => e.tags ?? []))];
    const points = (calendar.venues ?? []).flatMap((v) => (v.location ? [v.location] : []));
    const presets = ['TODAY', 'TONIGHT', 'TOMORROW', 'THIS_WEEKEND', 'NEXT_7_DAYS', 'THIS_MONTH'] as const;
    const titleWords = [...new Set((calendar.events ?? []).flatMap((e) => searchWords(e.title_nb ?? '')).filter((w) => w.length >= 3))];
    let compared = 0;
    let nonEmpty = 0;
    let nearNonEmpty = 0;
    let whenNonEmpty = 0;

    for (let round = 0; round < 240; round++) {
      const now = new Date(TODAY.getTime() + random.int(0, 60 * 24) * 3_600_000 + random.int(0, 59) * 60_000);
      clock = now;
      const filter: Record<string, unknown> = {};
      const reference: ReferenceFilter = { now };
      // A preset stands for fromDate and untilDate (the two cannot be combined).
      const when = random.chance(0.25) ? random.pick(presets) : null;
      if (when) {
        filter['when'] = when;
        Object.assign(reference, await referenceWhenWindow(database.db, when, now));
      }
      if (!when && random.chance(0.5)) {
        // From ten days before now (a past fromDate never brings back what has ended) to three months after.
        const from = new Date(now.getTime() + random.int(-10 * 24, 90 * 24) * 3_600_000);
        filter['fromDate'] = oslo(from);
        reference.fromDate = from;
      }
      if (!when && random.chance(0.2)) {
        const until = new Date(now.getTime() + random.int(1, 60) * DAY);
        filter['untilDate'] = oslo(until);
        reference.untilDate = until;
      }
      if (random.chance(0.15)) {
        const fromStart = new Date(now.getTime() + random.int(-2, 30) * DAY);
        filter['fromStartDate'] = oslo(fromStart);
        reference.fromStartDate = fromStart;
      }
      if (random.chance(0.3)) filter['categories'] = reference.categories = random.some(categoryIds, 2);
      if (random.chance(0.15)) filter['notCategories'] = reference.notCategories = random.some(categoryIds, 2);
      if (random.chance(0.15)) filter['venues'] = reference.venues = random.some(venueSlugs, 3);
      if (random.chance(0.15)) filter['organizers'] = reference.organizers = random.some(organizerSlugs, 2);
      if (random.chance(0.15)) filter['tag'] = reference.tag = random.pick(tags);
      if (random.chance(0.1)) filter['mode'] = reference.mode = random.pick(['online', 'offline'] as const);
      if (random.chance(0.1)) filter['onlyFeatured'] = reference.onlyFeatured = true;
      if (random.chance(0.15)) filter['cancelledNotIncluded'] = reference.cancelledNotIncluded = true;
      if (random.chance(0.15)) filter['soldOutNotIncluded'] = reference.soldOutNotIncluded = true;
      if (random.chance(0.15)) {
        const start = random.int(0, 23);
        let end = random.int(0, 23);
        if (end === start) end = (start + 3) % 24;
        filter['hoursRange'] = `${hh(start)}-${hh(end)}`;
        reference.hours = { start: start * 60, end: end * 60 };
      }
      if (random.chance(0.15)) {
        const municipality = random.pick(municipalities);
        filter['municipality'] = random.chance(0.5) ? municipality.toUpperCase() : municipality;
        reference.municipality = municipality;
      }
      if (random.chance(0.1)) filter['postalCodes'] = reference.postalCodes = random.some(postalCodes, 3);
      if (random.chance(0.2)) {
        const word = random.pick(titleWords);
        filter['searchTerm'] = word;
        reference.words = [word];
      }
      if (random.chance(0.25)) filter['groupRepetitionsByDay'] = reference.groupByDay = true;
      if (random.chance(0.25)) {
        // Around a venue of the calendar, up to a km or so off, from a walk to a region.
        const point = random.pick(points);
        filter['near'] = reference.near = {
          latitude: point.latitude + random.int(-10, 10) / 1000,
          longitude: point.longitude + random.int(-10, 10) / 1000,
          radiusKm: random.pick([1, 3, 10, 30, 150, 600]),
        };
      }
      const page = random.chance(0.6) ? 0 : random.int(1, 4);
      const pageSize = random.pick([1, 3, 10, 20, 50]);

      const expectedNodes = await referenceNodes(database.db, reference);
      // The reference knows only literal matching; a search with no literal match turns approximate.
      if (reference.words && expectedNodes.length === 0) continue;
      const result = await run(PAGE, { filter, page, pageSize });
      const context = JSON.stringify({ round, now: now.toISOString(), filter, page, pageSize });
      expect(result.errors, context).toBeUndefined();
      const answer = (result.data as { events: Answer }).events;
      const expectedPage = expectedNodes.slice(page * pageSize, page * pageSize + pageSize);
      expect(
        answer.data.map((n) => [n.id, parseDateArgument(n.startDate)?.getTime()]),
        context,
      ).toEqual(expectedPage.map((n) => [n.eventId, n.startMs]));
      expect(
        answer.data.map((n) => n.distanceKm),
        context,
      ).toEqual(expectedPage.map((n) => (n.distanceKm === null ? null : Math.round(n.distanceKm * 100) / 100)));
      const pageOnly = await run(PAGE_ONLY, { filter, page, pageSize });
      expect(pageOnly.errors, context).toBeUndefined();
      const walked = (pageOnly.data as { events: Pick<Answer, 'hasMore' | 'data'> }).events;
      expect(walked, `${context} (no totals)`).toEqual({ hasMore: answer.hasMore, data: answer.data });
      expect(answer.totalCount, context).toBe(expectedNodes.length);
      expect(answer.hasMore, context).toBe(expectedNodes.length > (page + 1) * pageSize);
      const facets = await referenceFacets(database.db, expectedNodes);
      expect(answer.venues, context).toEqual(facets.venues);
      expect(answer.organizers, context).toEqual(facets.organizers);
      expect(answer.categories, context).toEqual(facets.categories);
      compared++;
      if (expectedNodes.length > 0) nonEmpty++;
      if (expectedNodes.length > 0 && reference.near) nearNonEmpty++;
      if (expectedNodes.length > 0 && when) whenNonEmpty++;
    }
    // The cases must mean something: most compared, many of them with results.
    expect(compared).toBeGreaterThan(120);
    expect(nonEmpty).toBeGreaterThan(60);
    expect(nearNonEmpty).toBeGreaterThan(12);
    expect(whenNonEmpty).toBeGreaterThan(12);
  });
});

describe(`read model (${databaseLabel}): every planned strategy gives the full walk's answer`, () => {
  it('agrees with the full walk on random filters drawn for each strategy', async () => {
    const snapshot = await loadSnapshot(database.db, TODAY);
    const random = randomSource(20261128);
    const categoryIds = (calendar.categories ?? []).map((c) => c.id);
    const venueSlugs = (calendar.venues ?? []).map((v) => v.slug);
    const organizerSlugs = (calendar.organizers ?? []).map((o) => o.slug);
    const municipalities = [...new Set((calendar.venues ?? []).map((v) => v.municipality).filter((m): m is string => m != null))];
    const tags = [...new Set((calendar.events ?? []).flatMap((e) => e.tags ?? []))];
    const points = (calendar.venues ?? []).flatMap((v) => (v.location ? [v.location] : []));
    const presets = ['TODAY', 'TONIGHT', 'TOMORROW', 'THIS_WEEKEND', 'NEXT_7_DAYS', 'THIS_MONTH'] as const;
    const titleWords = [...new Set((calendar.events ?? []).flatMap((e) => searchWords(e.title_nb ?? '')).filter((w) => w.length >= 3))];
    const allFacets: FacetKind[] = ['venues', 'organizers', 'categories'];

    // Dates without an end time (counted for three hours from their start), for the three-hour rule under one category.
    const noEnd = Array.from(snapshot.dateFlags.keys()).filter((d) => (snapshot.dateFlags[d]! & DATE_NO_END) !== 0);

    /** What each strategy met: answers with nodes, and the rules the cases must have exercised. */
    const seen = new Map<WalkStrategy, { cases: number; nonEmpty: number; grouped: number; words: number; promoted: number; promotedAcrossVenues: number; threeHours: number; unpublished: number }>();
    for (let round = 0; round < 1900; round++) {
      // Mostly within the first weeks (events unpublished at now exist then); hours and minutes vary.
      const now = new Date(TODAY.getTime() + random.int(0, random.chance(0.5) ? 24 * 3 : 24 * 40) * 3_600_000 + random.int(0, 59) * 60_000);
      const filter: Filter = {};
      // Each round leans to one kind of condition, so every strategy is drawn often.
      const lean = random.pick(['plain', 'window', 'venue', 'entity', 'single', 'other'] as const);
      if (lean !== 'window' && random.chance(0.6)) filter.fromDate = new Date(now.getTime() + random.int(-5 * 24, 60 * 24) * 3_600_000 + random.pick([0, -90, -150, -170]) * 60_000).toISOString();
      if (lean === 'window') {
        if (random.chance(0.6)) filter.when = random.pick(presets);
        else {
          filter.untilDate = new Date(now.getTime() + random.int(2, 24 * 20) * 3_600_000).toISOString();
          if (random.chance(0.5)) filter.fromDate = new Date(now.getTime() + random.int(0, 24) * 3_600_000 + random.pick([0, -90, -150, -170]) * 60_000).toISOString();
        }
        if (random.chance(0.3)) filter.fromStartDate = new Date(now.getTime() + random.int(-48, 24 * 5) * 3_600_000).toISOString();
      }
      if (lean === 'venue') {
        if (random.chance(0.6)) filter.venues = random.some(venueSlugs, 2);
        else if (random.chance(0.5)) filter.municipality = random.pick(municipalities);
        else {
          const point = random.pick(points);
          filter.near = { latitude: point.latitude, longitude: point.longitude, radiusKm: random.pick([0.5, 2, 600]) };
        }
      }
      if (lean === 'entity') {
        if (random.chance(0.6)) filter.categories = random.some(categoryIds, 2);
        else filter.organizers = random.some(organizerSlugs, 2);
        if (random.chance(0.2)) filter.organizerSlug = random.pick(organizerSlugs);
      }
      if (lean === 'single') {
        // One category, organizer or venue, nothing else (but fromDate): `entity-closed-form`.
        const which = random.pick(['category', 'organizer', 'venue'] as const);
        const started = noEnd.filter((d) => snapshot.dateStart[d]! > now.getTime());
        const open = started.length > 0 && random.chance(0.3) ? random.pick(started) : -1;
        const { offsets, values } = snapshot.eventCategories;
        const event = open >= 0 ? snapshot.dateEvent[open]! : -1;
        if (open >= 0 && offsets[event + 1]! > offsets[event]! && snapshot.categoryListed[values[offsets[event]!]!] === 1) {
          // From within its first three hours: started before the lower bound, not ended at it.
          filter.fromDate = new Date(snapshot.dateStart[open]! + random.int(10, 170) * 60_000).toISOString();
          filter.categories = [snapshot.categoryIds[values[offsets[event]!]!]!];
        } else if (which === 'category') filter.categories = [random.pick(categoryIds)];
        else if (which === 'organizer') {
          if (random.chance(0.5)) filter.organizers = [random.pick(organizerSlugs)];
          else filter.organizerSlug = random.pick(organizerSlugs);
        } else if (random.chance(0.5)) filter.venues = [random.pick(venueSlugs)];
        else filter.venueSlug = random.pick(venueSlugs);
      }
      if (lean !== 'plain' && lean !== 'single') {
        if (random.chance(0.15)) filter.notCategories = random.some(categoryIds, 2);
        if (random.chance(0.1)) filter.tag = random.pick(tags);
        if (random.chance(0.1)) filter.mode = random.pick(['online', 'offline']);
        if (random.chance(0.25)) filter.cancelledNotIncluded = true;
        if (random.chance(0.25)) filter.soldOutNotIncluded = true;
        if (random.chance(0.3)) filter.hoursRange = `${String(random.int(0, 23)).padStart(2, '0')}:00-${String(random.int(0, 23)).padStart(2, '0')}:30`;
        if (random.chance(0.3)) filter.searchTerm = random.pick(titleWords);
        if (random.chance(0.3)) filter.groupRepetitionsByDay = true;
      }
      if (lean === 'other' && random.chance(0.3)) filter.groupRepetitionsByDay = true;
      const built = buildEventQuery(filter, now);
      if (!built.ok) throw new Error(`invalid filter ${JSON.stringify(filter)}: ${built.invalidArgs.join(', ')}`);
      const q = built.query;
      const mode = random.chance(0.2) ? 'approximate' : 'literal';
      const words = await Promise.all(q.searchWords.map((word) => wordMatch(database.db, snapshot, word, mode)));
      const deep = random.chance(0.05);
      const request: ResultRequest = {
        query: q,
        words,
        page: deep ? random.int(4, 6) : random.chance(0.6) ? 0 : random.int(1, 4),
        pageSize: deep ? 1000 : random.pick([1, 3, 10, 20, 50]),
        facets: random.chance(0.7) ? allFacets : allFacets.filter(() => random.chance(0.5)),
        wantsTotal: true,
      };
      const context = JSON.stringify({ round, now: now.toISOString(), filter, mode, page: request.page, pageSize: request.pageSize, facets: request.facets });
      const plan = planWalk(snapshot, request);
      const planned = findResultPage(snapshot, request);
      const reference = everyNode(snapshot, request);
      expect(planned, context).toEqual(reference);
      // Without totals and facets: the first nodes alone, the same page.
      const pageOnly = findResultPage(snapshot, { ...request, facets: [], wantsTotal: false });
      expect({ nodes: pageOnly.nodes, hasMore: pageOnly.hasMore }, `${context} (page only)`).toEqual({ nodes: reference.nodes, hasMore: reference.hasMore });

      const tally = seen.get(plan.strategy) ?? { cases: 0, nonEmpty: 0, grouped: 0, words: 0, promoted: 0, promotedAcrossVenues: 0, threeHours: 0, unpublished: 0 };
      seen.set(plan.strategy, tally);
      tally.cases++;
      if ((reference.totalCount ?? 0) === 0) continue;
      tally.nonEmpty++;
      
      if (words.length > 0) tally.words++;
      const from = Math.max(q.from.getTime(), q.now.getTime());
      // Every node of the answer (not only the page's).
      const all = everyNode(snapshot, { ...request, page: 0, pageSize: reference.totalCount!, facets: [] }).nodes;
      if (q.groupByDay && all.some((n, k) => all.findIndex((m) => m.event === n.event) !== k)) tally.grouped++;
      for (const { event, date } of all) {
        // Promotion: a later date is the node, an earlier one that has not ended failing a condition (at another venue, another hour...).
        const firstAlive = snapshot.eventDateOffsets[event]! + [...snapshot.dateEnds.subarray(snapshot.eventDateOffsets[event], snapshot.eventDateOffsets[event + 1])].findIndex((end) => end > from);
        if (date !== firstAlive) tally.promoted++;
        if (date !== firstAlive && snapshot.dateVenue[firstAlive] !== snapshot.dateVenue[date]) tally.promotedAcrossVenues++;
        // The three-hour rule: a date without an end time, started before the lower bound, still counts.
        if ((snapshot.dateFlags[date]! & DATE_NO_END) !== 0 && snapshot.dateStart[date]! < from) tally.threeHours++;
      }
      if ((plan.strategy === 'closed-form' || plan.strategy === 'entity-closed-form') && plan.unpublished > 0) tally.unpublished++;
    }
    const summary = Object.fromEntries(seen);
    for (const strategy of ['closed-form', 'entity-closed-form', 'in-order', 'venue-runs', 'event-runs', 'full-walk'] as const) {
      expect(summary[strategy]?.nonEmpty ?? 0, `${strategy}: ${JSON.stringify(summary)}`).toBeGreaterThan(40);
    }
    // The subtle rules met by the strategies that do not visit every event.
    expect(summary['closed-form']!.threeHours, JSON.stringify(summary)).toBeGreaterThan(0);
    expect(summary['closed-form']!.unpublished, JSON.stringify(summary)).toBeGreaterThan(10);
    expect(summary['entity-closed-form']!.threeHours, JSON.stringify(summary)).toBeGreaterThan(0);
    expect(summary['entity-closed-form']!.unpublished, JSON.stringify(summary)).toBeGreaterThan(10);
    // Under a venue condition the node is the first date at the venue, not the event's first one.
    expect(summary['entity-closed-form']!.promotedAcrossVenues, JSON.stringify(summary)).toBeGreaterThan(3);
    expect(summary['in-order']!.threeHours, JSON.stringify(summary)).toBeGreaterThan(0);
    for (const strategy of ['in-order', 'venue-runs', 'event-runs'] as const) {
      expect(summary[strategy]!.grouped, `${strategy} grouped: ${JSON.stringify(summary)}`).toBeGreaterThan(3);
      expect(summary[strategy]!.words, `${strategy} search: ${JSON.stringify(summary)}`).toBeGreaterThan(3);
      expect(summary[strategy]!.promoted, `${strategy} promotion: ${JSON.stringify(summary)}`).toBeGreaterThan(3);
    }
    expect(summary['venue-runs']!.promotedAcrossVenues, JSON.stringify(summary)).toBeGreaterThan(3);
  });
});

type Random = ReturnType<typeof randomSource>;
const CHANGE_KINDS = ['add', 'edit', 'move', 'remove', 'rename', 'end', 'newcomer', 'feed'] as const;
type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * A calendar followed through random imports of issue 42's kinds (adds, edits, moves between venues and
 * categories, removals with --replace, renames of a venue, an organizer or a category, the service clock
 * moving on so that dates end) and issue 54's (an event at a new venue, with a new organizer, in a new
 * category; the whole feed again with a few events edited and others spelled otherwise), and random
 * filters over it, for the tests that compare a version so reached with a fresh full build.
 */
function followedCalendar(db: DatabaseHandle, start: ReturnType<typeof generateDemoCalendar>, random: Random, idPrefix: string) {
  const events = new Map((start.events ?? []).map((e) => [e.id, e]));
  const everId = new Set(events.keys());
  const venues = [...(start.venues ?? [])];
  const organizers = [...(start.organizers ?? [])];
  const categories = [...(start.categories ?? [])];
  const venueIds = venues.map((v) => v.id);
  const categoryIds = categories.map((c) => c.id);
  const organizerSlugs = organizers.map((o) => o.slug);
  const venueSlugs = venues.map((v) => v.slug);
  const tags = [...new Set([...events.values()].flatMap((e) => e.tags ?? []))];
  const titleWords = [...new Set([...events.values()].flatMap((e) => searchWords(e.title_nb ?? '')).filter((w) => w.length >= 3))];
  const shifted = (instant: string | null | undefined, hours: number) => (instant ? new Date(new Date(instant).getTime() + hours * 3_600_000).toISOString() : instant);
  const some = () => random.some([...events.values()].filter((e) => !e.isSuperEvent), 12);
  let added = 0;
  return {
    everId,
    venues,
    titleWords,
    /** What a typeahead is typed from: titles' words, and the catalogue's and the tags' labels. */
    labels: () => [
      ...titleWords,
      'endret',
      'ny',
      ...venues.map((v) => v.name),
      ...organizers.map((o) => o.name),
      ...categories.flatMap((c) => [c.name_nb, c.name_en]),
      ...tags,
    ],
    /** Every kind once in the first rounds, then at random. */
    kindOf: (round: number): ChangeKind => (round < CHANGE_KINDS.length ? CHANGE_KINDS[round]! : random.pick(CHANGE_KINDS)),
    /** Imports a change of that kind (or moves the clock on): the service clock after it. */
    async change(kind: ChangeKind, round: number, now: Date): Promise<Date> {
      if (kind === 'add') {
        const file = random.some([...events.values()], 8).map((e) => {
          const id = `${idPrefix}-${++added}`;
          const hours = random.int(-48, 24 * 20);
          return { ...e, id, slug: id.toLowerCase(), isSuperEvent: false, title_nb: `${e.title_nb ?? ''} ny`, dates: e.dates.map((d) => ({ ...d, start: shifted(d.start, hours)!, end: shifted(d.end, hours) ?? null })) };
        });
        for (const e of file) {
          events.set(e.id, e);
          everId.add(e.id);
        }
        await importCalendar(db, { events: file });
      } else if (kind === 'edit') {
        const file = some().map((e) => ({
          ...e,
          title_nb: `${e.title_nb ?? ''} endret ${round}`,
          tags: random.chance(0.5) ? [...new Set([...(e.tags ?? []), random.pick(tags)])] : [],
          featured: !e.featured,
          // Now and then published later: unpublished at some instants of the answers.
          ...(random.chance(0.3) ? { publishingDate: new Date(now.getTime() + random.int(1, 24 * 5) * 3_600_000).toISOString() } : {}),
          dates: e.dates.map((d) => ({ ...d, start: shifted(d.start, 1)!, end: shifted(d.end, 1) ?? null })),
        }));
        for (const e of file) events.set(e.id, e);
        await importCalendar(db, { events: file });
      } else if (kind === 'move') {
        const file = some().map((e) => ({ ...e, venue: random.pick(venueIds), categories: random.some(categoryIds, 2), dates: e.dates.map((d) => ({ ...d, venue: null })) }));
        for (const e of file) events.set(e.id, e);
        await importCalendar(db, { events: file });
      } else if (kind === 'remove') {
        for (const e of some()) events.delete(e.id);
        await importCalendar(db, { events: [...events.values()] }, { replace: true });
      } else if (kind === 'rename') {
        const what = random.pick(['venue', 'organizer', 'category'] as const);
        if (what === 'venue') {
          const venue = random.pick(venues);
          venue.name = `${venue.name} (ny)`;
          await importCalendar(db, { venues: [venue] });
        } else if (what === 'organizer') {
          const organizer = random.pick(organizers);
          organizer.name = `${organizer.name} (ny)`;
          await importCalendar(db, { organizers: [organizer] });
        } else {
          const at = random.int(0, categories.length - 1);
          const category = categories[at]!;
          categories[at] = { ...category, name_nb: `${category.name_nb} (ny)`, name_en: `${category.name_en} (new)` };
          // Categories are listed whole: their order in the file is their position.
          await importCalendar(db, { categories });
        }
      } else if (kind === 'newcomer') {
        // An event at a new venue, with a new organizer, in a new category (its name sorts among the others).
        const like = random.pick([...events.values()].filter((e) => !e.isSuperEvent));
        const venueId = `${idPrefix}-V${round}`;
        const venue = { ...random.pick(venues), id: venueId, slug: venueId.toLowerCase(), name: `${random.pick(['Ny', 'Annen', 'Siste'])} scene ${round}` };
        const organizerId = `${idPrefix}-O${round}`;
        const organizer = { ...random.pick(organizers), id: organizerId, slug: organizerId.toLowerCase(), name: `${random.pick(['Ny', 'Berg', 'Ås'])} arrangør ${round}` };
        const categoryId = `${idPrefix}-C${round}`;
        categories.push({ ...categories[0]!, id: categoryId, name_nb: `Ny kategori ${round}`, name_en: `New category ${round}`, slug_nb: `ny-${round}`, slug_en: `new-${round}`, parent: null });
        venues.push(venue);
        venueIds.push(venueId);
        venueSlugs.push(venue.slug);
        organizers.push(organizer);
        organizerSlugs.push(organizer.slug);
        categoryIds.push(categoryId);
        const id = `${idPrefix}-${++added}`;
        const hours = random.int(-24, 24 * 10);
        const event = {
          ...like,
          id,
          slug: id.toLowerCase(),
          title_nb: `${like.title_nb ?? ''} ny`,
          venue: venueId,
          organizers: [organizerId],
          categories: [categoryId],
          dates: like.dates.map((d) => ({ ...d, venue: null, start: shifted(d.start, hours)!, end: shifted(d.end, hours) ?? null })),
        };
        events.set(id, event);
        everId.add(id);
        await importCalendar(db, { categories, venues: [venue], organizers: [organizer], events: [event] });
      } else if (kind === 'feed') {
        // The whole feed again (--replace), as a nightly importer sends it: a few events edited, others spelled
        // otherwise (the same instants in Oslo time, a date's venue given as the event's): only the edited change.
        const edited = some().slice(0, 3);
        for (const e of edited) events.set(e.id, { ...e, title_nb: `${e.title_nb ?? ''} feed ${round}` });
        const respelled = (e: (typeof start.events & {})[number]) => ({
          ...e,
          dates: e.dates.map((d) => ({ ...d, start: exportTimestamp(new Date(d.start)), end: d.end ? exportTimestamp(new Date(d.end)) : d.end, venue: d.venue ?? e.venue ?? null })),
        });
        const summary = await importCalendar(db, { events: [...events.values()].map((e) => (random.chance(0.3) ? respelled(e) : e)) }, { replace: true });
        expect(summary, `round ${round}: the whole feed again`).toMatchObject({ changedEvents: edited.length, addedEvents: 0, removedEvents: 0, unchangedEvents: events.size - edited.length });
      } else {
        // The service clock moves on: dates end (a snapshot built before keeps them; no answer shows them).
        return new Date(now.getTime() + random.int(6, 72) * 3_600_000);
      }
      return now;
    },
    /** A filter leaning to one kind of condition, so that every strategy is drawn often. */
    filter(at: Date): Filter {
      const filter: Filter = {};
      const lean = random.pick(['plain', 'window', 'venue', 'entity', 'single', 'other'] as const);
      if (lean !== 'window' && random.chance(0.5)) filter.fromDate = new Date(at.getTime() + random.int(-48, 24 * 30) * 3_600_000).toISOString();
      if (lean === 'window') filter.untilDate = new Date(at.getTime() + random.int(2, 24 * 20) * 3_600_000).toISOString();
      if (lean === 'venue') filter.venues = random.some(venueSlugs, 2);
      if (lean === 'entity') filter.categories = random.some(categoryIds, 2);
      if (lean === 'single') {
        if (random.chance(0.5)) filter.categories = [random.pick(categoryIds)];
        else filter.organizers = [random.pick(organizerSlugs)];
      }
      if (lean !== 'plain' && lean !== 'single') {
        if (random.chance(0.2)) filter.tag = random.pick(tags);
        if (random.chance(0.25)) filter.cancelledNotIncluded = true;
        if (random.chance(0.3)) filter.searchTerm = random.pick(titleWords);
        if (random.chance(0.3)) filter.groupRepetitionsByDay = true;
      }
      return filter;
    },
  };
}

/** A typeahead answer as lines `kind identity hits label` (identity: the entity's id, the tag, the event's id; label: a catalogue entity's name as shown). */
function suggestionLines(found: readonly { kind: string; entity: number; hits: number; snapshot: CalendarSnapshot }[]): string[] {
  return found.map(({ kind, entity, hits, snapshot }) => {
    const { catalogue, suggestions } = snapshot;
    const [key, label] =
      kind === 'VENUE'
        ? [catalogue.venuesByName[entity]!.id, catalogue.venuesByName[entity]!.name]
        : kind === 'ORGANIZER'
          ? [catalogue.organizersByName[entity]!.id, catalogue.organizersByName[entity]!.name]
          : kind === 'CATEGORY'
            ? [catalogue.categories[entity]!.id, catalogue.categories[entity]!.name_nb]
            : kind === 'TAG'
              ? [suggestions.tagNames[entity]!, '']
              : [snapshot.eventIds[entity]!, ''];
    return `${kind} ${key} ${hits} ${label}`;
  });
}

/** Typeahead answered from the layers of a version, as the reader answers it (both search phases of the filter's searchTerm read first). */
async function suggestedOnLayers(db: DatabaseHandle, layers: LayeredSnapshot, input: SuggestInput): Promise<string[]> {
  const words = input.queries.filter.searchWords;
  const literal = await layeredWordMatches(db.db, layers, words, 'literal');
  const approximate = words.length > 0 ? await layeredWordMatches(db.db, layers, words, 'approximate') : null;
  const labelsOf = (snapshot: CalendarSnapshot, events: readonly number[]) => eventRecordsAt(db.db, snapshot, events, ['id', 'slug', 'title_nb', 'title_en']);
  const found = await findLayeredSuggestions(layers, { queries: input.queries, words: input.words, limit: input.limit }, { literal, approximate }, labelsOf);
  return suggestionLines(found);
}

/** Typeahead answered by a full build. */
async function suggestedOnFull(db: DatabaseHandle, snapshot: CalendarSnapshot, input: SuggestInput): Promise<string[]> {
  const words = input.queries.filter.searchWords;
  const literal = await wordMatches(db.db, snapshot, words, 'literal');
  const approximate = words.length > 0 ? await wordMatches(db.db, snapshot, words, 'approximate') : null;
  const found = findSuggestions(snapshot, { queries: input.queries, words: input.words, limit: input.limit, literal, approximate });
  return suggestionLines(found.map((f) => ({ ...f, snapshot })));
}

const WHEN_PRESETS = ['TODAY', 'TONIGHT', 'TOMORROW', 'THIS_WEEKEND', 'NEXT_7_DAYS', 'THIS_MONTH'] as const;

/** A typeahead prefix as people type one: a label's start, now and then two words or a typo. */
function typedPrefix(random: Random, labels: readonly string[]): string {
  const start = (label: string) => label.slice(0, random.int(1, 7));
  let prefix = start(random.pick(labels));
  if (random.chance(0.2)) prefix = `${prefix} ${start(random.pick(labels))}`;
  if (random.chance(0.15) && prefix.length >= 5) {
    const at = random.int(1, prefix.length - 2);
    prefix = `${prefix.slice(0, at)}x${prefix.slice(at + 1)}`;
  }
  return prefix.trim() === '' ? 'a' : prefix;
}

function eventQueryOf(filter: Filter, at: Date) {
  const built = buildEventQuery(filter, at);
  if (!built.ok) throw new Error(`invalid filter ${JSON.stringify(filter)}: ${built.invalidArgs.join(', ')}`);
  return built.query;
}

/** A page by ids (event and date numbers are a snapshot's own). */
const pageIds = (snapshot: CalendarSnapshot, page: ResultPage) => ({ ...page, nodes: page.nodes.map(({ event, date }) => `${snapshot.eventIds[event]} ${snapshot.dateId[date]}`) });
/** `changes`' data phase: every logged id of every version, tombstones included. */
const logged = (log: CalendarSnapshot['changeLog'], version: string) => changesInLog(log, { from: 0, to: Number(version), after: null, live: false, limit: 1_000_000 });


/*
 * Issue 42: a node follows imports version after version (today by a full build each; the layered
 * versions are followed by the next describe). Whatever way it took, every
 * answer of the version it serves must be the answer of a fresh full build of that version: pages,
 * totals and facets of every strategy, typeahead and the change log, compared by ids (event and date
 * numbers are a snapshot's own).
 */
describe(`read model (${databaseLabel}): a version reached through random imports answers as a fresh full build`, () => {
  it.each([
    { layered: false, seed: 20261203, segmentEvents: null },
    { layered: true, seed: 20261205, segmentEvents: null },
    { layered: true, seed: 20261208, segmentEvents: 30 },
  ])('agrees after adds, edits, moves, removals, catalogue renames and newcomers, whole feeds and dates ending (layered: $layered, segments of $segmentEvents)', async ({ layered, seed, segmentEvents }) => {
    const db = await createTestDatabase();
    const random = randomSource(seed);
    const start = generateDemoCalendar({ events: 160, seed: 5, today: TODAY });
    await importCalendar(db, start);
    let now = TODAY;
    // In segments, compactions (one segment at a time, in the background) start after 4 changed events.
    const model = new ReadModel({ db: db.db, clock: () => now, logger: createLogger('silent'), pollIntervalMs: 60_000, layered, segmentEvents, ...(segmentEvents === null ? {} : { deltaMostEvents: 4 }) });
    try {
      await model.start();
      const calendar = followedCalendar(db, start, random, 'INC');
      const allFacets: FacetKind[] = ['venues', 'organizers', 'categories'];
      const ops = new Map<string, number>();
      const strategies = new Map<WalkStrategy, number>();
      let deltas = 0;
      const segmentBuilds = async () =>
        (await metricsRegistry.getSingleMetric('calendar_read_model_builds_total')!.get()).values.filter((v) => v.labels['kind'] === 'segment').reduce((sum, v) => sum + v.value, 0);
      const segmentBuildsBefore = await segmentBuilds();

      for (let round = 0; round < 16; round++) {
        const kind = calendar.kindOf(round);
        ops.set(kind, (ops.get(kind) ?? 0) + 1);
        now = await calendar.change(kind, round, now);

        const version = (await readDataVersion(db.db))!;
        model.require(version);
        const layers = await model.snapshot();
        expect(layers.version).toBe(version);
        if (!layered) expect(isFullBuild(layers)).toBe(true);
        // In segments of at most 30 events: the demo's ~160 in 4 or 8 (a power of two).
        if (segmentEvents === null) expect(layers.full.segments.length).toBe(1);
        else expect(layers.full.segments.length).toBeGreaterThanOrEqual(4);
        if (layers.delta) deltas++;
        const fresh = await loadSnapshot(db.db, now);
        expect(fresh.version).toBe(version);

        for (let k = 0; k < 120; k++) {
          const at = new Date(now.getTime() + random.int(0, 24 * 10) * 3_600_000);
          const filter = calendar.filter(at);
          const q = eventQueryOf(filter, at);
          const onServed = { query: q, page: random.chance(0.7) ? 0 : 2, pageSize: 7, facets: allFacets, wantsTotal: true };
          const words = await layeredWordMatches(db.db, layers, q.searchWords, 'literal');
          const onFresh: ResultRequest = { ...onServed, words: await wordMatches(db.db, fresh, q.searchWords, 'literal') };
          const context = JSON.stringify({ round, kind, at: at.toISOString(), filter, page: onServed.page });
          const layeredAnswer = findLayeredPage(layers, onServed, words);
          const answer = { ...layeredAnswer, nodes: layeredAnswer.nodes.map(({ snapshot, event, date }) => `${snapshot.eventIds[event]} ${snapshot.dateId[date]}`) };
          expect(answer, context).toEqual(pageIds(fresh, findResultPage(fresh, onFresh)));
          expect(answer, `${context} (the fresh build's full walk)`).toEqual(pageIds(fresh, everyNode(fresh, onFresh)));
          if ((answer.totalCount ?? 0) > 0) {
            const strategy = planWalk(layers.bases[0]!, { ...onServed, words: words.bases[0]! }).strategy;
            strategies.set(strategy, (strategies.get(strategy) ?? 0) + 1);
          }
          // Typeahead, with the same filter's events-level part.
          const prefix = random.pick([...calendar.titleWords, ...calendar.venues.map((v) => v.name)]).slice(0, random.int(1, 4));
          const input = buildSuggestInput(prefix, { categories: filter.categories, venues: filter.venues, fromDate: filter.fromDate }, 10, at);
          if (!input.ok) throw new Error(`invalid suggest ${prefix}: ${input.invalidArgs.join(', ')}`);
          const suggested = (snapshot: CalendarSnapshot) =>
            suggestionLines(
              findSuggestions(snapshot, { queries: input.input.queries, words: input.input.words, limit: input.input.limit, literal: [], approximate: null }).map((found) => ({ ...found, snapshot })),
            );
          // Layered or not: the layers' own answer (no full build of the version on the way).
          expect(await suggestedOnLayers(db, layers, input.input), `${context} suggest ${JSON.stringify(prefix)}`).toEqual(suggested(fresh));
        }
        expect(logged(layers.changeLog, version), `round ${round} (${kind}): the change log`).toEqual(logged(fresh.changeLog, version));
      }
      if (layered) expect(deltas).toBeGreaterThan(5);
      // In segments, compactions one segment at a time ran meanwhile (segments of different versions are the next describe's).
      if (segmentEvents !== null) expect((await segmentBuilds()) - segmentBuildsBefore).toBeGreaterThan(8);
      expect(Object.fromEntries(ops)).toMatchObject({ add: expect.any(Number), edit: expect.any(Number), move: expect.any(Number), remove: expect.any(Number), rename: expect.any(Number), end: expect.any(Number), newcomer: expect.any(Number), feed: expect.any(Number) });
      for (const strategy of ['closed-form', 'entity-closed-form', 'in-order', 'venue-runs', 'event-runs', 'full-walk'] as const) {
        expect(strategies.get(strategy) ?? 0, `${strategy}: ${JSON.stringify(Object.fromEntries(strategies))}`).toBeGreaterThan(5);
      }
    } finally {
      await model.close();
      await db.close();
    }
  });
});

/*
 * Issue 42, the layered snapshot: versions applied as layers over the last full build (base, mask of
 * the events changed or removed since, delta of their current records: layered-snapshot.ts), a catalogue
 * change falling back to a full build. Every answer of the layers must be a fresh full build's of the
 * same version: pages at several depths, totals and facets of every strategy planned on either layer,
 * both search phases, the page alone (no total), an event's next date by id (eventByID, `changes`,
 * feeds' records) and the change log.
 */
describe(`read model (${databaseLabel}): a layered version answers as a fresh full build`, () => {
  // Over one full build, and over one in segments (at most 30 events each: the demo's ~160 in 4 or 8).
  it.each([
    { segmentEvents: null, seed: 20261204 },
    { segmentEvents: 30, seed: 20261209 },
  ])('agrees after adds, edits, moves, removals, catalogue renames and newcomers, whole feeds and dates ending (segments of $segmentEvents)', async ({ segmentEvents, seed }) => {
    const db = await createTestDatabase();
    const random = randomSource(seed);
    const start = generateDemoCalendar({ events: 160, seed: 7, today: TODAY });
    await importCalendar(db, start);
    let now = TODAY;
    try {
      const fullBuild = async () => fullLayers((await loadFullBuildSince(db.db, now, null, segmentEvents)).full);
      let layers = await fullBuild();
      if (segmentEvents === null) expect(layers.full.segments.length).toBe(1);
      else expect(layers.full.segments.length).toBeGreaterThanOrEqual(4);
      const calendar = followedCalendar(db, start, random, 'LAY');
      const allFacets: FacetKind[] = ['venues', 'organizers', 'categories'];
      const strategies = new Map<string, number>();
      const found = new Map<string, number>();
      let layeredRounds = 0;
      let catalogueLayered = 0;
      let maskedMost = 0;
      let suggestedAny = 0;
      let suggestedEvents = 0;
      // Its own draws, so that the other cases stay the ones they were.
      const deepRandom = randomSource(20261206);
      const deepPages = new Map<string, number>();
      const stepRandom = randomSource(20261210);
      let mixedVersions = 0;

      for (let round = 0; round < 16; round++) {
        const kind = calendar.kindOf(round);
        // In segments, now and then a compaction's step before the import: one segment read again at the
        // version of then, so that the next versions layer over segments read at different versions, catalogues and clocks.
        if (segmentEvents !== null && stepRandom.chance(0.6)) {
          const index = stepRandom.int(0, layers.full.segments.length - 1);
          layers = fullLayers(await loadSegmentSince(db.db, now, layers.full, index, layers));
        }
        now = await calendar.change(kind, round, now);
        const version = (await readDataVersion(db.db))!;
        const next = await loadLayeredSnapshot(db.db, layers);
        if ('fallback' in next) {
          // A catalogue change: the layers cannot share it; a full build (compaction) at the service clock.
          // Only a category relabelled falls back (catalogue-changes.ts): new and renamed venues and organizers are layered.
          expect(kind, `round ${round}: fell back (${next.fallback})`).toBe('rename');
          layers = await fullBuild();
        } else {
          layers = next.layered;
          if (layers.delta) layeredRounds++;
          if (layers.staleInBases.some((stale) => stale !== null)) catalogueLayered++;
          maskedMost = Math.max(maskedMost, layers.masked);
          if (new Set(layers.full.segments.map((segment) => segment.version)).size > 1) mixedVersions++;
        }
        expect(layers.version).toBe(version);
        const fresh = await loadSnapshot(db.db, now);
        expect(fresh.version).toBe(version);

        const layeredIds = (page: LayeredResultPage) => ({ ...page, nodes: page.nodes.map(({ snapshot, event, date }) => `${snapshot.eventIds[event]} ${snapshot.dateId[date]}`) });
        for (let k = 0; k < 120; k++) {
          const at = new Date(now.getTime() + random.int(0, 24 * 10) * 3_600_000);
          const filter = calendar.filter(at);
          const q = eventQueryOf(filter, at);
          const mode = random.chance(0.2) ? 'approximate' : 'literal';
          const counted = random.chance(0.8);
          const shape = {
            page: random.chance(0.6) ? 0 : random.int(1, 5),
            pageSize: random.pick([1, 3, 7, 20]),
            facets: counted ? allFacets.filter(() => random.chance(0.8)) : [],
            wantsTotal: counted,
          };
          const onLayers = { query: q, ...shape };
          const words = await layeredWordMatches(db.db, layers, q.searchWords, mode);
          const onFresh: ResultRequest = { ...onLayers, words: await wordMatches(db.db, fresh, q.searchWords, mode) };
          const context = JSON.stringify({ round, kind, at: at.toISOString(), filter, mode, ...shape });
          const expected = pageIds(fresh, findResultPage(fresh, onFresh));
          expect(layeredIds(findLayeredPage(layers, onLayers, words)), context).toEqual(expected);
          // Deep pages, their start drawn near the delta's nodes in the fresh build's listing (or anywhere
          // in it): the base is asked from page · pageSize less the delta's nodes, so a page one node off
          // there, or a node of either layer misplaced, shows here.
          const delta = layers.delta;
          if (delta && (expected.totalCount ?? 0) > 0) {
            const listing = pageIds(fresh, everyNode(fresh, { ...onFresh, page: 0, pageSize: expected.totalCount! + 1, facets: [] })).nodes;
            const fromDelta = listing.flatMap((node, position) => (eventIndexOf(delta, node.split(' ')[0]!) >= 0 ? [position] : []));
            const pageSize = deepRandom.pick([1, 2, 3, 5, 8]);
            const start = fromDelta.length > 0 && deepRandom.chance(0.7) ? deepRandom.pick(fromDelta) + deepRandom.int(-pageSize - 2, 2) : deepRandom.int(0, listing.length + 2);
            const deep = { ...shape, page: Math.floor(Math.max(0, start) / pageSize), pageSize };
            const deepContext = `${context} deep ${JSON.stringify(deep)}`;
            const deepExpected = pageIds(fresh, findResultPage(fresh, { ...onFresh, ...deep }));
            expect(layeredIds(findLayeredPage(layers, { ...onLayers, ...deep }, words)), deepContext).toEqual(deepExpected);
            const before = fromDelta.filter((position) => position < deep.page * pageSize).length;
            if (before > 0 && deepExpected.nodes.length > 0) deepPages.set('delta nodes before', (deepPages.get('delta nodes before') ?? 0) + 1);
            if (deepExpected.nodes.some((node) => eventIndexOf(delta, node.split(' ')[0]!) >= 0)) deepPages.set('delta nodes in page', (deepPages.get('delta nodes in page') ?? 0) + 1);
            if (deep.page >= 20) deepPages.set('page 20 or more', (deepPages.get('page 20 or more') ?? 0) + 1);
          }
          // The full walk always counts: the same page, and the same total when one was asked.
          const walked = pageIds(fresh, everyNode(fresh, onFresh));
          if (counted) expect(expected, `${context} (the fresh build's full walk)`).toEqual(walked);
          else expect({ nodes: expected.nodes, hasMore: expected.hasMore }, `${context} (the fresh build's full walk)`).toEqual({ nodes: walked.nodes, hasMore: walked.hasMore });
          if (counted && (expected.totalCount ?? 0) > 0) {
            const asked = [...layers.bases.map((base, i) => ['base', base, words.bases[i]!] as const), ...(layers.delta ? [['delta', layers.delta, words.delta] as const] : [])];
            for (const [layer, snapshot, layerWords] of asked) {
              const strategy = `${layer} ${planWalk(snapshot, { ...onLayers, words: layerWords }).strategy}`;
              strategies.set(strategy, (strategies.get(strategy) ?? 0) + 1);
            }
          }
        }
        // An event by id (eventByID, `changes`, the feeds' records): its next date that has not ended, when published.
        for (let k = 0; k < 4; k++) {
          const at = new Date(now.getTime() + random.int(0, 24 * 10) * 3_600_000).getTime();
          const nextDate = (snapshot: CalendarSnapshot | undefined, event: number) => {
            if (!snapshot || event < 0 || !isEventPublished(snapshot, event, at)) return null;
            const [date] = upcomingDatesOf(snapshot, event, at);
            // The venue by id: each layer numbers venues its own way once the catalogue changed.
            const venue = date === undefined ? -1 : snapshot.dateVenue[date]!;
            return date === undefined ? null : `${snapshot.dateId[date]} ${snapshot.dateStart[date]} ${venue >= 0 ? snapshot.venueIds[venue] : 'none'}`;
          };
          for (const id of calendar.everId) {
            const where = layeredEventOf(layers, id);
            const got = nextDate(where?.snapshot, where?.event ?? -1);
            expect(got, `round ${round} (${kind}): event ${id} at ${new Date(at).toISOString()}`).toEqual(nextDate(fresh, eventIndexOf(fresh, id)));
            const layer = got === null ? 'none' : where!.snapshot === layers.delta ? 'delta' : 'base';
            found.set(layer, (found.get(layer) ?? 0) + 1);
          }
        }
        // Typeahead from the layers themselves: many prefixes, with and without filters (`when`, searchTerm), several limits.
        const labels = calendar.labels();
        for (let k = 0; k < 60; k++) {
          const at = new Date(now.getTime() + random.int(0, 24 * 10) * 3_600_000);
          const prefix = typedPrefix(random, labels);
          const limit = random.pick([1, 3, 5, 10]);
          let filter: Filter | null = random.chance(0.25) ? null : calendar.filter(at);
          if (filter && random.chance(0.3)) filter = { ...filter, fromDate: null, untilDate: null, when: random.pick(WHEN_PRESETS) };
          // Words only the changed events hold (mostly the delta's), literally or with a typo: the filter's search phase decided across layers.
          if (random.chance(0.15)) filter = { ...filter, searchTerm: random.pick(['endret', 'ny', 'endrte']) };
          const input = buildSuggestInput(prefix, filter, limit, at);
          if (!input.ok) throw new Error(`invalid suggest ${prefix} ${JSON.stringify(filter)}: ${input.invalidArgs.join(', ')}`);
          const expected = await suggestedOnFull(db, fresh, input.input);
          const context = `round ${round} (${kind}): suggest ${JSON.stringify({ prefix, filter, limit, at: at.toISOString() })}`;
          expect(await suggestedOnLayers(db, layers, input.input), context).toEqual(expected);
          if (expected.length > 0) suggestedAny++;
          if (expected.some((line) => line.startsWith('EVENT'))) suggestedEvents++;
        }
        expect(logged(layers.changeLog, version), `round ${round} (${kind}): the change log`).toEqual(logged(fresh.changeLog, version));
      }
      expect(suggestedAny).toBeGreaterThan(300);
      expect(suggestedEvents).toBeGreaterThan(100);
      expect(layeredRounds).toBeGreaterThan(8);
      if (segmentEvents !== null) expect(mixedVersions).toBeGreaterThan(5);
      for (const kind of ['delta nodes before', 'delta nodes in page', 'page 20 or more']) expect(deepPages.get(kind) ?? 0, `${kind}: ${JSON.stringify(Object.fromEntries(deepPages))}`).toBeGreaterThan(50);
      // Versions whose catalogue changed since the full build (new or renamed venues and organizers), layered.
      expect(catalogueLayered).toBeGreaterThan(3);
      expect(maskedMost).toBeGreaterThan(10);
      expect(found.get('delta') ?? 0).toBeGreaterThan(20);
      for (const strategy of ['closed-form', 'entity-closed-form', 'in-order', 'venue-runs', 'event-runs', 'full-walk']) {
        expect(strategies.get(`base ${strategy}`) ?? 0, `base ${strategy}: ${JSON.stringify(Object.fromEntries(strategies))}`).toBeGreaterThan(3);
      }
    } finally {
      await db.close();
    }
  });
});
