import type { Kysely } from 'kysely';
import type { Database, OccurrenceRow } from '../database.js';

/** Dates of these events that have not ended at `now`, chronological: the source of `repetitions`. */
export async function upcomingOccurrencesByEventIds(db: Kysely<Database>, eventIds: readonly string[], now: Date): Promise<OccurrenceRow[]> {
  if (eventIds.length === 0) return [];
  return db
    .selectFrom('occurrences')
    .selectAll()
    .where('event_id', 'in', eventIds)
    .where('ends_at', '>', now)
    .orderBy('event_id')
    .orderBy('start_at')
    .orderBy('id')
    .execute();
}
