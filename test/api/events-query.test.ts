import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { createGraphQLRunner, type GraphQLRunner } from '../support/graphql-runner.js';
import { NOW, rulesCalendar } from './fixtures/rules-calendar.js';

let database: DatabaseHandle;
let run: GraphQLRunner;

beforeAll(async () => {
  database = await createTestDatabase();
  await importCalendar(database, rulesCalendar);
  run = createGraphQLRunner(database, () => NOW);
});
afterAll(async () => {
  await run?.close();
  await database?.close();
});

interface Node {
  id: string;
  startDate: string;
  endDate: string;
  startTime: string;
  eventCancelled: boolean;
  venue: { slug: string } | null;
  repetitions: { startDate: string }[];
}
interface Page {
  totalCount: number;
  hasMore: boolean;
  pageInfo: { currentPage: number; pageSize: number; totalPages: number };
  data: Node[];
}

const PAGE = `
  query ($filter: Filter, $page: Int, $pageSize: Int) {
    events(filter: $filter, page: $page, pageSize: $pageSize) {
      totalCount hasMore pageInfo { currentPage pageSize totalPages }
      data { id startDate endDate startTime eventCancelled venue { slug } repetitions { startDate } }
    }
  }`;

async function page(filter: Record<string, unknown> = {}, extra: { page?: number; pageSize?: number } = {}): Promise<Page> {
  const result = await run(PAGE, { filter, pageSize: 100, ...extra });
  expect(result.errors).toBeUndefined();
  return (result.data as { events: Page }).events;
}
const ids = (p: Page) => p.data.map((n) => n.id);
const node = (p: Page, id: string) => {
  const found = p.data.find((n) => n.id === id);
  if (!found) throw new Error(`${id} not in ${ids(p).join(', ')}`);
  return found;
};

async function invalid(filter: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const result = await run(PAGE, { filter, ...extra });
  expect(result.data).toBeNull();
  const error = result.errors?.[0];
  expect(error?.extensions?.['code']).toBe('BAD_USER_INPUT');
  return error;
}

describe(`events (${databaseLabel}): order and promotion`, () => {
  it('lists upcoming events chronologically by their next date, published only', async () => {
    const p = await page();
    expect(ids(p)).toEqual([
      'E-NOEND-2H', 'E-WEEKLY', 'E-LATE', 'E-SAMEDAY', 'E-SPRING', 'E-FESTIVAL', 'E-PROGRAMME', 'E-AUTUMN-SAT', 'E-AUTUMN-SUN',
    ]);
    expect(p.totalCount).toBe(9);
  });

  it('promotes the next date of a series and lists the later ones as repetitions', async () => {
    const weekly = node(await page(), 'E-WEEKLY');
    expect(weekly.startDate).toBe('2026-03-26 18:00:00+01:00');
    expect(weekly.endDate).toBe('2026-03-26 20:00:00+01:00');
    expect(weekly.venue?.slug).toBe('v-bergen');
    expect(weekly.repetitions.map((r) => r.startDate)).toEqual(['2026-04-02 18:00:00+02:00', '2026-04-09 18:00:00+02:00']);
  });

  it('promotes the date venue, cancelled flag and start of the first matching date', async () => {
    const later = node(await page({ fromDate: '2026-03-27 00:00:00+01:00' }), 'E-WEEKLY');
    expect(later.startDate).toBe('2026-04-02 18:00:00+02:00');
    expect(later.eventCancelled).toBe(true);
    expect(later.repetitions.map((r) => r.startDate)).toEqual(['2026-04-09 18:00:00+02:00']);
    const notCancelled = node(await page({ fromDate: '2026-03-27 00:00:00+01:00', cancelledNotIncluded: true }), 'E-WEEKLY');
    expect(notCancelled.startDate).toBe('2026-04-09 18:00:00+02:00');
    expect(notCancelled.eventCancelled).toBe(false);
    expect(notCancelled.venue?.slug).toBe('v-tromso');
  });

  it('breaks ties by id and keeps the order stable across pages', async () => {
    const all = ids(await page());
    const paged: string[] = [];
    for (let i = 0; i < 5; i++) paged.push(...ids(await page({}, { page: i, pageSize: 2 })));
    expect(paged).toEqual(all);
  });
});

describe(`events (${databaseLabel}): dates out`, () => {
  it('uses +02:00 after the spring DST change and +01:00 after the autumn one', async () => {
    const p = await page();
    expect(node(p, 'E-SPRING').startDate).toBe('2026-03-29 19:00:00+02:00');
    expect(node(p, 'E-AUTUMN-SAT').startDate).toBe('2026-10-24 12:00:00+02:00');
    expect(node(p, 'E-AUTUMN-SUN').startDate).toBe('2026-10-25 12:00:00+01:00');
    expect(node(p, 'E-SPRING').startTime).toBe('19:00');
  });

  it('gives an event without an end time an endDate equal to its startDate', async () => {
    const n = node(await page(), 'E-NOEND-2H');
    expect(n.startDate).toBe('2026-03-25 10:00:00+01:00');
    expect(n.endDate).toBe(n.startDate);
  });

  it('formats publishingDate with the Oslo offset of its own date', async () => {
    const result = await run(`{ events(filter: { fromDate: "2026-04-05 00:00:00+02:00" }, pageSize: 50) { data { id publishingDate } } }`);
    // Published by then? No: publishing is judged at "now", not at fromDate.
    const data = (result.data as { events: { data: { id: string; publishingDate: string | null }[] } }).events.data;
    expect(data.map((d) => d.id)).not.toContain('E-UNPUBLISHED');
  });
});

describe(`events (${databaseLabel}): ongoing, untilDate, fromStartDate`, () => {
  it('keeps an event without end time for three hours after its start', async () => {
    expect(ids(await page())).toContain('E-NOEND-2H');
    expect(ids(await page())).not.toContain('E-NOEND-4H');
    expect(ids(await page({ fromDate: '2026-03-25 13:30:00+01:00' }))).not.toContain('E-NOEND-2H');
    // A fromDate in the past does not bring back a date that has ended by now.
    expect(ids(await page({ fromDate: '2026-03-25 10:30:00+01:00' }))).not.toContain('E-NOEND-4H');
    expect(ids(await page({ fromDate: '2026-03-25 10:30:00+01:00' }))).toContain('E-NOEND-2H');
  });

  it('untilDate keeps dates that start before the moment', async () => {
    expect(ids(await page({ untilDate: '2026-03-28 00:00:00+01:00' }))).toEqual(['E-NOEND-2H', 'E-WEEKLY', 'E-LATE']);
  });

  it('fromStartDate excludes ongoing events', async () => {
    const p = await page({ fromStartDate: '2026-03-25 12:00:00+01:00' });
    expect(ids(p)[0]).toBe('E-WEEKLY');
    expect(ids(p)).not.toContain('E-NOEND-2H');
  });
});

describe(`events (${databaseLabel}): dates in`, () => {
  it.each([
    '2026-04-03 00:00:00+02:00',
    '2026-04-03T00:00:00+02:00',
    '2026-04-03 00:00:00+0200',
    '2026-04-03 00:00:00+02',
    '2026-04-02 22:00:00Z',
    '2026-04-03T00:00:00',
  ])('reads fromDate %s as the same instant', async (fromDate) => {
    const p = await page({ fromDate });
    expect(ids(p)).toEqual(['E-WEEKLY', 'E-FESTIVAL', 'E-PROGRAMME', 'E-AUTUMN-SAT', 'E-AUTUMN-SUN']);
    expect(node(p, 'E-WEEKLY').startDate).toBe('2026-04-09 18:00:00+02:00');
  });

  it.each(['2026-02-30 00:00:00+01:00', '2026-04-03 00:00:00+25:00', 'tomorrow', '2026-04-03', '2026-04-03 24:00:00+02:00'])(
    'rejects fromDate %s with Query Arguments invalid',
    async (fromDate) => {
      const error = await invalid({ fromDate });
      expect(error?.message).toBe('Query Arguments invalid');
      expect(error?.extensions?.['invalidArgs']).toEqual(['fromDate']);
    },
  );

  it('names every bad argument', async () => {
    const error = await invalid({ fromDate: 'x', untilDate: 'y', hoursRange: '9-5', mode: 'hybrid' });
    expect(error?.extensions?.['invalidArgs']).toEqual(['fromDate', 'untilDate', 'hoursRange', 'mode']);
  });
});

describe(`events (${databaseLabel}): hoursRange`, () => {
  it('wraps a window across midnight', async () => {
    expect(ids(await page({ hoursRange: '22:00-02:00' }))).toEqual(['E-LATE']);
  });

  it('includes the start and excludes the end of the window', async () => {
    expect(ids(await page({ hoursRange: '14:00-15:00' }))).toEqual(['E-SAMEDAY']);
    expect(ids(await page({ hoursRange: '13:00-14:00' }))).toEqual([]);
  });

  it('promotes the first date inside the window', async () => {
    const p = await page({ hoursRange: '18:00-19:00' });
    expect(ids(p)).toEqual(['E-WEEKLY', 'E-SAMEDAY']);
    expect(node(p, 'E-SAMEDAY').startDate).toBe('2026-03-28 18:00:00+01:00');
  });

  it('rejects a malformed window', async () => {
    expect((await invalid({ hoursRange: '25:00-26:00' }))?.extensions?.['invalidArgs']).toEqual(['hoursRange']);
  });
});

describe(`events (${databaseLabel}): groupRepetitionsByDay`, () => {
  it('gives one node per event and Oslo day, with that day\'s other dates as repetitions', async () => {
    const p = await page({ groupRepetitionsByDay: true, untilDate: '2026-03-30 00:00:00+02:00' });
    expect(ids(p)).toEqual(['E-NOEND-2H', 'E-WEEKLY', 'E-LATE', 'E-SAMEDAY', 'E-SAMEDAY', 'E-SPRING']);
    const sameDay = p.data.filter((n) => n.id === 'E-SAMEDAY');
    expect(sameDay.map((n) => n.startDate)).toEqual(['2026-03-28 14:00:00+01:00', '2026-03-29 14:00:00+02:00']);
    expect(sameDay[0]?.repetitions.map((r) => r.startDate)).toEqual(['2026-03-28 18:00:00+01:00']);
    expect(sameDay[1]?.repetitions).toEqual([]);
    expect(p.totalCount).toBe(6);
  });
});

describe(`events (${databaseLabel}): pagination`, () => {
  it('pages with totals, hasMore and pageInfo', async () => {
    const first = await page({}, { page: 0, pageSize: 4 });
    expect(first.data).toHaveLength(4);
    expect(first).toMatchObject({ totalCount: 9, hasMore: true, pageInfo: { currentPage: 0, pageSize: 4, totalPages: 3 } });
    const last = await page({}, { page: 2, pageSize: 4 });
    expect(ids(last)).toEqual(['E-AUTUMN-SUN']);
    expect(last.hasMore).toBe(false);
    const beyond = await page({}, { page: 5, pageSize: 4 });
    expect(beyond).toMatchObject({ data: [], totalCount: 9, hasMore: false });
  });

  it('defaults to page 0 and pageSize 10', async () => {
    const result = await run('{ events { pageInfo { currentPage pageSize } } }');
    expect(result.data).toEqual({ events: { pageInfo: { currentPage: 0, pageSize: 10 } } });
  });

  it('accepts pageSize 1000', async () => {
    expect((await page({}, { pageSize: 1000 })).totalCount).toBe(9);
  });

  it.each([
    [{ page: -1 }, ['page']],
    [{ pageSize: 0 }, ['pageSize']],
    [{ pageSize: -5 }, ['pageSize']],
    [{ pageSize: 1001 }, ['pageSize']],
  ])('rejects %j with BAD_USER_INPUT and data null', async (args, names) => {
    const error = await invalid({}, args);
    expect(error?.extensions?.['invalidArgs']).toEqual(names);
  });
});

describe(`events (${databaseLabel}): facets`, () => {
  const FACETS = `query ($filter: Filter) { events(filter: $filter, pageSize: 2) {
    venues { slug hits } organizers { slug hits } categories { id name_nb hits } } }`;
  it('counts nodes over the whole filtered set, most hits first', async () => {
    const result = await run(FACETS, { filter: {} });
    expect(result.errors).toBeUndefined();
    const events = (result.data as { events: Record<string, unknown> }).events;
    expect(events['venues']).toEqual([
      { slug: 'v-oslo', hits: 7 },
      { slug: 'v-bergen', hits: 1 },
      { slug: 'v-tromso', hits: 1 },
    ]);
    expect(events['organizers']).toEqual([
      { slug: 'org-a', hits: 8 },
      { slug: 'org-b', hits: 1 },
    ]);
    expect(events['categories']).toEqual([
      { id: 'CONCERT', name_nb: 'Konsert', hits: 6 },
      { id: 'FESTIVAL', name_nb: 'Festival', hits: 1 },
      { id: 'OLD_TALKS', name_nb: 'Foredrag', hits: 1 },
      { id: 'SECRET', name_nb: 'Skjult', hits: 1 },
      { id: 'THEATER', name_nb: 'Teater / show', hits: 1 },
    ]);
  });

  it('follows the filter', async () => {
    const result = await run(FACETS, { filter: { venueSlug: 'v-tromso' } });
    const events = (result.data as { events: Record<string, unknown> }).events;
    expect(events['venues']).toEqual([{ slug: 'v-tromso', hits: 2 }]);
  });
});

describe(`events (${databaseLabel}): event-level and venue filters`, () => {
  it.each([
    [{ categories: ['THEATER'] }, ['E-WEEKLY']],
    [{ categories: ['SECRET'] }, ['E-FESTIVAL']],
    [{ categories: ['NO_SUCH_CATEGORY'] }, []],
    [{ notCategories: ['CONCERT'] }, ['E-WEEKLY', 'E-FESTIVAL', 'E-PROGRAMME']],
    [{ venues: ['v-bergen'] }, ['E-WEEKLY']],
    [{ venues: ['V-BERGEN'] }, []],
    [{ venues: ['Grieghallen'] }, []],
    [{ organizers: ['org-b'] }, ['E-WEEKLY']],
    [{ organizerSlug: 'org-b', venueSlug: 'v-oslo' }, []],
    [{ postalCodes: ['5015'] }, ['E-WEEKLY']],
    [{ tag: 'jazz' }, ['E-LATE']],
    [{ mode: 'online' }, ['E-LATE']],
    [{ superEvent: 'E-FESTIVAL' }, ['E-PROGRAMME']],
    [{ onlyFeatured: true }, ['E-FESTIVAL']],
    [{ onlyFeaturedSpecialEvent: true }, ['E-PROGRAMME']],
    [{ sortBy: 'title' }, ['E-NOEND-2H', 'E-WEEKLY', 'E-LATE', 'E-SAMEDAY', 'E-SPRING', 'E-FESTIVAL', 'E-PROGRAMME', 'E-AUTUMN-SAT', 'E-AUTUMN-SUN']],
  ])('%j → %j', async (filter, expected) => {
    expect(ids(await page(filter))).toEqual(expected);
  });

  it('treats an empty category list as all', async () => {
    expect((await page({ categories: [] })).totalCount).toBe(9);
  });

  it('matches venue conditions per date and promotes the matching date', async () => {
    const p = await page({ municipality: 'tromsø' });
    expect(ids(p)).toEqual(['E-SAMEDAY', 'E-WEEKLY']);
    expect(node(p, 'E-WEEKLY').startDate).toBe('2026-04-09 18:00:00+02:00');
  });

  it('removes sold-out dates on request', async () => {
    expect(ids(await page({ soldOutNotIncluded: true }))).not.toContain('E-LATE');
  });
});

describe(`events (${databaseLabel}): prices and links`, () => {
  const PRICES = `query ($filter: Filter) { events(filter: $filter) { data { id eventLink prices { type price name_nb name_en }
    repetitions { startDate prices { type price } } } } }`;
  it('reads messy price input, labels built-in types and keeps organizer labels', async () => {
    const result = await run(PRICES, { filter: { superEvent: 'E-FESTIVAL' } });
    const programme = (result.data as { events: { data: Record<string, unknown>[] } }).events.data[0]!;
    expect(programme['prices']).toEqual([
      { type: 'REGULAR', price: 1250, name_nb: 'Vanlig', name_en: 'Regular' },
      { type: 'STUDENT', price: 100, name_nb: 'Student', name_en: 'Student' },
      { type: 'CHILD', price: null, name_nb: 'Barn', name_en: 'Child' },
      { type: 'VIP', price: 2000, name_nb: 'VIP-billett', name_en: 'VIP ticket' },
    ]);
    expect(programme['repetitions']).toEqual([{ startDate: '2026-04-22 12:00:00+02:00', prices: [{ type: 'REGULAR', price: 150 }] }]);
    expect(programme['eventLink']).toBe('https://kalender.example.no/arrangement/e-programme');
  });

  it('never promotes prices: the event keeps its own, a date\'s own prices show on its repetition only', async () => {
    const result = await run(PRICES, { filter: { superEvent: 'E-FESTIVAL', fromDate: '2026-04-21 14:00:00+02:00' } });
    const programme = (result.data as { events: { data: Record<string, unknown>[] } }).events.data[0]!;
    // The promoted date (2026-04-22) has prices of its own; rule 5 does not list prices among what a promoted date brings.
    expect(programme['prices']).toEqual([
      { type: 'REGULAR', price: 1250, name_nb: 'Vanlig', name_en: 'Regular' },
      { type: 'STUDENT', price: 100, name_nb: 'Student', name_en: 'Student' },
      { type: 'CHILD', price: null, name_nb: 'Barn', name_en: 'Child' },
      { type: 'VIP', price: 2000, name_nb: 'VIP-billett', name_en: 'VIP ticket' },
    ]);
    expect(programme['repetitions']).toEqual([]);
  });
});

describe(`events (${databaseLabel}): retired categories`, () => {
  it('returns an empty result without error for a retired id and migrates its events', async () => {
    await importCalendar(database, { retiredCategories: [{ id: 'OLD_TALKS', replacedBy: ['THEATER'] }] });
    expect(ids(await page({ categories: ['OLD_TALKS'] }))).toEqual([]);
    expect(ids(await page({ categories: ['THEATER'] }))).toEqual(['E-WEEKLY', 'E-PROGRAMME']);
    const categories = await run('{ categories { id visible } }');
    const list = (categories.data as { categories: { id: string; visible: boolean }[] }).categories;
    expect(list.map((c) => c.id)).not.toContain('OLD_TALKS');
    expect(list.find((c) => c.id === 'SECRET')?.visible).toBe(false);
  });
});
