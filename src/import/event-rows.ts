import type { Database } from '../db/database.js';
import { osloWallClock } from '../domain/oslo-time.js';
import { EVENT_FIELDS } from '../fields/calendar-fields.js';
import { storedColumns, storedValues } from '../fields/field-declaration.js';
import { readImportTimestamp, type CalendarEvent } from './import-format.js';

// "An event without an end time counts as ongoing until three hours after its start."
const NO_END_ONGOING_MS = 3 * 60 * 60 * 1000;

/** A value as it travels inside a JSON batch parameter. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue | undefined };

/** Every column of `events`: the stored fields' (src/fields/calendar-fields.ts), then those of the keys with rules of their own. */
export const EVENT_COLUMNS = [
  ...storedColumns(EVENT_FIELDS),
  ...(['venue_id', 'tickets_url', 'prices', 'images', 'event_cancelled', 'event_sold_out', 'publishing_date', 'tickets_from_date',
    'created_at', 'updated_at', 'search_text', 'last_ends_at'] as const),
] satisfies readonly (keyof Database['events'])[];
export type EventColumn = (typeof EVENT_COLUMNS)[number];

export const OCCURRENCE_COLUMNS = [
  'event_id', 'position', 'start_at', 'end_at', 'ends_at', 'start_time', 'local_minute', 'local_day', 'duration', 'venue_id',
  'tickets_url', 'cancelled', 'sold_out', 'prices', 'publishing_date',
] as const satisfies readonly (keyof Database['occurrences'])[];
export type OccurrenceColumn = (typeof OCCURRENCE_COLUMNS)[number];

// Fail to compile when a table gains a column the writer does not write (it would stay null for ever).
type UnwrittenEventColumns = Exclude<keyof Database['events'], EventColumn>;
type UnwrittenDateColumns = Exclude<keyof Database['occurrences'], OccurrenceColumn | 'id'>;
const everyEventColumnWritten: [UnwrittenEventColumns] extends [never] ? true : UnwrittenEventColumns = true;
const everyDateColumnWritten: [UnwrittenDateColumns] extends [never] ? true : UnwrittenDateColumns = true;
void everyEventColumnWritten;
void everyDateColumnWritten;

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
      ...storedValues(EVENT_FIELDS, event),
      venue_id: event.venue,
      tickets_url: event.ticketsURL,
      // Raw organizer input, exactly as given.
      prices: event.prices,
      images: event.images,
      event_cancelled: event.eventCancelled,
      event_sold_out: event.eventSoldOut,
      publishing_date: publishingDate,
      tickets_from_date: optionalIso(event.ticketsFromDate),
      created_at: optionalIso(event.created_at),
      updated_at: optionalIso(event.updated_at),
      search_text: searchSource(event),
      last_ends_at: iso(new Date(lastEndsAt)),
    },
    keepsCreatedAt: event.created_at === undefined,
    keepsUpdatedAt: event.updated_at === undefined,
    occurrences,
  };
}
