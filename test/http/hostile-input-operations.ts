import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

/**
 * Operations that put a hostile string into every string argument the schema has, generated from the
 * schema itself (introspected from the running service), so an argument added later is covered
 * without touching the test: root-field arguments, string fields of input objects (`Filter`, at any
 * depth) and arguments of fields deeper in the graph (`Event.jsonLd(lan)`), reached through a path of
 * fields from `Query`.
 */

/** Where one string goes: an argument, or a field inside an input-object argument. */
export interface StringSlot {
  /** `Query.events(filter.searchTerm)`: for test names and failure messages. */
  label: string;
  /** Builds the operation with the value either as a variable or inlined as a literal. */
  operation(value: string, form: 'variable' | 'literal'): { query: string; variables?: Record<string, unknown> };
}

/** A value no argument rejects for its shape, for required arguments other than the one under test. */
function benignValue(type: GraphQLInputType, name: string): unknown {
  if (isNonNullType(type)) return benignValue(type.ofType, name);
  if (isListType(type)) return [benignValue(type.ofType, name)];
  if (isEnumType(type)) return type.getValues()[0]!.value;
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) if (isNonNullType(field.type)) value[field.name] = benignValue(field.type, field.name);
    return value;
  }
  if (isScalarType(type)) {
    if (type.name === 'Int' || type.name === 'Float') return 0;
    if (type.name === 'Boolean') return false;
    // `lan` takes `nb` or `en`; anything else is a fine string too (it may be answered BAD_USER_INPUT).
    return name === 'lan' ? 'nb' : 'x';
  }
  return null;
}

/** A GraphQL literal of a JSON value (strings through JSON.stringify, whose escapes GraphQL shares). */
function literal(value: unknown, type: GraphQLInputType): string {
  if (isNonNullType(type)) return literal(value, type.ofType);
  if (value === null) return 'null';
  if (isListType(type)) return `[${(value as unknown[]).map((v) => literal(v, type.ofType)).join(', ')}]`;
  // An enum value is its name, a string.
  if (isEnumType(type)) return value as string;
  if (isInputObjectType(type)) {
    const fields = type.getFields();
    return `{ ${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}: ${literal(v, fields[k]!.type)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

const isStringType = (type: GraphQLInputType) => {
  const named = getNamedType(type);
  return isScalarType(named) && (named.name === 'String' || named.name === 'ID');
};

/** The string as the argument's type takes it: itself, or in a one-entry list. */
const asArgumentValue = (type: GraphQLInputType, value: string): unknown => {
  const inner = isNonNullType(type) ? type.ofType : type;
  return isListType(inner) ? [value] : value;
};

/** Paths to a string inside an input type: `[]` is the value itself; `['searchTerm']` a field of it. */
function stringPaths(type: GraphQLInputType, depth = 0): { path: string[]; type: GraphQLInputType }[] {
  if (isStringType(type)) return [{ path: [], type }];
  const named = getNamedType(type);
  if (!isInputObjectType(named) || depth > 3) return [];
  return Object.values(named.getFields()).flatMap((field) =>
    stringPaths(field.type, depth + 1).map((found) => ({ path: [field.name, ...found.path], type: found.type })),
  );
}

function withPath(path: string[], leaf: unknown, base: Record<string, unknown>): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  return { ...base, [head!]: withPath(rest, leaf, {}) };
}

/** Scalar fields whose arguments are all optional: what the operation selects of an object. */
function leafSelection(type: GraphQLObjectType): string {
  const leaves = Object.values(type.getFields()).filter((f) => isLeafType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type)));
  return `{ __typename ${leaves.map((f) => f.name).join(' ')} }`;
}

/** `name(arg: value, ...)` for the required arguments, filled with benign values, plus `extra`. */
function fieldCall(field: GraphQLField<unknown, unknown>, extra: string[] = [], skip?: string): string {
  const args = field.args.filter((a) => a.name !== skip && isNonNullType(a.type)).map((a) => `${a.name}: ${literal(benignValue(a.type, a.name), a.type)}`);
  const all = [...args, ...extra];
  return all.length > 0 ? `${field.name}(${all.join(', ')})` : field.name;
}

type FieldPath = GraphQLField<unknown, unknown>[];

/**
 * Field paths from Query to every object type: every path (up to three fields, no type twice)
 * through fields without required arguments, so that a nested argument is tried where the fixture
 * has data (`events.data` finds events; `allUpcomingSuperEvents` may find none, and then nothing
 * below it resolves). A type only reachable through a required argument gets its shortest such path.
 */
function pathsFromQuery(schema: GraphQLSchema): Map<GraphQLObjectType, FieldPath[]> {
  const query = schema.getQueryType()!;
  const paths = new Map<GraphQLObjectType, FieldPath[]>([[query, [[]]]]);
  const free = (field: GraphQLField<unknown, unknown>) => field.args.every((a) => !isNonNullType(a.type));
  const walk = (type: GraphQLObjectType, path: FieldPath, seen: Set<GraphQLObjectType>) => {
    if (path.length >= 3) return;
    for (const field of Object.values(type.getFields())) {
      const target = getNamedType(field.type);
      if (!free(field) || !isObjectType(target) || seen.has(target) || target.name.startsWith('__')) continue;
      const next = [...path, field];
      paths.set(target, [...(paths.get(target) ?? []), next]);
      walk(target, next, new Set([...seen, target]));
    }
  };
  walk(query, [], new Set([query]));
  const queue: GraphQLObjectType[] = [...paths.keys()];
  while (queue.length > 0) {
    const type = queue.shift()!;
    for (const field of Object.values(type.getFields())) {
      const target = getNamedType(field.type);
      if (!isObjectType(target) || paths.has(target) || target.name.startsWith('__')) continue;
      paths.set(target, [[...paths.get(type)![0]!, field]]);
      queue.push(target);
    }
  }
  return paths;
}

/** Every place a string argument value can go in the schema. */
export function stringSlots(schema: GraphQLSchema): StringSlot[] {
  const slots: StringSlot[] = [];
  for (const [type, paths] of pathsFromQuery(schema)) {
    for (const path of paths) {
      for (const field of Object.values(type.getFields())) {
        for (const arg of field.args) {
          for (const inside of stringPaths(arg.type)) slots.push(slotFor(path, field, arg, inside.path, inside.type));
        }
      }
    }
  }
  return slots;
}

function slotFor(path: GraphQLField<unknown, unknown>[], field: GraphQLField<unknown, unknown>, arg: GraphQLArgument, inside: string[], leafType: GraphQLInputType): StringSlot {
  const target = getNamedType(field.type);
  const selection = isObjectType(target) ? ` ${leafSelection(target)}` : '';
  const wrap = (call: string) => path.reduceRight((inner, outer) => `${fieldCall(outer)} { ${inner} }`, `${call}${selection}`);
  const base = isInputObjectType(getNamedType(arg.type)) ? ((benignValue(arg.type, arg.name) as Record<string, unknown> | null) ?? {}) : {};
  const valueOf = (value: string) => withPath(inside, asArgumentValue(leafType, value), base);
  // The variable has the argument's own type (`String!`, `[String]!`, `Filter`).
  const typeName = String(arg.type);
  return {
    label: `${['Query', ...path.map((f) => f.name)].join('.')}.${field.name}(${[arg.name, ...inside].join('.')})`,
    operation(value, form) {
      if (form === 'variable') {
        return { query: `query Hostile($v: ${typeName}) { ${wrap(fieldCall(field, [`${arg.name}: $v`], arg.name))} }`, variables: { v: valueOf(value) } };
      }
      return { query: `{ ${wrap(fieldCall(field, [`${arg.name}: ${literal(valueOf(value), arg.type)}`], arg.name))} }` };
    },
  };
}
