import { sql, type RawBuilder } from 'kysely';

/**
 * `col = excluded.col` for each column: an upsert replaces the stored values with the file's.
 * `excluded.col` has the column's own type by definition, hence `never` (assignable to any column).
 */
export function fromExcluded<C extends string>(columns: readonly C[]): Record<C, RawBuilder<never>> {
  return Object.fromEntries(columns.map((c) => [c, sql.ref<never>(`excluded.${c}`)])) as Record<C, RawBuilder<never>>;
}
