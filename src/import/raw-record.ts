/*
 * A record of the file as written, whether or not it passed its schema. The reference and slug
 * checks read these fields even from a record with schema problems, so that one pass reports every
 * problem; a field of the wrong type was already reported by the schema and is simply skipped.
 */

export type RawRecord = Record<string, unknown>;

/** A record of a list, with its position in it. */
export interface RawItem {
  index: number;
  record: RawRecord;
}

export function isRawRecord(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field of a raw record; anything else was already reported by the schema. */
export function text(record: RawRecord, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

/** The string entries of a raw list field, with their positions. */
export function texts(record: RawRecord, key: string): [index: number, value: string][] {
  const value = record[key];
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: unknown, i): [number, string][] => (typeof v === 'string' ? [[i, v]] : []));
}

/** The object entries of a raw list field, with their positions. */
export function records(record: RawRecord, key: string): RawItem[] {
  const value = record[key];
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: unknown, index): RawItem[] => (isRawRecord(v) ? [{ index, record: v }] : []));
}
