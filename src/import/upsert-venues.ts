import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { VENUE_FIELDS } from '../fields/calendar-fields.js';
import { storedColumns, storedValues } from '../fields/field-declaration.js';
import { fromExcluded } from './from-excluded.js';
import type { CalendarVenue } from './import-format.js';
import { statementBatches } from './statement-batches.js';
import { valuesDiffer } from './values-differ.js';

/** The columns an upsert replaces: every one but the id. */
const UPDATED_COLUMNS = [...storedColumns(VENUE_FIELDS).filter((c) => c !== 'id'), 'latitude', 'longitude'] as const;

/** Writes venues by id. Returns the ids of those written: new ones, and stored ones whose values changed. */
export async function upsertVenues(trx: Transaction<Database>, venues: readonly CalendarVenue[]): Promise<string[]> {
  const written: string[] = [];
  for (const batch of statementBatches(venues, 8)) {
    const rows = await trx
      .insertInto('venues')
      .values(
        batch.map((v) => ({
          ...storedValues(VENUE_FIELDS, v),
          latitude: v.location?.latitude ?? null,
          longitude: v.location?.longitude ?? null,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet(fromExcluded(UPDATED_COLUMNS))
          // Only a venue whose values change is rewritten, and returned (change sync).
          .where(valuesDiffer('venues', UPDATED_COLUMNS)),
      )
      .returning('id')
      .execute();
    for (const row of rows) written.push(row.id);
  }
  return written;
}
