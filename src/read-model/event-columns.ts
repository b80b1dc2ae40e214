import type { Event } from '../../generated/schema-types.js';
import type { EventFields } from '../db/database.js';

export type EventColumn = keyof EventFields;
type EventFieldName = Exclude<keyof Event, '__typename'>;

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
 * is needed (jsonLd, or a name this table does not know). A whole-world area answer reads tens of
 * thousands of events: reading and parsing every column of each (six timestamps, descriptions, two
 * JSON documents) was the largest part of its cost, for fields a map rarely shows. The records read
 * (event-records.ts) are then partial: only the fields whose columns were read may be resolved.
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
