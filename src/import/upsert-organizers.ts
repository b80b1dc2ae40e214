import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { ORGANIZER_FIELDS } from '../fields/calendar-fields.js';
import { storedColumns, storedValues } from '../fields/field-declaration.js';
import { fromExcluded } from './from-excluded.js';
import type { CalendarOrganizer } from './import-format.js';
import { statementBatches } from './statement-batches.js';
import { valuesDiffer } from './values-differ.js';

/** The columns an upsert replaces: every one but the id. */
const UPDATED_COLUMNS = storedColumns(ORGANIZER_FIELDS).filter((c) => c !== 'id');

/** Writes organizers by id. Returns the ids of those written: new ones, and stored ones whose values changed. */
export async function upsertOrganizers(trx: Transaction<Database>, organizers: readonly CalendarOrganizer[]): Promise<string[]> {
  const written: string[] = [];
  for (const batch of statementBatches(organizers, 4)) {
    const rows = await trx
      .insertInto('organizers')
      .values(batch.map((o) => storedValues(ORGANIZER_FIELDS, o)))
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet(fromExcluded(UPDATED_COLUMNS))
          // Only an organizer whose values change is rewritten, and returned (change sync).
          .where(valuesDiffer('organizers', UPDATED_COLUMNS)),
      )
      .returning('id')
      .execute();
    for (const row of rows) written.push(row.id);
  }
  return written;
}
