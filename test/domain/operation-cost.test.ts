import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationCost } from '../../src/domain/operation-cost.js';

const cost = (query: string, variables?: Record<string, unknown>, operationName?: string) => operationCost(parse(query), operationName, variables);

describe('operation cost', () => {
  it('costs 1 per root field, nothing for __typename', () => {
    expect(cost('{ venues { name } organizers { name } __typename }')).toBe(2);
    expect(cost('{ eventBySlug(eventSlug: "x") { id } }')).toBe(1);
  });

  it('charges an events page by its nodes, totals, facets and search', () => {
    expect(cost('{ events { data { id } } }')).toBe(2);
    expect(cost('{ events(pageSize: 200) { data { id } } }')).toBe(11);
    expect(cost('{ events { totalCount hasMore data { id } } }')).toBe(4);
    expect(cost('{ events { venues { count } organizers { count } categories { count } } }')).toBe(8);
    expect(cost('{ events(filter: { searchTerm: "jazz" }) { data { id } } }')).toBe(5);
    expect(cost('{ events(filter: { searchTerm: "  " }) { data { id } } }')).toBe(2);
  });

  it('reads arguments from variables, fragments included', () => {
    const query = `query Page($filter: Filter, $size: Int) { ...Page }
      fragment Page on Query { events(filter: $filter, pageSize: $size) { ... on EventConnection { pageInfo { hasNextPage } } ...Facets } }
      fragment Facets on EventConnection { venues { count } }`;
    expect(cost(query, { filter: { searchTerm: 'rock' }, size: 100 })).toBe(1 + 5 + 2 + 2 + 3);
    expect(cost(query, {})).toBe(1 + 1 + 2 + 2);
  });

  it('charges the named operation only', () => {
    const query = 'query A { venues { name } } query B { events(pageSize: 40) { data { id } } }';
    expect(cost(query, {}, 'A')).toBe(1);
    expect(cost(query, {}, 'B')).toBe(3);
  });

  it('charges an area by its size, the whole world most', () => {
    expect(cost('{ allUpcomingEventsInArea(minLatitude: 59.9, maxLatitude: 60, minLongitude: 10.7, maxLongitude: 10.8) { id } }')).toBe(2);
    expect(cost('{ allUpcomingEventsInArea { id } }')).toBe(51);
    expect(cost('{ allUpcomingEventsInArea(minLatitude: 58, maxLatitude: 62, minLongitude: 5, maxLongitude: 11) { id } }')).toBe(25);
  });

  it('charges change pages by their size', () => {
    expect(cost('{ changes { cursor } }')).toBe(2);
    expect(cost('query ($n: Int) { changes(pageSize: $n) { cursor } }', { n: 1000 })).toBe(11);
  });
});
