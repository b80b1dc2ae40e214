import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DeprecatedUses, deprecatedCoordinates } from '../../src/schema/deprecated-uses.js';

// Every kind of deprecation, written for the rules under test (the service's own schema has one: Filter.sortBy).
const schema = buildSchema(`
  type Query {
    events(filter: Filter, sortBy: String @deprecated(reason: "ignored"), when: When): [Event]
    oldEvents: [Event] @deprecated(reason: "use events")
    node: Node
  }
  interface Node { id: ID! legacyId: ID @deprecated(reason: "id") }
  type Event implements Node { id: ID! legacyId: ID @deprecated(reason: "id") title: String oldTitle: String @deprecated(reason: "title") }
  input Filter { sortBy: String @deprecated(reason: "ignored") near: Near whens: [When!] nested: [Filter] title: String }
  input Near { radius: Float miles: Float @deprecated(reason: "kilometres") }
  enum When { TODAY YESTERDAY @deprecated(reason: "past dates are never listed") }
`);

function usesOf(text: string, variables?: Record<string, unknown>, operationName?: string, uses = new DeprecatedUses()) {
  const document = parse(text);
  // Only valid operations execute.
  expect(validate(schema, document)).toEqual([]);
  return uses.usesOf(schema, document, operationName, variables);
}

describe('deprecated uses: what the document says', () => {
  it('finds nothing in an operation without deprecated parts', () => {
    expect(usesOf('{ events(filter: { title: "x" }) { title } }')).toEqual([]);
    // The name in a string or a variable's name is not the input field.
    expect(usesOf('query ($sortBy: String) { events(filter: { title: $sortBy }) { title } }', { sortBy: 'sortBy' })).toEqual([]);
  });

  it('finds an input field set in the text, set to null too (a removal would make the document invalid)', () => {
    expect(usesOf('{ events(filter: { sortBy: "date" }) { title } }')).toEqual(['Filter.sortBy']);
    expect(usesOf('{ events(filter: { sortBy: null }) { title } }')).toEqual(['Filter.sortBy']);
    expect(usesOf('{ events(filter: { nested: [{ near: { miles: 2 } }] }) { title } }')).toEqual(['Near.miles']);
  });

  it('finds deprecated arguments, fields (through interfaces) and enum values', () => {
    expect(usesOf('{ events(sortBy: "date") { id } }')).toEqual(['Query.events(sortBy:)']);
    expect(usesOf('{ events(when: YESTERDAY, filter: { whens: [TODAY, YESTERDAY] }) { id } }')).toEqual(['When.YESTERDAY']);
    expect(usesOf('{ oldEvents { oldTitle } node { legacyId ... on Event { legacyId } } }')).toEqual([
      'Event.legacyId',
      'Event.oldTitle',
      'Node.legacyId',
      'Query.oldEvents',
    ]);
  });

  it('counts the fragments the executed operation spreads, not those of another operation', () => {
    const text = `
      query A { events { ...Card } }
      query B { events { id } }
      fragment Card on Event { title ...Old }
      fragment Old on Event { oldTitle }`;
    expect(usesOf(text, undefined, 'A')).toEqual(['Event.oldTitle']);
    expect(usesOf(text, undefined, 'B')).toEqual([]);
  });

  it("counts a variable's default value as the document's own", () => {
    expect(usesOf('query ($f: Filter = { sortBy: "date" }) { events(filter: $f) { id } }')).toEqual(['Filter.sortBy']);
  });
});

describe('deprecated uses: what the variables set', () => {
  const page = 'query Page($filter: Filter, $when: When) { events(filter: $filter, when: $when) { id } }';

  it('finds an input field set through a variable, and only when it is set', () => {
    expect(usesOf(page, { filter: { sortBy: 'date' } })).toEqual(['Filter.sortBy']);
    expect(usesOf(page, { filter: { sortBy: null } })).toEqual(['Filter.sortBy']);
    expect(usesOf(page, { filter: { title: 'x' } })).toEqual([]);
    expect(usesOf(page, { filter: null })).toEqual([]);
    expect(usesOf(page)).toEqual([]);
  });

  it('looks into nested input objects, lists and single values given for lists', () => {
    expect(usesOf(page, { filter: { nested: [{ near: { radius: 1 } }, { near: { miles: 3 } }] } })).toEqual(['Near.miles']);
    expect(usesOf(page, { filter: { whens: ['TODAY', 'YESTERDAY'] } })).toEqual(['When.YESTERDAY']);
    expect(usesOf(page, { filter: { whens: 'YESTERDAY' } })).toEqual(['When.YESTERDAY']);
    expect(usesOf(page, { when: 'YESTERDAY', filter: { sortBy: 'x', nested: { sortBy: 'y' } } })).toEqual(['Filter.sortBy', 'When.YESTERDAY']);
  });

  it('adds what the variables set to what the text uses, each coordinate once', () => {
    const text = 'query ($f: Filter) { oldEvents { id } events(filter: $f) { id } again: events(filter: { sortBy: "x" }) { id } }';
    expect(usesOf(text, { f: { sortBy: 'date' } })).toEqual(['Filter.sortBy', 'Query.oldEvents']);
  });

  it('decides once per document: the same document gives the same answer object when no variable can add to it', () => {
    const uses = new DeprecatedUses();
    const document = parse('query ($title: String) { oldEvents { id } events(filter: { title: $title }) { id } }');
    const first = uses.usesOf(schema, document, undefined, { title: 'a' });
    expect(first).toEqual(['Query.oldEvents']);
    expect(uses.usesOf(schema, document, undefined, { title: 'b' })).toBe(first);
  });
});

describe('deprecatedCoordinates', () => {
  it("lists every deprecated coordinate of a schema, sorted", () => {
    expect(deprecatedCoordinates(schema)).toEqual([
      'Event.legacyId',
      'Event.oldTitle',
      'Filter.sortBy',
      'Near.miles',
      'Node.legacyId',
      'Query.events(sortBy:)',
      'Query.oldEvents',
      'When.YESTERDAY',
    ]);
  });
});
