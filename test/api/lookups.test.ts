import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { createGraphQLRunner, type GraphQLRunner } from '../support/graphql-runner.js';
import { NOW, searchCalendar } from './fixtures/search-calendar.js';

let database: DatabaseHandle;
let run: GraphQLRunner;

beforeAll(async () => {
  database = await createTestDatabase();
  await importCalendar(database, searchCalendar);
  run = createGraphQLRunner(database, () => NOW);
});
afterAll(async () => {
  await run?.close();
  await database?.close();
});

async function data<T>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await run(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}

describe(`eventByID and eventBySlug (${databaseLabel})`, () => {
  it('returns the event with its next date promoted', async () => {
    const d = await data<{ eventByID: { id: string; startDate: string } }>('{ eventByID(eventID: "S-CAFE") { id startDate } }');
    expect(d.eventByID).toEqual({ id: 'S-CAFE', startDate: '2026-06-05 20:00:00+02:00' });
    const s = await data<{ eventBySlug: { id: string } }>('{ eventBySlug(eventSlug: "s-cafe") { id } }');
    expect(s.eventBySlug).toEqual({ id: 'S-CAFE' });
  });

  it.each(['NOPE', 'S-PAST', 'S-UNPUBLISHED'])('is null for %s (unknown, past or unpublished)', async (id) => {
    const d = await data<Record<string, unknown>>(`{ byId: eventByID(eventID: "${id}") { id } bySlug: eventBySlug(eventSlug: "${id.toLowerCase()}") { id } }`);
    expect(d).toEqual({ byId: null, bySlug: null });
  });
});

describe(`eventsBySlugs (${databaseLabel})`, () => {
  it('keeps the order asked and skips unknown slugs', async () => {
    const d = await data<{ eventsBySlugs: { id: string }[] }>('{ eventsBySlugs(eventsSlugs: ["s-quiz", "nope", "s-cafe", "s-past"]) { id } }');
    expect(d.eventsBySlugs.map((e) => e.id)).toEqual(['S-QUIZ', 'S-CAFE']);
  });
});

describe(`eventByTitle (${databaseLabel})`, () => {
  it('matches the exact title and takes the next upcoming of several', async () => {
    const d = await data<{ eventByTitle: { id: string } | null }>('{ eventByTitle(title: "Sommerkonsert", lan: "nb") { id } }');
    expect(d.eventByTitle).toEqual({ id: 'S-TWIN-EARLY' });
  });

  it('is case-sensitive and per language', async () => {
    const d = await data<Record<string, unknown>>(
      '{ a: eventByTitle(title: "sommerkonsert", lan: "nb") { id } b: eventByTitle(title: "Sommerkonsert", lan: "en") { id } }',
    );
    expect(d).toEqual({ a: null, b: null });
  });

  it('rejects another language with BAD_USER_INPUT naming lan', async () => {
    const result = await run('{ eventByTitle(title: "Sommerkonsert", lan: "de") { id } }');
    expect(result.data).toBeNull();
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', invalidArgs: ['lan'] });
  });
});

describe(`allUpcomingSuperEvents (${databaseLabel})`, () => {
  it('lists container events not yet ended, chronologically', async () => {
    const d = await data<{ allUpcomingSuperEvents: { id: string }[] }>('{ allUpcomingSuperEvents { id } }');
    expect(d.allUpcomingSuperEvents.map((e) => e.id)).toEqual(['S-PEER']);
  });
});

describe(`allUpcomingEventsInArea (${databaseLabel})`, () => {
  const AREA = 'query ($a: Float, $b: Float, $c: Float, $d: Float) { allUpcomingEventsInArea(minLatitude: $a, maxLatitude: $b, minLongitude: $c, maxLongitude: $d) { id } }';
  it('lists upcoming events inside the box, edges included, chronologically', async () => {
    // Zebra (59.95, 10.8) lies on the edge; Deichman (59.9081, 10.7527) and Æble (59.92, 10.74) inside.
    const d = await data<{ allUpcomingEventsInArea: { id: string }[] }>(AREA, { a: 59.9, b: 59.95, c: 10.7, d: 10.8 });
    expect(d.allUpcomingEventsInArea.map((e) => e.id)).toEqual(['S-LIBRARY', 'S-QUIZ', 'S-PEER', 'S-TWIN-EARLY', 'S-TWIN-LATE']);
  });

  it('rejects a box with min above max', async () => {
    const result = await run(AREA, { a: 60, b: 59, c: 10, d: 11 });
    expect(result.data).toBeNull();
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', invalidArgs: ['minLatitude', 'maxLatitude'] });
  });
});

describe(`catalogues (${databaseLabel})`, () => {
  it('lists categories with sub-categories and hidden ones flagged', async () => {
    const d = await data<{ categories: { id: string; visible: boolean; subCategories: { id: string }[] }[] }>(
      '{ categories { id visible subCategories { id } } }',
    );
    expect(d.categories.map((c) => c.id)).toEqual(['CONCERT', 'LITERATURE', 'QUIZ', 'THEATER', 'HIDDEN']);
    expect(d.categories.find((c) => c.id === 'CONCERT')?.subCategories).toEqual([{ id: 'JAZZ' }]);
    expect(d.categories.find((c) => c.id === 'HIDDEN')?.visible).toBe(false);
  });

  it('sorts venues by name with æ, ø, å after z', async () => {
    const d = await data<{ venues: { name: string; slug: string }[] }>('{ venues { name slug } }');
    expect(d.venues.map((v) => v.name)).toEqual([
      'aker brygge scene', 'Deichman Bjørvika', 'Trådløsa kulturhus', 'Zebra scene', 'Æble bar', 'Ørsta kulturhus', 'Ålesund hall',
    ]);
  });

  it('lists organizers with ids and slugs', async () => {
    const d = await data<{ organizers: { id: string; slug: string }[] }>('{ organizers { id slug } }');
    expect(d.organizers).toEqual([
      { id: 'ORG-BOLGEN', slug: 'bolgen' },
      { id: 'ORG-OSLO', slug: 'oslo-kommune' },
    ]);
  });
});

describe(`batching (${databaseLabel})`, () => {
  it('loads a 250-event page with every field in a bounded number of SQL queries', async () => {
    const many = {
      events: Array.from({ length: 260 }, (_, i) => ({
        id: `B-${String(i).padStart(3, '0')}`,
        slug: `b-${i}`,
        title_nb: `Batch ${i}`,
        categories: ['CONCERT', 'QUIZ'],
        organizers: ['ORG-OSLO', 'ORG-BOLGEN'],
        venue: i % 2 ? 'V-ZEBRA' : 'V-TRAD',
        ticketsInformation: 'ticketsInfo',
        prices: [{ type: 'REGULAR', price: '200,-' }],
        images: [{ urlSmall: 's.jpg', urlLarge: 'l.jpg', alt: 'x', focusX: 0.5, focusY: 0.2, width: 800, height: 600 }],
        dates: [
          { start: '2026-08-01T19:00:00+02:00', end: '2026-08-01T21:00:00+02:00' },
          { start: '2026-08-08T19:00:00+02:00', end: '2026-08-08T21:00:00+02:00', venue: 'V-AKER' },
        ],
      })),
    };
    await importCalendar(database, many);
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => args.node,
      // Once per statement run (transformQuery also sees the subqueries a statement is built from).
      transformResult: (args) => {
        // The read model's once-a-second look at the data version is not part of any request.
        if (args.result.rows.length !== 1 || Object.keys(args.result.rows[0] ?? {}).join() !== 'version') queries++;
        return Promise.resolve(args.result);
      },
    };
    const counting = database.db.withPlugin(counter);
    const pageOf = (size: number, page = 0) => `{ events(pageSize: ${size}, page: ${page}, filter: { fromDate: "2026-07-01 00:00:00+02:00" }) {
      totalCount
      data { id startDate venue { name location { latitude } } organizers { name } categories images { urlSmall focusX }
             prices { type price name_nb } repetitions { startDate venue { name } prices { price } } }
      venues { id hits } organizers { id hits } categories { id hits } } }`;
    const countFor = async (run: ReturnType<typeof createGraphQLRunner>, size: number, page = 0) => {
      queries = 0;
      const result = await run(pageOf(size, page));
      expect(result.errors).toBeUndefined();
      expect((result.data as { events: { data: unknown[] } }).events.data).toHaveLength(size);
      return queries;
    };
    const service = createGraphQLRunner({ ...database, db: counting }, () => NOW);
    onTestFinished(() => service.close());
    // The first request waits for the read model (a few statements, once per data version).
    await countFor(service, 5);
    // No N+1, and nothing per filter: the page, its total and facets come from the read model, and
    // the page's records in one wave of two statements (the events; their promoted and later dates).
    const small = await countFor(service, 5, 1);
    const large = await countFor(service, 250);
    expect(small).toBe(2);
    expect(large).toBe(2);
  });
});
