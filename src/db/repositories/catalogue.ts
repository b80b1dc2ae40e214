import { sql } from 'kysely';

/**
 * Norwegian collation for catalogue names: æ, ø, å sort after z (ä and ö with æ and ø). ICU
 * collations may be missing (PGlite, minimal servers), so order by a case-folded key that maps them
 * to the three code points after `z`, compared byte-wise (`C`) so no locale ignores them.
 */
export const norwegianNameKey = (column: string) =>
  sql`translate(lower(${sql.ref(column)}), 'æøåäöéèáàü', '{|}{|eeaau') collate "C"`;
