import {
  Kind,
  getOperationAST,
  valueFromASTUntyped,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * What one execution of an operation costs a caller's budget (docs/transport.md, "Budgets"): a rough
 * measure of the work it asks for, known before anything runs. Each root field costs 1, plus:
 *
 * - `events`: ceil(pageSize / 20) for its nodes; +2 when `totalCount`, `hasMore` or `pageInfo` is
 *   asked (the whole result is counted); +2 per facet list (`venues`, `organizers`, `categories`);
 *   +3 with a `searchTerm`.
 * - `allUpcomingEventsInArea`: +1 per square degree of the box (missing edges: the whole world), at most +50.
 * - `allUpcomingSuperEvents`: +2 (one unpaged list).
 * - `eventsBySlugs`: ceil(slugs / 20).
 * - `changes`: ceil(pageSize / 100).
 * - `suggest`: +3 with a `searchTerm` in its filter (like `events`); a keystroke otherwise costs 1.
 *
 * `__typename` costs nothing. @skip and @include are not read: a field is charged as if selected.
 */
export function operationCost(document: DocumentNode, operationName: string | null | undefined, variables: Readonly<Record<string, unknown>> | null | undefined): number {
  let cost = 0;
  for (const root of rootFieldsOf(document, operationName ?? undefined)) cost += rootFieldCost(root, variables ?? {});
  return cost;
}

/**
 * What one render of an iCalendar feed (/events.ics) costs: as much as an `events` page with its total
 * and three facets. A feed walks one filter's dates like that page, and most feeds are of one venue,
 * organizer or category; the largest (1 000 dates) is rendered once per cache lifetime.
 */
export const FEED_COST = 10;

/** The most a box may add: the whole world is one unpaged list of every upcoming event with a venue. */
const MAX_AREA_COST = 50;

/** A root field as far as its cost depends on the document alone. */
interface RootField {
  name: string;
  args: readonly ArgumentNode[];
  /** `events`: totals and facets selected on its result. */
  totals: boolean;
  facets: number;
}

/** Per document (the parser cache hands out the same node for the same text) and operation name. */
const rootFieldCache = new WeakMap<DocumentNode, Map<string, readonly RootField[]>>();

function rootFieldsOf(document: DocumentNode, operationName: string | undefined): readonly RootField[] {
  let byName = rootFieldCache.get(document);
  if (!byName) rootFieldCache.set(document, (byName = new Map<string, readonly RootField[]>()));
  const key = operationName ?? '';
  let fields = byName.get(key);
  if (!fields) byName.set(key, (fields = readRootFields(document, operationName)));
  return fields;
}

function readRootFields(document: DocumentNode, operationName: string | undefined): readonly RootField[] {
  const operation = getOperationAST(document, operationName);
  if (!operation) return [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  return fieldsOf(operation.selectionSet, fragments).map((field) => {
    const selected = field.selectionSet ? new Set(fieldsOf(field.selectionSet, fragments).map((f) => f.name.value)) : new Set<string>();
    return {
      name: field.name.value,
      args: field.arguments ?? [],
      totals: selected.has('totalCount') || selected.has('hasMore') || selected.has('pageInfo'),
      facets: ['venues', 'organizers', 'categories'].filter((name) => selected.has(name)).length,
    };
  });
}

/** The fields of a selection set, fragments spread in (each fragment once, so cycles end). */
function fieldsOf(selectionSet: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, seen = new Set<string>()): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) fields.push(...fieldsOf(selection.selectionSet, fragments, seen));
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) fields.push(...fieldsOf(fragment.selectionSet, fragments, seen));
    }
  }
  return fields;
}

/** The value of a root field's argument, variables filled in. */
function argumentReader(field: RootField, variables: Readonly<Record<string, unknown>>): (name: string) => unknown {
  return (name) => {
    const node = field.args.find((a) => a.name.value === name);
    return node ? valueFromASTUntyped(node.value, variables) : undefined;
  };
}

/** The extent of a bounding box along one axis, the whole axis when open. */
function span(min: unknown, max: unknown, whole: number): number {
  return typeof min === 'number' && typeof max === 'number' ? Math.max(0, Math.min(whole, max - min)) : whole;
}

function rootFieldCost(field: RootField, variables: Readonly<Record<string, unknown>>): number {
  if (field.name === '__typename') return 0;
  const arg = argumentReader(field, variables);
  switch (field.name) {
    case 'events':
      return 1 + Math.ceil(positive(arg('pageSize'), 10, 1000) / 20) + (field.totals ? 2 : 0) + 2 * field.facets + searchCost(arg('filter'));
    case 'suggest':
      return 1 + searchCost(arg('filter'));
    case 'allUpcomingEventsInArea': {
      const area = span(arg('minLatitude'), arg('maxLatitude'), 180) * span(arg('minLongitude'), arg('maxLongitude'), 360);
      return 1 + Math.min(MAX_AREA_COST, Math.ceil(area));
    }
    case 'allUpcomingSuperEvents':
      return 3;
    case 'eventsBySlugs': {
      const slugs = arg('eventsSlugs');
      return 1 + Math.ceil((Array.isArray(slugs) ? slugs.length : 1) / 20);
    }
    case 'changes':
      return 1 + Math.ceil(positive(arg('pageSize'), 100, 1000) / 100);
    default:
      return 1;
  }
}

/** What a `searchTerm` in a filter adds: its words are matched in the database. */
function searchCost(filter: unknown): number {
  const searchTerm = typeof filter === 'object' && filter !== null ? (filter as Record<string, unknown>)['searchTerm'] : undefined;
  return typeof searchTerm === 'string' && searchTerm.trim() !== '' ? 3 : 0;
}

/** A page size as the resolver will read it: its default when absent, within 1 and `max` (invalid ones are refused later anyway). */
function positive(value: unknown, fallback: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(1, Math.floor(value)));
}
