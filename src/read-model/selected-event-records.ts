import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { EventResolvers } from '../../generated/resolvers-types.js';
import type { Database, EventFields, EventRecord } from '../db/database.js';
import type { CalendarSnapshot } from './calendar-snapshot.js';
import { readAtSnapshotVersion } from './read-at-version.js';
import { StatementsPerColumns } from './statements-per-columns.js';

type EventColumn = keyof EventFields;
type EventFieldName = Exclude<keyof EventResolvers, '__isTypeOf'>;

/**
 * The `events` columns each Event field reads (src/schema/resolvers/Event.ts): none for the fields
 * answered from the promoted date or the snapshot. `null`: every column (jsonLd reads most of the
 * event). Typed over every field of the schema, so a field added to `Event` does not compile until it
 * is listed here.
 */
const COLUMNS_OF_FIELD: Record<EventFieldName, readonly EventColumn[] | null> = {
  id: [],
  event_slug: ['slug'],
  eventLink: ['slug'],
  title_nb: ['title_nb'],
  title_en: ['title_en'],
  desc_nb: ['desc_nb'],
  desc_en: ['desc_en'],
  startDate: [],
  endDate: [],
  startTime: [],
  duration: [],
  categories: [],
  mode: ['mode'],
  tags: ['tags'],
  venue: [],
  organizers: [],
  images: ['images'],
  repetitions: [],
  ticketsInformation: ['tickets_information'],
  prices: ['prices'],
  ticketsURL: [],
  eventCancelled: [],
  eventSoldOut: [],
  isSuperEvent: ['is_super_event'],
  superEventID: ['super_event_id'],
  featured: ['featured'],
  minimumAge: ['minimum_age'],
  maximumAge: ['maximum_age'],
  ageRestriction: ['age_restriction'],
  cancellationPeriod: ['cancellation_period'],
  views: ['views'],
  publishingDate: ['publishing_date'],
  ticketsFromDate: ['tickets_from_date'],
  created_at: ['created_at'],
  updated_at: ['updated_at'],
  registrationEnabled: ['registration_enabled'],
  availableTickets: ['available_tickets'],
  activeTickets: ['active_tickets'],
  maxBookingDate: ['max_booking_date'],
  maxBookingTime: ['max_booking_time'],
  paymentMethod: ['payment_method'],
  distanceKm: [],
  jsonLd: null,
};

/**
 * The columns the selected Event fields read (always `id`), in a stable order; null when every column
 * is needed (jsonLd, or a name this table does not know).
 */
export function eventColumnsFor(fields: ReadonlySet<string>): readonly EventColumn[] | null {
  const columns = new Set<EventColumn>(['id']);
  for (const field of fields) {
    if (field === '__typename') continue;
    const needed = (COLUMNS_OF_FIELD as Partial<Record<string, readonly EventColumn[] | null>>)[field];
    if (needed === undefined || needed === null) return null;
    for (const column of needed) columns.add(column);
  }
  return [...columns].sort();
}

// Same shape as page-records.ts's statement (version joined in, one array parameter), fewer columns.
const eventStatements = new StatementsPerColumns<EventColumn, { version: string | null; id: string | null }>(
  (db, columns) =>
    db
      .selectFrom('calendar_state as cs')
      .leftJoin('events as e', (join) => join.on(sql<boolean>`e.id = any(${[] as string[]}::text[])`))
      .select('cs.version')
      .select(columns.map((column) => `e.${column}` as const))
      .compile() as CompiledQuery<{ version: string | null; id: string | null }>,
);

/**
 * Events by snapshot index with only the given columns, as of the snapshot's version. A whole-world
 * area answer reads tens of thousands of events: reading and parsing every column of each (six
 * timestamps, descriptions, two JSON documents) was the largest part of its cost, for fields a map
 * rarely shows. The records are partial: only the fields whose columns were read may be resolved,
 * which is what `eventColumnsFor` guarantees for the operation being executed.
 */
export async function selectedEventRecordsAt(
  db: Kysely<Database>,
  snapshot: CalendarSnapshot,
  events: readonly number[],
  columns: readonly EventColumn[],
): Promise<Map<number, EventRecord>> {
  const records = new Map<number, EventRecord>();
  if (events.length === 0) return records;
  const compiled = eventStatements.of(db, columns);
  const ids = events.map((e) => snapshot.eventIds[e]!);
  const rows = await readAtSnapshotVersion(snapshot, async () => (await db.executeQuery(CompiledQuery.raw(compiled.sql, [ids]) as typeof compiled)).rows);
  const eventById = new Map(events.map((e) => [snapshot.eventIds[e]!, e]));
  const { eventCategories, eventOrganizers, categoryIds, organizerIds } = snapshot;
  for (const row of rows) {
    if (row.id == null) continue;
    const event = eventById.get(row.id);
    if (event === undefined) continue;
    const categories: string[] = [];
    for (let k = eventCategories.offsets[event]!; k < eventCategories.offsets[event + 1]!; k++) categories.push(categoryIds[eventCategories.values[k]!]!);
    const organizers: string[] = [];
    for (let k = eventOrganizers.offsets[event]!; k < eventOrganizers.offsets[event + 1]!; k++) organizers.push(organizerIds[eventOrganizers.values[k]!]!);
    // Partial on purpose (see above): the columns not read are absent, and their fields are not asked.
    // The row itself becomes the record (its `version` left on it, unread): a copy of each of a
    // thousand rows would be as many objects more for the young generation to collect.
    const record = row as unknown as EventRecord;
    record.category_ids = categories;
    record.organizer_ids = organizers;
    records.set(event, record);
  }
  return records;
}
