import type { Event } from '../../../generated/schema-types.js';
import type { EventFields } from '../../db/database.js';
import { EVENT_FIELDS } from '../../fields/calendar-fields.js';
import { shownColumns, type ShownName } from '../../fields/field-declaration.js';

export type EventColumn = keyof EventFields;
type EventFieldName = Exclude<keyof Event, '__typename'>;

// Fails to compile when a stored field is declared with an API name that `Event` does not have.
type UnknownShownFields = Exclude<ShownName<typeof EVENT_FIELDS>, EventFieldName>;
const everyShownFieldKnown: [UnknownShownFields] extends [never] ? true : UnknownShownFields = true;
void everyShownFieldKnown;

/**
 * The `events` columns each Event field reads (src/schema/resolvers/Event.ts): none for the fields
 * answered from the promoted date or the snapshot. `null`: every column (jsonLd reads most of the
 * event). The stored fields read their own column (src/fields/calendar-fields.ts). Typed over every
 * field of the schema, so a field added to `Event` does not compile until it is declared or listed here.
 */
const COLUMNS_OF_FIELD: Record<EventFieldName, readonly EventColumn[] | null> = {
  ...shownColumns(EVENT_FIELDS),
  eventLink: ['slug'],
  startDate: [],
  endDate: [],
  startTime: [],
  duration: [],
  categories: [],
  venue: [],
  organizers: [],
  images: ['images'],
  repetitions: [],
  prices: ['prices'],
  ticketsURL: [],
  eventCancelled: [],
  eventSoldOut: [],
  publishingDate: ['publishing_date'],
  ticketsFromDate: ['tickets_from_date'],
  created_at: ['created_at'],
  updated_at: ['updated_at'],
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
