import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
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

async function search(searchTerm: string, filter: Record<string, unknown> = {}): Promise<string[]> {
  const result = await run('query ($filter: Filter) { events(filter: $filter, pageSize: 100) { data { id } } }', {
    filter: { searchTerm, ...filter },
  });
  expect(result.errors).toBeUndefined();
  return (result.data as { events: { data: { id: string }[] } }).events.data.map((e) => e.id);
}

describe(`searchTerm (${databaseLabel}): folding and sources`, () => {
  it.each([
    ['cafe', ['S-CAFE']],
    ['CAFÉ', ['S-CAFE']],
    ['ALLEGRO', ['S-CAFE']],
    ['tradlosa', ['S-CAFE']],
    ['bolgen', ['S-CAFE']],
    ['kjelleren', ['S-CAFE']],
    ['library', ['S-LIBRARY']],
    ['literature', ['S-LIBRARY']],
    ['litteratur', ['S-LIBRARY']],
    ['bjorvika', ['S-LIBRARY', 'S-TWIN-EARLY', 'S-TWIN-LATE']],
    ['jazz', ['S-CAFE']],
  ])('%s finds %j', async (term, expected) => {
    expect(await search(term)).toEqual(expected);
  });

  it('ignores HTML tags in descriptions', async () => {
    expect(await search('strong')).not.toContain('S-PEER');
    expect(await search('klassikeren')).toEqual(['S-PEER']);
  });

  it('requires every word and ignores punctuation and extra spaces', async () => {
    expect(await search('  konsert,   allegro! ')).toEqual(['S-CAFE']);
    expect(await search('konsert peer')).toEqual([]);
  });
});

describe(`searchTerm (${databaseLabel}): approximate matching`, () => {
  it.each([
    ['konsrt', 'S-CAFE'],
    ['jaz', 'S-CAFE'],
    ['bibliotke', 'S-LIBRARY'],
  ])('%s finds %s', async (term, id) => {
    expect(await search(term)).toContain(id);
  });

  it('mixes no approximate matches into a literal result', async () => {
    expect(await search('allegro')).toEqual(['S-CAFE']);
    expect(await search('alegro')).toEqual(['S-CAFE', 'S-ALLEGRA']);
  });

  it('tolerates one error up to 5 letters and two beyond', async () => {
    expect(await search('jazzzz')).toEqual(['S-CAFE']);
    expect(await search('jazq')).toEqual(['S-CAFE']);
    expect(await search('jxzq')).toEqual([]);
  });
});

describe(`searchTerm (${databaseLabel}): the term is data`, () => {
  it.each(['%', '_', "'", '\\', "'; drop table events; --", '%%%', 'a_b', '" or 1=1 --'])('searches %s without error', async (term) => {
    await expect(search(term)).resolves.toBeInstanceOf(Array);
  });

  it('finds text next to pattern characters', async () => {
    expect(await search('100%')).toEqual(['S-QUIZ']);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from events`.execute(database.db);
    expect(rows[0]?.n).toBe(searchCalendar.events.length);
  });

  it('combines with other filters, totals and facets', async () => {
    const result = await run(
      `{ events(filter: { searchTerm: "konsert", categories: ["CONCERT"] }) { totalCount data { id } categories { id hits } } }`,
    );
    expect(result.data).toEqual({ events: { totalCount: 1, data: [{ id: 'S-CAFE' }], categories: [{ id: 'CONCERT', hits: 1 }] } });
  });
});

// Last: it adds an event to the shared calendar.
describe(`searchTerm (${databaseLabel}): later imports`, () => {
  it('finds words of events imported later (the dictionary follows each import)', async () => {
    expect(await search('trekkspiltreff')).toEqual([]);
    await importCalendar(database, {
      events: [
        {
          id: 'S-LATER',
          slug: 's-later',
          title_nb: 'Trekkspilltreff',
          categories: ['THEATER'],
          organizers: ['ORG-OSLO'],
          ticketsInformation: 'free',
          dates: [{ start: '2026-06-12T19:00:00+02:00' }],
        },
      ],
    });
    expect(await search('trekkspiltreff')).toEqual(['S-LATER']);
  });
});
