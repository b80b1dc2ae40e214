import { sql, type Kysely } from 'kysely';
import type { CategoryRow, Database, OrganizerRow, VenueRow } from '../database.js';

/**
 * Norwegian collation for catalogue names: æ, ø, å sort after z (ä and ö with æ and ø). ICU
 * collations may be missing (PGlite, minimal servers), so order by a case-folded key that maps them
 * to the three code points after `z`, compared byte-wise (`C`) so no locale ignores them.
 */
const norwegianNameKey = (column: string) =>
  sql`translate(lower(${sql.ref(column)}), 'æøåäöéèáàü', '{|}{|eeaau') collate "C"`;

export async function listCategories(db: Kysely<Database>): Promise<CategoryRow[]> {
  return db.selectFrom('categories').selectAll().orderBy('position').orderBy('id').execute();
}

export async function listVenues(db: Kysely<Database>): Promise<VenueRow[]> {
  return db.selectFrom('venues').selectAll().orderBy(norwegianNameKey('name')).orderBy('id').execute();
}

export async function listOrganizers(db: Kysely<Database>): Promise<OrganizerRow[]> {
  return db.selectFrom('organizers').selectAll().orderBy(norwegianNameKey('name')).orderBy('id').execute();
}

export async function venuesByIds(db: Kysely<Database>, ids: readonly string[]): Promise<VenueRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('venues').selectAll().where('id', 'in', ids).execute();
}

export async function organizersByIds(db: Kysely<Database>, ids: readonly string[]): Promise<OrganizerRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('organizers').selectAll().where('id', 'in', ids).execute();
}
