import { getNamedType, isObjectType, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { buildExecutableSchema } from '../../src/schema/executable-schema.js';
import { createGraphQLRunner, type GraphQLRunner } from '../support/graphql-runner.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { NOW, rulesCalendar } from './fixtures/rules-calendar.js';

/*
 * Nodes are read with only the columns the operation's Event fields read (of the dates, only what
 * the read model's snapshot does not hold): schema/node-options.ts. Selecting `jsonLd` reads every
 * column, so each field asked alone (the leanest read) must answer exactly what it answers next to
 * jsonLd, on every path that reads nodes. Every field of Event is asked, found in the schema, so a
 * field added later is covered (and needs a sub-selection below when it is an object).
 */

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

/** Sub-selections of the Event fields that are objects: every field of each, nested ones included. */
const SUBSELECTIONS: Record<string, string> = {
  venue: '{ id slug name address postalCode municipality location { latitude longitude } }',
  organizers: '{ id slug name }',
  images: '{ urlSmall urlLarge alt focusX focusY width height }',
  repetitions: '{ startDate endDate startTime duration venue { id } ticketsURL eventCancelled eventSoldOut prices { type price name_nb name_en } }',
  prices: '{ type price name_nb name_en }',
};

const eventType = buildExecutableSchema().getType('Event') as GraphQLObjectType;
const fieldNames = Object.keys(eventType.getFields()).filter((name) => name !== 'jsonLd');

function selectionOf(name: string): string {
  const type = getNamedType(eventType.getFields()[name]!.type);
  if (!isObjectType(type)) return name;
  const sub = SUBSELECTIONS[name];
  if (!sub) throw new Error(`Event.${name} is an object: give it a sub-selection in SUBSELECTIONS`);
  return `${name} ${sub}`;
}

type Node = Record<string, unknown> & { id: string };

async function data<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await run(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}

const withoutJsonLd = (nodes: Node[]) => nodes.map(({ jsonLd: _jsonLd, ...rest }) => rest);

describe(`nodes read with only the columns their fields read (${databaseLabel})`, () => {
  it('the calendar has what the fields show: several dates, cancelled, sold out, no end time, date prices', async () => {
    // Grouped by day, every date of a series is a node of its own: the cancelled one too.
    const { events } = await data<{ events: { data: Node[] } }>(
      '{ events(filter: { groupRepetitionsByDay: true }, pageSize: 100) { data { id endDate startDate eventCancelled eventSoldOut repetitions { prices { price } } } } }',
    );
    const { events: ungrouped } = await data<{ events: { data: Node[] } }>('{ events(pageSize: 100) { data { repetitions { prices { price } } } } }');
    expect(events.data.length).toBeGreaterThan(5);
    expect(events.data.some((n) => n['eventCancelled'] === true)).toBe(true);
    expect(events.data.some((n) => n['eventSoldOut'] === true)).toBe(true);
    expect(events.data.some((n) => n['endDate'] === n['startDate'])).toBe(true);
    expect(ungrouped.data.some((n) => (n['repetitions'] as { prices: unknown }[]).some((r) => r.prices !== null))).toBe(true);
  });

  it.each(fieldNames)('events: %s alone answers as with every column read', async (name) => {
    const selection = selectionOf(name);
    for (const filter of [{}, { groupRepetitionsByDay: true }]) {
      const page = (fields: string) =>
        data<{ events: { data: Node[] } }>(`query ($filter: Filter) { events(filter: $filter, pageSize: 100) { data { ${fields} } } }`, { filter });
      const [lean, full] = await Promise.all([page(`id ${selection}`), page(`id ${selection} jsonLd`)]);
      expect(lean.events.data.length).toBeGreaterThan(5);
      expect(lean.events.data).toEqual(withoutJsonLd(full.events.data));
    }
  });

  it('eventsBySlugs, the area, super events and changes: every field answers as with every column read', async () => {
    const all = fieldNames.map(selectionOf).join(' ');
    const { events } = await data<{ events: { data: { event_slug: string }[] } }>('{ events(pageSize: 100) { data { event_slug } } }');
    const slugs = events.data.map((n) => n.event_slug);
    const paths = [
      { query: (f: string) => `query ($s: [String]!) { eventsBySlugs(eventsSlugs: $s) { ${f} } }`, variables: { s: slugs }, root: 'eventsBySlugs' },
      { query: (f: string) => `{ allUpcomingEventsInArea(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180) { ${f} } }`, variables: {}, root: 'allUpcomingEventsInArea' },
      { query: (f: string) => `{ allUpcomingSuperEvents { ${f} } }`, variables: {}, root: 'allUpcomingSuperEvents' },
      { query: (f: string) => `{ changes(pageSize: 1000) { changed { ${f} } } }`, variables: {}, root: 'changes' },
    ];
    for (const path of paths) {
      const [lean, full] = await Promise.all([data<Record<string, unknown>>(path.query(all), path.variables), data<Record<string, unknown>>(path.query(`${all} jsonLd`), path.variables)]);
      const nodesOf = (answer: Record<string, unknown>) => {
        const value = answer[path.root];
        return (path.root === 'changes' ? (value as { changed: Node[] }).changed : value) as Node[];
      };
      expect(nodesOf(lean).length, path.root).toBeGreaterThan(0);
      expect(nodesOf(lean), path.root).toEqual(withoutJsonLd(nodesOf(full)));
    }
  });
});
