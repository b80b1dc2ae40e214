import { sql, type Kysely } from 'kysely';
import type { Database, EventFields, EventRecord, OccurrenceRow } from '../database.js';

/** Every column of `events` but `search_text` (the descriptions again, folded): never shown. */
const EVENT_FIELDS = [
  'id', 'slug', 'title_nb', 'title_en', 'desc_nb', 'desc_en', 'mode', 'tags', 'venue_id', 'is_super_event',
  'super_event_id', 'featured', 'featured_special_event', 'tickets_information', 'tickets_url', 'prices', 'images',
  'event_cancelled', 'event_sold_out', 'minimum_age', 'maximum_age', 'age_restriction', 'cancellation_period', 'views',
  'publishing_date', 'tickets_from_date', 'created_at', 'updated_at', 'registration_enabled', 'available_tickets',
  'active_tickets', 'max_booking_date', 'max_booking_time', 'payment_method', 'last_ends_at',
] as const satisfies readonly (keyof EventFields)[];

// Fails to compile when a column is added to `events` but not to the list above.
type MissingEventFields = Exclude<keyof EventFields, (typeof EVENT_FIELDS)[number]>;
const everyEventField: [MissingEventFields] extends [never] ? true : MissingEventFields = true;
void everyEventField;

/** Events by id with their category and organizer ids (in the event's order), in one statement. */
export async function eventRecordsByIds(db: Kysely<Database>, ids: readonly string[]): Promise<EventRecord[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('events as e')
    .select(EVENT_FIELDS.map((column) => `e.${column}` as const))
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
