import type { Event } from '../../../generated/schema-types.js';
import { EVENT_FIELDS } from '../../fields/calendar-fields.js';
import { everyShownField } from '../../fields/field-declaration.js';

/**
 * The `occurrences` columns that only the database holds of what a node's date fields and its
 * repetitions show: the snapshot already has each date's id, start, end, venue and cancelled and
 * sold-out marks (of the same data version), so those are never read again. Left out too: what
 * only filters and the importer read (`ends_at`, `local_minute`, `local_day`, `publishing_date`,
 * `position`, `event_id`).
 */
export type DateColumn = 'start_time' | 'duration' | 'tickets_url' | 'prices';

const EVERY_DATE_COLUMN: readonly DateColumn[] = ['duration', 'prices', 'start_time', 'tickets_url'];

type EventFieldName = Exclude<keyof Event, '__typename'>;

/**
 * The date columns each Event field reads beyond the snapshot (src/schema/resolvers/Event.ts).
 * `null`: every column (the field shows whole dates: `repetitions` lists them with every Repetition
 * field; jsonLd reads most of the date). Typed over every field of the schema, like the event
 * columns' table (event-columns.ts). The event's stored fields (src/fields/calendar-fields.ts) read none.
 */
const DATE_COLUMNS_OF_FIELD: Record<EventFieldName, readonly DateColumn[] | null> = {
  ...everyShownField(EVENT_FIELDS, []),
  eventLink: [],
  startDate: [],
  endDate: [],
  startTime: ['start_time'],
  duration: ['duration'],
  categories: [],
  venue: [],
  organizers: [],
  images: [],
  repetitions: null,
  prices: [],
  ticketsURL: ['tickets_url'],
  eventCancelled: [],
  eventSoldOut: [],
  publishingDate: [],
  ticketsFromDate: [],
  created_at: [],
  updated_at: [],
  distanceKm: [],
  jsonLd: null,
};

/**
 * The date columns the selected Event fields read, in a stable order (none: the dates come from
 * the snapshot alone); null when a name is not an Event field this table knows.
 */
export function dateColumnsFor(fields: ReadonlySet<string>): readonly DateColumn[] | null {
  const columns = new Set<DateColumn>();
  for (const field of fields) {
    if (field === '__typename') continue;
    const needed = (DATE_COLUMNS_OF_FIELD as Partial<Record<string, readonly DateColumn[] | null>>)[field];
    if (needed === undefined) return null;
    for (const column of needed ?? EVERY_DATE_COLUMN) columns.add(column);
  }
  return [...columns].sort();
}
