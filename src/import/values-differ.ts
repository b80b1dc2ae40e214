import { sql, type RawBuilder } from 'kysely';

/**
 * The condition of an upsert's update: `(table.a, table.b) is distinct from (excluded.a, excluded.b)`, so
 * that a row whose values do not change is neither rewritten nor returned (change sync), nulls compared as
 * values.
 */
export function valuesDiffer(table: string, columns: readonly string[]): RawBuilder<boolean> {
  const stored = sql.join(columns.map((c) => sql.ref(`${table}.${c}`)));
  const given = sql.join(columns.map((c) => sql.ref(`excluded.${c}`)));
  return sql<boolean>`(${stored}) is distinct from (${given})`;
}
