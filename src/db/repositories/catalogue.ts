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

/** The data version (`calendar_state.version`), raised by every import. */
export async function readDataVersion(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('calendar_state').select('version').executeTakeFirstOrThrow();
  return String(row.version);
}

/** Every venue, organizer and category, and the data version they are at least as new as. */
export interface CatalogueRows {
  version: string;
  venues: VenueRow[];
  organizers: OrganizerRow[];
  categories: CategoryRow[];
}

export async function readCatalogue(db: Kysely<Database>): Promise<CatalogueRows> {
  // The version first: the tables, read after it, hold that version's data or a newer one's.
  const version = await readDataVersion(db);
  const [venues, organizers, categories] = await Promise.all([
    db.selectFrom('venues').selectAll().execute(),
    db.selectFrom('organizers').selectAll().execute(),
    listCategories(db),
  ]);
  return { version, venues, organizers, categories };
}
