import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { fromExcluded } from './from-excluded.js';
import type { CalendarVenue } from './import-format.js';
import { statementBatches } from './statement-batches.js';

/** Writes venues by id. Returns the ids of those written: new ones, and stored ones whose values changed. */
export async function upsertVenues(trx: Transaction<Database>, venues: readonly CalendarVenue[]): Promise<string[]> {
  const written: string[] = [];
  for (const batch of statementBatches(venues, 8)) {
    const rows = await trx
      .insertInto('venues')
      .values(
        batch.map((v) => ({
          id: v.id,
          slug: v.slug,
          name: v.name,
          address: v.address,
          postal_code: v.postalCode,
          municipality: v.municipality,
          latitude: v.location?.latitude ?? null,
          longitude: v.location?.longitude ?? null,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet(fromExcluded(['slug', 'name', 'address', 'postal_code', 'municipality', 'latitude', 'longitude']))
          // Only a venue whose values change is rewritten, and returned (change sync).
          .where(sql<boolean>`(venues.slug, venues.name, venues.address, venues.postal_code, venues.municipality, venues.latitude, venues.longitude) is distinct from (excluded.slug, excluded.name, excluded.address, excluded.postal_code, excluded.municipality, excluded.latitude, excluded.longitude)`),
      )
      .returning('id')
      .execute();
    for (const row of rows) written.push(row.id);
  }
  return written;
}
