import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

/*
 * How a record of the import format (an event, a venue, an organizer) is declared: one entry per key, in
 * the format's order. A stored field (`stored`) is carried through unchanged: import key, validation and
 * default, the column that holds it, the API field that shows it. Everything else follows from that entry:
 * the import schema's key, the writer's column and value, the table's column type, the read model's
 * column lists, the API's getter and the export's value (docs/regenerate.md, "A stored field"). A key
 * with rules of its own (`ownRules`: dates, prices, images, timestamps, references) has its code in
 * each of those places, and each takes the declaration's list of them as a type that fails to compile
 * when one is missing.
 */

/** A field carried through as it is: imported, stored in `column`, shown as API field `api` (null: not shown), exported. */
export interface StoredField<Column extends string = string, Input extends z.ZodType = z.ZodType, Api extends string | null = string | null> {
  readonly kind: 'stored';
  readonly column: Column;
  /** The import format's validation, with the default a file may leave the key out for. */
  readonly input: Input;
  readonly api: Api;
}

/** A key whose import, storage, API and export are code of their own. */
export interface OwnRulesField {
  readonly kind: 'own';
}

export type FieldDeclaration = StoredField | OwnRulesField;
/** A record's keys, in the import format's order. */
export type RecordDeclaration = Readonly<Record<string, FieldDeclaration>>;

export function stored<const Column extends string, Input extends z.ZodType, const Api extends string | null>(
  column: Column,
  input: Input,
  api: Api,
): StoredField<Column, Input, Api> {
  return { kind: 'stored', column, input, api };
}

export const ownRules: OwnRulesField = { kind: 'own' };

/** The keys of a declaration that are stored fields. */
export type StoredKeys<R extends RecordDeclaration> = { [K in keyof R]: R[K] extends StoredField ? K : never }[keyof R] & string;
/** The keys of a declaration with rules of their own. */
export type OwnKeys<R extends RecordDeclaration> = Exclude<keyof R & string, StoredKeys<R>>;

type StoredOf<R extends RecordDeclaration, K extends keyof R> = Extract<R[K], StoredField>;

/** A stored field's value as the import parses it, as the column holds it, and as the API shows it. */
export type StoredValue<R extends RecordDeclaration, K extends keyof R> = z.output<StoredOf<R, K>['input']>;

/** The columns of a record's stored fields. */
export type StoredColumn<R extends RecordDeclaration> = StoredOf<R, StoredKeys<R>>['column'];

/** The table's stored columns, each of the type its import value parses to (db/database.ts extends it). */
export type StoredColumns<R extends RecordDeclaration> = { [K in StoredKeys<R> as StoredOf<R, K>['column']]: StoredValue<R, K> };

/** The API names of the stored fields that are shown. */
export type ShownName<R extends RecordDeclaration> = { [K in StoredKeys<R>]: StoredOf<R, K>['api'] }[StoredKeys<R>] & string;

/** What the API shows of the stored fields: one read-only property per shown field. */
export type ShownValues<R extends RecordDeclaration> = {
  readonly [K in StoredKeys<R> as StoredOf<R, K>['api'] & string]: StoredValue<R, K>;
};

/** For each shown field, the value that holds its column (a map of API names to one-element lists). */
export type ShownColumns<R extends RecordDeclaration> = {
  readonly [K in StoredKeys<R> as StoredOf<R, K>['api'] & string]: readonly [StoredOf<R, K>['column']];
};

/** The import schema's shape: the stored fields' inputs, and `own` for the rest, in the declaration's order. */
export type RecordShape<R extends RecordDeclaration, Own extends Record<OwnKeys<R>, z.ZodType>> = {
  [K in keyof R]: R[K] extends StoredField ? R[K]['input'] : K extends keyof Own ? Own[K] : never;
};

const entriesOf = new WeakMap<RecordDeclaration, { all: [string, FieldDeclaration][]; stored: [string, StoredField][] }>();

/** A declaration's entries, listed once (the writer and the export go through them for every record). */
function entries(record: RecordDeclaration): { all: [string, FieldDeclaration][]; stored: [string, StoredField][] } {
  let listed = entriesOf.get(record);
  if (!listed) {
    const all = Object.entries(record);
    listed = { all, stored: all.filter((entry): entry is [string, StoredField] => entry[1].kind === 'stored') };
    entriesOf.set(record, listed);
  }
  return listed;
}

function storedEntries(record: RecordDeclaration): [string, StoredField][] {
  return entries(record).stored;
}

/** The shape for `z.strictObject`: a stored field's input, or `own[key]` for a key with rules of its own. */
export function recordShape<R extends RecordDeclaration, Own extends Record<OwnKeys<R>, z.ZodType>>(record: R, own: Own): RecordShape<R, Own> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(record)) {
    const input = field.kind === 'stored' ? field.input : (own as Record<string, z.ZodType | undefined>)[key];
    if (!input) throw new Error(`Import key ${key} is declared with rules of its own but given no schema`);
    shape[key] = input;
  }
  return shape as RecordShape<R, Own>;
}

/** The stored fields' columns, in the declaration's order. */
export function storedColumns<R extends RecordDeclaration>(record: R): StoredColumn<R>[] {
  return storedEntries(record).map(([, field]) => field.column as StoredColumn<R>);
}

/** A parsed record's stored values by column: what the writer puts in the row. */
export function storedValues<R extends RecordDeclaration>(record: R, parsed: { readonly [K in StoredKeys<R>]: StoredValue<R, K> }): StoredColumns<R> {
  const row: Record<string, unknown> = {};
  for (const [key, field] of storedEntries(record)) row[field.column] = (parsed as Record<string, unknown>)[key];
  return row as StoredColumns<R>;
}

/** The column each shown field reads (the read model reads only the columns of the fields selected). */
export function shownColumns<R extends RecordDeclaration>(record: R): ShownColumns<R> {
  const columns: Record<string, readonly string[]> = {};
  for (const [, field] of storedEntries(record)) if (field.api !== null) columns[field.api] = [field.column];
  return columns as ShownColumns<R>;
}

/** `value` for every shown field: for the tables of a column kind the shown fields do not read (an event's dates). */
export function everyShownField<R extends RecordDeclaration, V>(record: R, value: V): { readonly [N in ShownName<R>]: V } {
  const fields: Record<string, V> = {};
  for (const [, field] of storedEntries(record)) if (field.api !== null) fields[field.api] = value;
  return fields as { readonly [N in ShownName<R>]: V };
}

/**
 * A base class whose instances show the stored fields as getters over `source(this)` (the row read): the
 * executor reads them as properties, without a resolver call (schema/event-node.ts says why that matters).
 */
export function shownGetters<R extends RecordDeclaration, Self>(record: R, source: (self: Self) => object): abstract new () => ShownValues<R> {
  abstract class Shown {}
  for (const [, field] of storedEntries(record)) {
    if (field.api === null) continue;
    if (!IDENTIFIER.test(field.api) || !IDENTIFIER.test(field.column)) throw new Error(`Not an identifier: ${field.api} / ${field.column}`);
    // One function per field, compiled from source of its own: getters made from one closure share one
    // inline cache, which two dozen column names make megamorphic (reads 4x slower: docs/performance.md,
    // "Fields without resolvers"). The names are the declaration's identifiers, checked above.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const get = new Function('source', `return function get_${field.api}() { return source(this).${field.column}; }`) as (
      read: typeof source,
    ) => (this: Self) => unknown;
    Object.defineProperty(Shown.prototype, field.api, { get: get(source), enumerable: true, configurable: true });
  }
  return Shown as unknown as abstract new () => ShownValues<R>;
}

/** Resolvers for the shown fields whose API name differs from their column (a row type's own properties answer the rest). */
export function renamedFieldResolvers<R extends RecordDeclaration>(
  record: R,
): { [K in StoredKeys<R> as StoredOf<R, K>['api'] extends StoredOf<R, K>['column'] | null ? never : StoredOf<R, K>['api'] & string]: (row: StoredColumns<R>) => StoredValue<R, K> } {
  const resolvers: Record<string, (row: Record<string, unknown>) => unknown> = {};
  for (const [, field] of storedEntries(record)) {
    if (field.api === null || field.api === field.column) continue;
    const column = field.column;
    resolvers[field.api] = (row) => row[column];
  }
  return resolvers as never;
}

/**
 * A stored row as an import record of the format (`Input`: what a file may hold), keys in the declaration's
 * order: stored fields from their columns, the rest from `own`; a value that is the import's default, or
 * undefined, is left out. `own` must name every key with rules of its own (undefined: left out).
 */
export function exportedRecord<R extends RecordDeclaration, Input extends object>(
  record: R,
  row: StoredColumns<R>,
  own: { [K in OwnKeys<R> & keyof Input]-?: Input[K] | undefined },
): Input {
  const exported: Record<string, unknown> = {};
  for (const [key, field] of entries(record).all) {
    const value = field.kind === 'stored' ? (row as Record<string, unknown>)[field.column] : (own as Record<string, unknown>)[key];
    if (value === undefined || (field.kind === 'stored' && isDefaultValue(field.input, value))) continue;
    exported[key] = value;
  }
  return exported as Input;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const defaultTests = new WeakMap<z.ZodType, (value: unknown) => boolean>();

/** Whether `value` is the default `schema` fills in for a missing key (false when it has none). */
export function isDefaultValue(schema: z.ZodType, value: unknown): boolean {
  let test = defaultTests.get(schema);
  if (!test) defaultTests.set(schema, (test = defaultTest(schema)));
  return test(value);
}

/** A test of a value against a schema's default: `===` for a scalar default, emptiness for `[]`, deep otherwise. */
export function defaultTest(schema: z.ZodType): (value: unknown) => boolean {
  if (!(schema instanceof z.ZodDefault)) return () => false;
  const fallback: unknown = schema.def.defaultValue;
  if (fallback === null || typeof fallback !== 'object') return (value) => value === fallback;
  if (Array.isArray(fallback) && fallback.length === 0) return (value) => Array.isArray(value) && value.length === 0;
  return (value) => isDeepStrictEqual(value, fallback);
}
