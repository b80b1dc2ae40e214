import { sql, type RawBuilder } from 'kysely';
import type { BulkTable } from './defer-constraints-and-indexes.js';
import type { JsonValue } from './event-rows.js';

/**
 * Inserts a batch of rows sent as ONE JSON parameter and expanded by PostgreSQL
 * (`json_populate_recordset` converts each field to its column's type). Thousands of rows with
 * dozens of columns would otherwise need tens of thousands of bind parameters (the limit is 65535),
 * which both drivers, and PGlite above all, handle far more slowly than one string.
 */
export function insertJsonRows<C extends string>(
  table: BulkTable,
  columns: readonly C[],
  rows: readonly Record<C, JsonValue>[],
  options: { select?: Partial<Record<C, RawBuilder<unknown>>>; onConflict?: RawBuilder<unknown> } = {},
): RawBuilder<unknown>[] {
  if (rows.length === 0) return [];
  const selected = columns.map((c) => options.select?.[c] ?? sql.ref(`r.${c}`));
  // A field left out of the JSON reads as null: leaving the nulls out shortens the parameter by a fifth.
  const compact = rows.map((row) => {
    const out: Partial<Record<C, JsonValue>> = {};
    for (const column of columns) if (row[column] !== null) out[column] = row[column];
    return out;
  });
  return [
    sql`
      insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
      select ${sql.join(selected)}
      from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(compact)}::json) as r
      ${options.onConflict ?? sql``}
    `,
  ];
}
