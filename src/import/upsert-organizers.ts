import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { fromExcluded } from './from-excluded.js';
import type { CalendarOrganizer } from './import-format.js';
import { statementBatches } from './statement-batches.js';

/** Writes organizers by id. Returns the ids of those written: new ones, and stored ones whose values changed. */
export async function upsertOrganizers(trx: Transaction<Database>, organizers: readonly CalendarOrganizer[]): Promise<string[]> {
  const written: string[] = [];
  for (const batch of statementBatches(organizers, 4)) {
    const rows = await trx
      .insertInto('organizers')
      .values(batch.map((o) => ({ id: o.id, slug: o.slug, name: o.name, website: o.website })))
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet(fromExcluded(['slug', 'name', 'website']))
          // Only an organizer whose values change is rewritten, and returned (change sync).
          .where(sql<boolean>`(organizers.slug, organizers.name, organizers.website) is distinct from (excluded.slug, excluded.name, excluded.website)`),
      )
      .returning('id')
      .execute();
    for (const row of rows) written.push(row.id);
  }
  return written;
}
