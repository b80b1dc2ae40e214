import { sql, type Kysely } from 'kysely';
import type { Database, EventRecord, OccurrenceRow } from '../database.js';

/** Events by id with their category and organizer ids (in the event's order), in one statement. */
export async function eventRecordsByIds(db: Kysely<Database>, ids: readonly string[]): Promise<EventRecord[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('events as e')
    .selectAll('e')
    .select([
      sql<string[]>`coalesce((select array_agg(ec.category_id order by ec.position) from event_categories ec where ec.event_id = e.id), '{}')`.as('category_ids'),
      sql<string[]>`coalesce((select array_agg(eo.organizer_id order by eo.position) from event_organizers eo where eo.event_id = e.id), '{}')`.as('organizer_ids'),
    ])
    .where('e.id', 'in', ids)
    .execute();
}

export async function occurrencesByIds(db: Kysely<Database>, ids: readonly string[]): Promise<OccurrenceRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('occurrences').selectAll().where('id', 'in', ids).execute();
}

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
