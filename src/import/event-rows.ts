import type { Database } from '../db/database.js';
import { osloWallClock } from '../domain/oslo-time.js';
import { readImportTimestamp, type CalendarEvent } from './import-format.js';

// "An event without an end time counts as ongoing until three hours after its start."
const NO_END_ONGOING_MS = 3 * 60 * 60 * 1000;

/** A value as it travels inside a JSON batch parameter. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue | undefined };

export const EVENT_COLUMNS = [
  'id', 'slug', 'title_nb', 'title_en', 'desc_nb', 'desc_en', 'mode', 'tags', 'venue_id', 'is_super_event', 'super_event_id',
  'featured', 'featured_special_event', 'tickets_information', 'tickets_url', 'prices', 'images', 'event_cancelled',
  'event_sold_out', 'minimum_age', 'maximum_age', 'age_restriction', 'cancellation_period', 'views', 'publishing_date',
  'tickets_from_date', 'created_at', 'updated_at', 'registration_enabled', 'available_tickets', 'active_tickets',
  'max_booking_date', 'max_booking_time', 'payment_method', 'search_text', 'last_ends_at',
] as const satisfies readonly (keyof Database['events'])[];
export type EventColumn = (typeof EVENT_COLUMNS)[number];

export const OCCURRENCE_COLUMNS = [
  'event_id', 'position', 'start_at', 'end_at', 'ends_at', 'start_time', 'local_minute', 'local_day', 'duration', 'venue_id',
  'tickets_url', 'cancelled', 'sold_out', 'prices', 'publishing_date',
] as const satisfies readonly (keyof Database['occurrences'])[];
export type OccurrenceColumn = (typeof OCCURRENCE_COLUMNS)[number];

export interface EventRows {
  id: string;
  /** `search_text` holds the text to fold; created_at/updated_at are null when the file leaves them out. */
  event: Record<EventColumn, JsonValue>;
  keepsCreatedAt: boolean;
  keepsUpdatedAt: boolean;
  occurrences: Record<OccurrenceColumn, JsonValue>[];
}

function timestamp(value: string): Date {
  const instant = readImportTimestamp(value);
  // Validation has read every timestamp already; reaching this is a bug, not bad input.
  if (!instant) throw new Error(`Unreadable timestamp after validation: ${value}`);
  return instant;
}

function optionalTimestamp(value: string | null): Date | null {
  return value === null ? null : timestamp(value);
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** Description text without markup: tags become spaces so words either side stay apart. */
function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => HTML_ENTITIES[name] ?? '');
}

/** The text `search_text` folds (in SQL, with the database's own unaccent). */
function searchSource(event: CalendarEvent): string {
  const parts = [event.title_nb, event.title_en, event.desc_nb && plainText(event.desc_nb), event.desc_en && plainText(event.desc_en), ...event.tags];
  return parts
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const iso = (instant: Date): string => instant.toISOString();

/** The row of an event and the rows of its dates, with everything the loader derives (docs/import-format.md). */
export function eventRows(event: CalendarEvent): EventRows {
  const optionalIso = (value: string | null | undefined): string | null => (value == null ? null : iso(timestamp(value)));
  const publishingDate = optionalIso(event.publishingDate);
  let lastEndsAt = 0;
  const occurrences = event.dates.map((date, position): Record<OccurrenceColumn, JsonValue> => {
    const start = timestamp(date.start);
    const end = optionalTimestamp(date.end);
    const hasEnd = end !== null && end.getTime() > start.getTime();
    const endsAt = hasEnd ? end : new Date(start.getTime() + NO_END_ONGOING_MS);
    lastEndsAt = Math.max(lastEndsAt, endsAt.getTime());
    const clock = osloWallClock(start);
    return {
      event_id: event.id,
      position,
      start_at: iso(start),
      // "null or equal to start: an event without an end time"
      end_at: hasEnd ? iso(end) : null,
      ends_at: iso(endsAt),
      start_time: date.startTime ?? clock.time,
      local_minute: clock.minuteOfDay,
      local_day: clock.date,
      duration: date.duration,
      venue_id: date.venue ?? event.venue,
      tickets_url: date.ticketsURL ?? event.ticketsURL,
      cancelled: date.cancelled ?? event.eventCancelled,
      sold_out: date.soldOut ?? event.eventSoldOut,
      prices: date.prices,
      publishing_date: publishingDate,
    };
  });
  return {
    id: event.id,
    event: {
      id: event.id,
      slug: event.slug,
      title_nb: event.title_nb,
      title_en: event.title_en,
      desc_nb: event.desc_nb,
      desc_en: event.desc_en,
      mode: event.mode,
      tags: event.tags,
      venue_id: event.venue,
      is_super_event: event.isSuperEvent,
      super_event_id: event.superEvent,
      featured: event.featured,
      featured_special_event: event.featuredSpecialEvent,
      tickets_information: event.ticketsInformation,
      tickets_url: event.ticketsURL,
      // Raw organizer input, exactly as given.
      prices: event.prices,
      images: event.images,
      event_cancelled: event.eventCancelled,
      event_sold_out: event.eventSoldOut,
      minimum_age: event.minimumAge,
      maximum_age: event.maximumAge,
      age_restriction: event.ageRestriction,
      cancellation_period: event.cancellationPeriod,
      views: event.views,
      publishing_date: publishingDate,
      tickets_from_date: optionalIso(event.ticketsFromDate),
      created_at: optionalIso(event.created_at),
      updated_at: optionalIso(event.updated_at),
      registration_enabled: event.registrationEnabled,
      available_tickets: event.availableTickets,
      active_tickets: event.activeTickets,
      max_booking_date: event.maxBookingDate,
      max_booking_time: event.maxBookingTime,
      payment_method: event.paymentMethod,
      search_text: searchSource(event),
      last_ends_at: iso(new Date(lastEndsAt)),
    },
    keepsCreatedAt: event.created_at === undefined,
    keepsUpdatedAt: event.updated_at === undefined,
    occurrences,
  };
}
