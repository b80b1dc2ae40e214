import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import type { CalendarFileInput } from '../../src/import/import-format.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { createGraphQLRunner, type GraphQLRunner } from '../support/graphql-runner.js';

/**
 * Pages are read in index order (dates running at `from` first, then later starts walked in order)
 * while totals and facets are computed over the whole result and reused per filter. These tests
 * hold the two to each other: every page size walks the same nodes as one large page, in order.
 */
const NOW = new Date('2026-06-10T10:00:00Z');
const at = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString();
const JAZZ_EVENTS = 120;

function pagingCalendar(): CalendarFileInput {
  const events: NonNullable<CalendarFileInput['events']> = [
    // Running since long before now: exhibitions, a festival pass with a later date, and one date
    // started an hour ago without an end time (ongoing for three hours).
    // Categories, organizers and flags on running events too: the running dates check them by key.
    { id: 'X-EXHIBIT-B', slug: 'x-exhibit-b', title_nb: 'Jazz i bilder', categories: ['ART'], organizers: ['ORG-MUSEUM'], dates: [{ start: at(-24 * 30), end: at(24 * 30) }] },
    { id: 'X-EXHIBIT-A', slug: 'x-exhibit-a', title_nb: 'Jazzhistorie', categories: ['ART', 'JAZZ'], featured: true, dates: [{ start: at(-24 * 30), end: at(24 * 30) }] },
    { id: 'X-PASS', slug: 'x-pass', title_nb: 'Festivalpass jazz', categories: ['JAZZ'], organizers: ['ORG-CLUB'], tags: ['festival'], dates: [{ start: at(-48), end: at(48) }, { start: at(72), end: at(80) }] },
    { id: 'X-STARTED', slug: 'x-started', title_nb: 'Formiddagsjazz', categories: ['JAZZ'], organizers: ['ORG-CLUB'], dates: [{ start: at(-1) }] },
    // Ended: never listed.
    { id: 'X-ENDED', slug: 'x-ended', title_nb: 'Jazz i går', dates: [{ start: at(-30), end: at(-26) }] },
    // A search for the second venue's name matches the later date only.
    { id: 'X-TOUR', slug: 'x-tour', title_nb: 'Turné', dates: [{ start: at(4), venue: 'V-BLUE' }, { start: at(8), venue: 'V-CLUB' }] },
    // Published an hour after now: listed from then on.
    { id: 'X-SOON', slug: 'x-soon', title_nb: 'Jazz snart', publishingDate: at(1), dates: [{ start: at(30) }] },
  ];
  for (let i = 0; i < JAZZ_EVENTS; i++) {
    // Two dates on one Oslo day for every fifth event; equal starts for neighbours (ties by id).
    const first = 2 + Math.floor(i / 2) * 5;
    const dates = i % 5 === 0 ? [{ start: at(first) }, { start: at(first + 3) }, { start: at(first + 24 * 7) }] : [{ start: at(first) }];
    events.push({
      id: `J-${String(JAZZ_EVENTS - i).padStart(3, '0')}`,
      slug: `j-${i}`,
      title_nb: `Jazzkveld ${i}`,
      categories: i % 3 === 0 ? ['JAZZ', 'ART'] : ['JAZZ'],
      organizers: i % 4 === 0 ? ['ORG-CLUB', 'ORG-MUSEUM'] : ['ORG-CLUB'],
      featured: i % 7 === 0,
      tags: i % 2 === 0 ? ['festival'] : [],
      dates,
    });
  }
  for (let i = 0; i < 10; i++) {
    events.push({ id: `Q-${i}`, slug: `q-${i}`, title_nb: `Quiz ${i}`, dates: [{ start: at(3 + i * 11) }] });
  }
  return {
    categories: [
      { id: 'JAZZ', name_nb: 'Jazz', name_en: 'Jazz', slug_nb: 'jazz', slug_en: 'jazz' },
      { id: 'ART', name_nb: 'Kunst', name_en: 'Art', slug_nb: 'kunst', slug_en: 'art' },
    ],
    venues: [
      { id: 'V-BLUE', slug: 'blasalen', name: 'Blåsalen' },
      { id: 'V-CLUB', slug: 'klubbscenen', name: 'Klubbscenen' },
    ],
    organizers: [
      { id: 'ORG-CLUB', slug: 'jazzklubben', name: 'Jazzklubben' },
      { id: 'ORG-MUSEUM', slug: 'museet', name: 'Museet' },
    ],
    events,
  };
}

let database: DatabaseHandle;
let run: GraphQLRunner;
let clock = NOW;

beforeAll(async () => {
  database = await createTestDatabase();
  await importCalendar(database, pagingCalendar());
  run = createGraphQLRunner(database, () => clock);
});
afterAll(async () => {
  await run?.close();
  await database?.close();
});

interface Page {
  totalCount: number;
  hasMore: boolean;
  pageInfo: { totalPages: number };
  data: { id: string; startDate: string }[];
}

const PAGE = `query ($filter: Filter, $page: Int, $pageSize: Int) {
  events(filter: $filter, page: $page, pageSize: $pageSize) {
    totalCount hasMore pageInfo { totalPages } data { id startDate }
  } }`;

async function page(filter: Record<string, unknown>, pageNumber: number, pageSize: number): Promise<Page> {
  const result = await run(PAGE, { filter, page: pageNumber, pageSize });
  expect(result.errors).toBeUndefined();
  return (result.data as { events: Page }).events;
}

const instant = (startDate: string) => Date.parse(startDate.replace(' ', 'T'));
const key = (n: { id: string; startDate: string }) => `${n.id}@${n.startDate}`;

describe(`events (${databaseLabel}): pages walk the same nodes as the whole result`, () => {
  const filters: [string, Record<string, unknown>][] = [
    ['no filter', {}],
    ['groupRepetitionsByDay', { groupRepetitionsByDay: true }],
    ['a search matching most events', { searchTerm: 'jazz' }],
    ['a search matching most events, by day', { searchTerm: 'jazz', groupRepetitionsByDay: true }],
    ['a search matching few events', { searchTerm: 'quiz' }],
    ['a search matching a later date\'s venue', { searchTerm: 'klubbscenen' }],
    ['an hours window', { hoursRange: '12:00-18:00' }],
    ['untilDate', { untilDate: at(100) }],
    ['a category', { categories: ['ART'] }],
    ['a category left out', { notCategories: ['ART'] }],
    ['an organizer', { organizers: ['museet'] }],
    ['featured events', { onlyFeatured: true }],
    ['a tag, from a later moment', { tag: 'festival', fromDate: at(3) }],
  ];

  it.each(filters)('%s', async (_name, filter) => {
    const whole = await page(filter, 0, 1000);
    expect(whole.hasMore).toBe(false);
    expect(whole.data).toHaveLength(whole.totalCount);
    // Chronological by the promoted start, ties by id.
    const sorted = [...whole.data].sort((a, b) => instant(a.startDate) - instant(b.startDate) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    expect(whole.data.map(key)).toEqual(sorted.map(key));
    expect(whole.data.map((n) => n.id)).not.toContain('X-ENDED');

    for (const size of [7, 25]) {
      const walked: string[] = [];
      for (let n = 0; ; n++) {
        const p = await page(filter, n, size);
        expect(p.totalCount).toBe(whole.totalCount);
        expect(p.pageInfo.totalPages).toBe(Math.ceil(whole.totalCount / size));
        walked.push(...p.data.map(key));
        // hasMore is true exactly when the next page has content.
        expect(p.hasMore).toBe(walked.length < whole.totalCount);
        if (!p.hasMore) break;
      }
      expect(walked).toEqual(whole.data.map(key));
    }
  });

  it('lists the dates running now first, from the earliest start', async () => {
    const whole = await page({}, 0, 5);
    expect(whole.data.map((n) => n.id)).toEqual(['X-EXHIBIT-A', 'X-EXHIBIT-B', 'X-PASS', 'X-STARTED', 'J-119']);
  });

  it('checks the running dates against the event-level conditions', async () => {
    const ids = async (filter: Record<string, unknown>) => (await page(filter, 0, 3)).data.map((n) => n.id);
    expect(await ids({ categories: ['ART'] })).toEqual(['X-EXHIBIT-A', 'X-EXHIBIT-B', 'J-120']);
    expect(await ids({ notCategories: ['ART'] })).toEqual(['X-PASS', 'X-STARTED', 'J-119']);
    expect(await ids({ organizers: ['jazzklubben'] })).toEqual(['X-PASS', 'X-STARTED', 'J-119']);
    expect(await ids({ onlyFeatured: true })).toEqual(['X-EXHIBIT-A', 'J-120', 'J-113']);
    expect(await ids({ tag: 'festival' })).toEqual(['X-PASS', 'J-120', 'J-118']);
  });

  it('promotes the date whose venue a search word matches', async () => {
    const found = await page({ searchTerm: 'klubbscenen' }, 0, 10);
    expect(found.data.map((n) => [n.id, instant(n.startDate)])).toEqual([['X-TOUR', Date.parse(at(8))]]);
  });
});

describe(`events (${databaseLabel}): totals and facets kept per filter`, () => {
  const COUNT = `query ($filter: Filter) { events(filter: $filter, pageSize: 1) { totalCount hasMore data { id } } }`;
  const total = async (filter: Record<string, unknown> = {}) => {
    const result = await run(COUNT, { filter });
    expect(result.errors).toBeUndefined();
    return (result.data as { events: { totalCount: number } }).events.totalCount;
  };

  it('follows an import at once, whatever was computed before it', async () => {
    clock = NOW;
    const before = await total({ tag: 'kept' });
    await importCalendar(database, { events: [{ id: 'T-NEW', slug: 't-new', title_nb: 'Ny', tags: ['kept'], dates: [{ start: at(5) }] }] });
    expect(await total({ tag: 'kept' })).toBe(before + 1);
  });

  it('counts exactly at every moment: a date drops out at its end, an event joins at its publishing', async () => {
    const totalAt = async (ms: number) => {
      clock = new Date(NOW.getTime() + ms);
      return total();
    };
    const hour = 3_600_000;
    const before = await totalAt(0);
    // X-SOON is published at NOW + 1 h. Seconds apart, so a summary kept for a fixed time would show.
    expect(await totalAt(hour - 10_000)).toBe(before);
    expect(await totalAt(hour - 1)).toBe(before);
    expect(await totalAt(hour)).toBe(before + 1);
    // X-STARTED (no end time, started an hour before NOW) stops being ongoing two hours after NOW.
    expect(await totalAt(2 * hour - 10_000)).toBe(before + 1);
    expect(await totalAt(2 * hour - 1)).toBe(before + 1);
    expect(await totalAt(2 * hour)).toBe(before);
    // A fromDate in the past never brings back a date that has ended: the bound is the later of the two.
    clock = new Date(NOW.getTime() + 2 * hour - 1);
    const fixed = await total({ fromDate: NOW.toISOString() });
    expect(fixed).toBe(before + 1);
    clock = new Date(NOW.getTime() + 2 * hour);
    expect(await total({ fromDate: NOW.toISOString() })).toBe(fixed - 1);
    clock = NOW;
  });

  it('names venues, organizers and categories as the latest import has them', async () => {
    clock = NOW;
    const names = async () => {
      const result = await run(`{
        events(filter: { venues: ["v-hall"] }) { data { venue { name } organizers { name } } venues { name hits } }
        eventByID(eventID: "T-HALL") { venue { name } }
        categories { id name_nb } }`);
      expect(result.errors).toBeUndefined();
      const data = result.data as {
        events: { data: { venue: { name: string }; organizers: { name: string }[] }[]; venues: { name: string }[] };
        eventByID: { venue: { name: string } };
        categories: { id: string; name_nb: string }[];
      };
      return {
        venue: data.events.data[0]?.venue.name,
        organizer: data.events.data[0]?.organizers[0]?.name,
        facet: data.events.venues[0]?.name,
        byId: data.eventByID.venue.name,
        category: data.categories.find((c) => c.id === 'ART')?.name_nb,
      };
    };
    const hall = { id: 'V-HALL', slug: 'v-hall', name: 'Gamle hall' };
    await importCalendar(database, {
      venues: [hall],
      events: [{ id: 'T-HALL', slug: 't-hall', title_nb: 'I hallen', organizers: ['ORG-MUSEUM'], dates: [{ start: at(6), venue: 'V-HALL' }] }],
    });
    expect(await names()).toEqual({ venue: 'Gamle hall', organizer: 'Museet', facet: 'Gamle hall', byId: 'Gamle hall', category: 'Kunst' });
    await importCalendar(database, {
      categories: [{ id: 'ART', name_nb: 'Billedkunst', name_en: 'Art', slug_nb: 'kunst', slug_en: 'art' }],
      venues: [{ ...hall, name: 'Nye hallen' }],
      organizers: [{ id: 'ORG-MUSEUM', slug: 'museet', name: 'Kunstmuseet' }],
    });
    expect(await names()).toEqual({ venue: 'Nye hallen', organizer: 'Kunstmuseet', facet: 'Nye hallen', byId: 'Nye hallen', category: 'Billedkunst' });
  });

  it('answers a page without totals from the page alone', async () => {
    clock = NOW;
    const result = await run(`{ events(pageSize: 3, filter: { searchTerm: "quiz" }) { hasMore data { id } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ events: { hasMore: true, data: [{ id: 'Q-0' }, { id: 'Q-1' }, { id: 'Q-2' }] } });
  });
});
