import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { EventResolvers } from '../../generated/resolvers-types.js';
import type { Database, OccurrenceRow } from '../db/database.js';
import { DATE_CANCELLED, DATE_NO_END, DATE_SOLD_OUT, type CalendarSnapshot } from './calendar-snapshot.js';
import { readAtSnapshotVersion } from './read-at-version.js';
import { StatementsPerColumns } from './statements-per-columns.js';

/**
 * The `occurrences` columns that only the database holds of what a node's date fields and its
 * repetitions show: the snapshot already has each date's id, start, end, venue and cancelled and
 * sold-out marks (of the same data version), so those are never read again. Left out too: what
 * only filters and the importer read (`ends_at`, `local_minute`, `local_day`, `publishing_date`,
 * `position`, `event_id`).
 */
export type DateColumn = 'start_time' | 'duration' | 'tickets_url' | 'prices';

const EVERY_DATE_COLUMN: readonly DateColumn[] = ['duration', 'prices', 'start_time', 'tickets_url'];

type EventFieldName = Exclude<keyof EventResolvers, '__isTypeOf'>;

/**
 * The date columns each Event field reads beyond the snapshot (src/schema/resolvers/Event.ts).
 * `null`: every column (the field shows whole dates: `repetitions` lists them with every Repetition
 * field; jsonLd reads most of the date). Typed over every field of the schema, like the event
 * columns' table (selected-event-records.ts).
 */
const DATE_COLUMNS_OF_FIELD: Record<EventFieldName, readonly DateColumn[] | null> = {
  id: [],
  event_slug: [],
  eventLink: [],
  title_nb: [],
  title_en: [],
  desc_nb: [],
  desc_en: [],
  startDate: [],
  endDate: [],
  startTime: ['start_time'],
  duration: ['duration'],
  categories: [],
  mode: [],
  tags: [],
  venue: [],
  organizers: [],
  images: [],
  repetitions: null,
  ticketsInformation: [],
  prices: [],
  ticketsURL: ['tickets_url'],
  eventCancelled: [],
  eventSoldOut: [],
  isSuperEvent: [],
  superEventID: [],
  featured: [],
  minimumAge: [],
  maximumAge: [],
  ageRestriction: [],
  cancellationPeriod: [],
  views: [],
  publishingDate: [],
  ticketsFromDate: [],
  created_at: [],
  updated_at: [],
  registrationEnabled: [],
  availableTickets: [],
  activeTickets: [],
  maxBookingDate: [],
  maxBookingTime: [],
  paymentMethod: [],
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

type ReadRow = Partial<Pick<OccurrenceRow, DateColumn>> & { version: string | number | null; id: string | number | null };

// Same shape as page-records.ts's statement (version joined in, one array parameter), fewer columns.
const dateStatements = new StatementsPerColumns<DateColumn, ReadRow>(
  (db, columns) =>
    db
      .selectFrom('calendar_state as cs')
      .leftJoin('occurrences as o', (join) => join.on(sql<boolean>`o.id = any(${[] as string[]}::bigint[])`))
      .select(['cs.version', 'o.id'])
      .select(columns.map((column) => `o.${column}` as const))
      .compile() as CompiledQuery<ReadRow>,
);

/**
 * Dates by snapshot date index, with the snapshot's columns (id, start, end, venue, cancelled, sold out)
 * and the given ones read from the database, as of the snapshot's version; without columns, no
 * statement at all. The records are partial on purpose: fit for the fields of the operation the
 * columns were chosen for (`dateColumnsFor`) and nothing else. The caller reads the events of these
 * dates in the same wave, a statement that checks the version (a date read alone would not be).
 */
export async function selectedDateRecordsAt(
  db: Kysely<Database>,
  snapshot: CalendarSnapshot,
  dates: readonly number[],
  columns: readonly DateColumn[],
): Promise<Map<number, OccurrenceRow>> {
  const records = new Map<number, OccurrenceRow>();
  if (dates.length === 0) return records;
  const { dateId, dateStart, dateEnds, dateVenue, dateFlags, venueIds } = snapshot;
  // Onto the row itself when there is one (its `version` left on it, unread): no copy per date.
  const withSnapshotFields = (record: Record<string, unknown>, d: number): OccurrenceRow => {
    const venue = dateVenue[d]!;
    const flags = dateFlags[d]!;
    record['id'] = String(dateId[d]!);
    // Read as epoch milliseconds in float8: rounded back to the whole millisecond stored.
    record['start_at'] = new Date(Math.round(dateStart[d]!));
    record['end_at'] = (flags & DATE_NO_END) !== 0 ? null : new Date(Math.round(dateEnds[d]!));
    record['venue_id'] = venue >= 0 ? venueIds[venue]! : null;
    record['cancelled'] = (flags & DATE_CANCELLED) !== 0;
    record['sold_out'] = (flags & DATE_SOLD_OUT) !== 0;
    return record as unknown as OccurrenceRow;
  };
  if (columns.length === 0) {
    for (const d of dates) records.set(d, withSnapshotFields({}, d));
    return records;
  }
  const compiled = dateStatements.of(db, columns);
  const ids = dates.map((d) => String(dateId[d]!));
  const rows = await readAtSnapshotVersion(snapshot, async () => (await db.executeQuery(CompiledQuery.raw(compiled.sql, [ids]) as typeof compiled)).rows);
  const byId = new Map<number, number>(dates.map((d) => [dateId[d]!, d]));
  for (const row of rows) {
    if (row.id == null) continue;
    const date = byId.get(Number(row.id));
    if (date === undefined) continue;
    records.set(date, withSnapshotFields(row, date));
  }
  return records;
}
