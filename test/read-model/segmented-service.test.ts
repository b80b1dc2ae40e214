import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { readDataVersion } from '../../src/db/repositories/calendar-state.js';
import { generateDemoCalendar } from '../../src/demo/demo-calendar.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { collectedLog } from '../support/collected-log.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';

const NOW = new Date('2026-06-01T12:00:00+02:00');
const DAY = 86_400_000;

/*
 * Issue 54: a full build in segments (READ_MODEL_SEGMENT_EVENTS: the events split by a hash of their id,
 * one snapshot each). Two services over one database, one in segments of at most 40 events, the other one
 * snapshot: every answer of the public API is the same, byte for byte, before and after an import that
 * edits events, adds a venue and an organizer with an event, and removes one.
 */
describe(`read model (${databaseLabel}): a full build in segments answers as one snapshot`, () => {
  let database: DatabaseHandle;
  let whole: TestServer;
  let segmented: TestServer;
  const log = collectedLog();
  const builds = () => log.lines.filter((line) => line['msg'] === 'read model built');
  const calendar = generateDemoCalendar({ events: 400, seed: 23, today: NOW });
  beforeAll(async () => {
    database = await createTestDatabase();
    await importCalendar(database, calendar);
    whole = await startTestServer({ database, clock: () => NOW });
    segmented = await startTestServer({ database, clock: () => NOW, logger: log.logger, env: { READ_MODEL_SEGMENT_EVENTS: '40' } });
  });
  afterAll(async () => {
    await whole?.close();
    await segmented?.close();
    await database?.close();
  });

  const venue = calendar.venues![0]!;
  const organizer = calendar.organizers![0]!;
  const category = calendar.categories![0]!;
  const event = calendar.events![7]!;
  const eventFields = 'id title_nb startDate endDate categories venue { slug } repetitions { startDate }';
  const pageFields = `totalCount hasMore pageInfo { currentPage totalPages } data { ${eventFields} } venues { id hits } organizers { id hits } categories { id hits }`;
  const operations: Record<string, string> = {
    'first page, every facet': `{ events(pageSize: 20) { ${pageFields} } }`,
    'a deep page': `{ events(page: 9, pageSize: 25) { ${pageFields} } }`,
    'past the end': `{ events(page: 400, pageSize: 25) { ${pageFields} } }`,
    'by category, grouped by day': `{ events(filter: { categories: ["${category.id}"], groupRepetitionsByDay: true }, page: 1, pageSize: 7) { ${pageFields} } }`,
    'by venue': `{ events(filter: { venues: ["${venue.id}"] }, pageSize: 50) { ${pageFields} } }`,
    'by organizer': `{ events(filter: { organizerSlug: "${organizer.slug}" }, pageSize: 10) { ${pageFields} } }`,
    'a window of dates': `{ events(filter: { fromStartDate: "${new Date(NOW.getTime() + 5 * DAY).toISOString()}", untilDate: "${new Date(NOW.getTime() + 40 * DAY).toISOString()}" }, page: 2, pageSize: 15) { ${pageFields} } }`,
    'a search, literal': `{ events(filter: { searchTerm: "konsert" }, pageSize: 12) { ${pageFields} } }`,
    'a search, approximate': `{ events(filter: { searchTerm: "konsrt" }, pageSize: 12) { ${pageFields} } }`,
    'the page alone': `{ events(page: 3, pageSize: 30) { data { id startDate } } }`,
    'one event': `{ eventByID(eventID: "${event.id}") { ${eventFields} } }`,
    'events by slug': `{ eventsBySlugs(eventsSlugs: ["${calendar.events![3]!.slug}", "${calendar.events![200]!.slug}"]) { id startDate } }`,
    'typeahead': `{ suggest(prefix: "k", limit: 10) { kind value hits } }`,
    'typeahead under a filter': `{ suggest(prefix: "${venue.name.slice(0, 2)}", filter: { categories: ["${category.id}"] }, limit: 10) { kind value hits } }`,
    'an area': `{ allUpcomingEventsInArea(minLatitude: 58, maxLatitude: 72, minLongitude: 4, maxLongitude: 32) { id startDate } }`,
    'super events': `{ allUpcomingSuperEvents { id startDate } }`,
    'a full sync': `{ changes(pageSize: 1000) { changed { id startDate } removedIds hasMore } }`,
  };

  /** Every operation on both services (each waiting for the version first): the answers side by side. */
  async function answersOf(): Promise<{ whole: Record<string, unknown>; segmented: Record<string, unknown> }> {
    const answers = { whole: {} as Record<string, unknown>, segmented: {} as Record<string, unknown> };
    for (const [name, query] of Object.entries(operations)) {
      for (const [side, server] of [['whole', whole], ['segmented', segmented]] as const) {
        const response = await postGraphQL(server.url, { query });
        expect(response.status, `${side}: ${name}`).toBe(200);
        expect((response.body as { errors?: unknown }).errors, `${side}: ${name}`).toBeUndefined();
        answers[side][name] = response.body;
      }
    }
    for (const [side, server] of [['whole', whole], ['segmented', segmented]] as const) {
      const feed = await fetch(`${server.origin}/events.ics?categories=${category.id}`);
      answers[side]['the calendar feed'] = (await feed.text()).replace(/^DTSTAMP:.*$/gm, '');
    }
    return answers;
  }

  it('answers every query as the one snapshot does, before and after an import', async () => {
    const before = await answersOf();
    // The demo's ~400 events in segments of at most 40: 16 (a power of two), built one after another.
    expect(builds()[0]).toMatchObject({ kind: 'full', reason: 'start', segments: 16 });
    expect(before.segmented).toEqual(before.whole);
    // The answers hold what they compare: pages, facets, typeahead and the feed.
    const first = before.whole['first page, every facet'] as { data: { events: { totalCount: number; venues: unknown[] } } };
    expect(first.data.events.totalCount).toBeGreaterThan(300);
    expect(first.data.events.venues.length).toBeGreaterThan(3);
    expect((before.whole['typeahead'] as { data: { suggest: unknown[] } }).data.suggest.length).toBeGreaterThan(0);
    expect(before.whole['the calendar feed']).toContain('BEGIN:VEVENT');

    // An import: two events edited (one moved a week later), a new venue and organizer with an event, one event removed.
    const edited = calendar.events!.slice(10, 12).map((e, i) => ({
      ...e,
      title_nb: `${e.title_nb ?? ''} (endret)`,
      dates: i === 0 ? e.dates.map((d) => ({ ...d, start: new Date(new Date(d.start).getTime() + 7 * DAY).toISOString(), end: d.end == null ? d.end : new Date(new Date(d.end).getTime() + 7 * DAY).toISOString() })) : e.dates,
    }));
    const newVenue = { ...venue, id: 'V-NY', slug: 'nytt-sted', name: 'Nytt sted' };
    const newOrganizer = { ...organizer, id: 'O-NY', slug: 'ny-arrangor', name: 'Ny arrangør' };
    const added = { ...calendar.events![20]!, id: 'E-NY', slug: 'ny-konsert', title_nb: 'Ny konsert', venue: newVenue.id, organizers: [newOrganizer.id] };
    const kept = calendar.events!.filter((e) => e.id !== calendar.events![30]!.id && !edited.some((x) => x.id === e.id));
    await importCalendar(database, { ...calendar, venues: [...calendar.venues!, newVenue], organizers: [...calendar.organizers!, newOrganizer], events: [...kept, ...edited, added] }, { replace: true });
    const version = (await readDataVersion(database.db))!;
    // Requests wait for the import's version (committed in this process); the segmented service layers it
    // over its segments (a delta), no full build.
    const after = await answersOf();
    expect(builds().at(-1)).toMatchObject({ kind: 'delta', version, segments: expect.any(Number) });
    expect(builds().at(-1)!['segments']).toBeGreaterThanOrEqual(8);
    expect(after.segmented).toEqual(after.whole);
    expect(JSON.stringify(after.whole['a search, literal'])).toContain('Ny konsert');
    expect(after.whole['first page, every facet']).not.toEqual(before.whole['first page, every facet']);
  });
});
