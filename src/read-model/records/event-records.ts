import { sql, type Kysely } from 'kysely';
import type { Database, EventFields, EventRecord } from '../../db/database.js';
import { EVENT_FIELDS as STORED_EVENT_FIELDS } from '../../fields/calendar-fields.js';
import { storedColumns } from '../../fields/field-declaration.js';
import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import type { EventColumn } from './event-columns.js';
import { ownersById } from './layer-owners.js';
import { RecordStatements } from './record-statements.js';

/** Every column of `events` but `search_text` (the descriptions again, folded): never shown. */
const EVENT_FIELDS = [
  ...storedColumns(STORED_EVENT_FIELDS),
  ...(['venue_id', 'tickets_url', 'prices', 'images', 'event_cancelled', 'event_sold_out', 'publishing_date', 'tickets_from_date',
    'created_at', 'updated_at', 'last_ends_at'] as const),
] satisfies readonly (keyof EventFields)[];

// Fails to compile when a column is added to `events` but not to the list above.
type MissingEventFields = Exclude<keyof EventFields, (typeof EVENT_FIELDS)[number]>;
const everyEventField: [MissingEventFields] extends [never] ? true : MissingEventFields = true;
void everyEventField;

/** A row of the events' statements: the data version, the event's id (null: none matched), the columns read. */
export type EventRow = { version: string | null; id: string | null } & Partial<Omit<EventFields, 'id'>>;

/** The statements reading events, of the columns asked (null: EVENT_FIELDS). */
export const eventStatements = new RecordStatements<EventColumn, EventRow>(
  (db, columns) =>
    db
      .selectFrom('calendar_state as cs')
      .leftJoin('events as e', (join) => join.on(sql<boolean>`e.id = any(${[] as string[]}::text[])`))
      .select('cs.version')
      .select((columns ?? EVENT_FIELDS).map((column) => `e.${column}` as const)),
);

/**
 * Events by snapshot number, as of the snapshot's version: the given columns (null: every column but
 * `search_text`), and their category and organizer ids from the snapshot. With columns, the records
 * are partial on purpose: only the fields whose columns were read may be resolved, which is what
 * `eventColumnsFor` guarantees for the operation being executed.
 */
export async function eventRecordsAt(
  db: Kysely<Database>,
  snapshot: CalendarSnapshot,
  events: readonly number[],
  columns: readonly EventColumn[] | null,
): Promise<Map<number, EventRecord>> {
  return (await eventRecordsOfLayers(db, new Map([[snapshot, events]]), columns)).get(snapshot) ?? new Map<number, EventRecord>();
}

/**
 * eventRecordsAt for the layers of one version at once (their events by layer: the bases of a build in
 * segments and the delta share the version): one statement, each record numbered in its layer.
 */
export async function eventRecordsOfLayers(
  db: Kysely<Database>,
  eventsByLayer: ReadonlyMap<CalendarSnapshot, readonly number[]>,
  columns: readonly EventColumn[] | null,
): Promise<Map<CalendarSnapshot, Map<number, EventRecord>>> {
  const records = new Map<CalendarSnapshot, Map<number, EventRecord>>([...eventsByLayer.keys()].map((snapshot) => [snapshot, new Map()]));
  const owners = ownersById(eventsByLayer, (snapshot, event) => snapshot.eventIds[event]!);
  const first = eventsByLayer.keys().next().value;
  if (owners.size === 0 || first === undefined) return records;
  const rows = await eventStatements.readAt(db, first, [...owners.keys()], columns);
  for (const row of rows) {
    if (row.id == null) continue;
    // (A row of two layers, a masked copy asked too, is copied for the second.)
    (owners.get(row.id) ?? []).forEach(({ snapshot, index }, k) => records.get(snapshot)!.set(index, eventRecordOf(k === 0 ? row : { ...row }, snapshot, index)));
  }
  return records;
}

/** The row as the record of `event` of `snapshot`: its category and organizer ids from the snapshot. */
function eventRecordOf(row: EventRow, snapshot: CalendarSnapshot, event: number): EventRecord {
  const { eventCategories, eventOrganizers, categoryIds, organizerIds } = snapshot;
  const categories: string[] = [];
  for (let k = eventCategories.offsets[event]!; k < eventCategories.offsets[event + 1]!; k++) categories.push(categoryIds[eventCategories.values[k]!]!);
  const organizers: string[] = [];
  for (let k = eventOrganizers.offsets[event]!; k < eventOrganizers.offsets[event + 1]!; k++) organizers.push(organizerIds[eventOrganizers.values[k]!]!);
  // The row itself becomes the record (its `version` left on it, unread): a copy of each of a
  // thousand rows would be as many objects more for the young generation to collect.
  const record = row as unknown as EventRecord;
  record.category_ids = categories;
  record.organizer_ids = organizers;
  return record;
}
