import { sql, type Kysely } from 'kysely';
import type { Database, OccurrenceRow } from '../../db/database.js';
import { DATE_CANCELLED, DATE_NO_END, DATE_SOLD_OUT, type CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import type { DateColumn } from './date-columns.js';
import { ownersById } from './layer-owners.js';
import { RecordStatements } from './record-statements.js';

/** A row of the dates' statements: the data version, the date's id (null: none matched), the columns read. */
type DateRow = Partial<Pick<OccurrenceRow, DateColumn>> & { version: string | number | null; id: string | number | null };

/** The statements reading dates: their id and the columns asked, or (null) every column. */
const dateStatements = new RecordStatements<DateColumn, DateRow>((db, columns) => {
  const dates = db
    .selectFrom('calendar_state as cs')
    .leftJoin('occurrences as o', (join) => join.on(sql<boolean>`o.id = any(${[] as string[]}::bigint[])`))
    .select('cs.version');
  return columns === null ? dates.selectAll('o') : dates.select('o.id').select(columns.map((column) => `o.${column}` as const));
});

/**
 * Dates by snapshot date index, as of the snapshot's version: every column (`columns` null), or the
 * snapshot's columns (id, start, end, venue, cancelled, sold out) with the given ones read from the
 * database; without columns, no statement at all. With columns, the records are partial on purpose:
 * fit for the fields of the operation the columns were chosen for (`dateColumnsFor`) and nothing
 * else. The caller reads the events of these dates in the same wave, a statement that checks the
 * version (a date read alone would not be).
 */
export async function dateRecordsAt(
  db: Kysely<Database>,
  snapshot: CalendarSnapshot,
  dates: readonly number[],
  columns: readonly DateColumn[] | null,
): Promise<Map<number, OccurrenceRow>> {
  return (await dateRecordsOfLayers(db, new Map([[snapshot, dates]]), columns)).get(snapshot) ?? new Map<number, OccurrenceRow>();
}

/** dateRecordsAt for the layers of one version at once (event-records.ts, `eventRecordsOfLayers`): one statement. */
export async function dateRecordsOfLayers(
  db: Kysely<Database>,
  datesByLayer: ReadonlyMap<CalendarSnapshot, readonly number[]>,
  columns: readonly DateColumn[] | null,
): Promise<Map<CalendarSnapshot, Map<number, OccurrenceRow>>> {
  const records = new Map<CalendarSnapshot, Map<number, OccurrenceRow>>([...datesByLayer.keys()].map((snapshot) => [snapshot, new Map()]));
  // Without columns to read, the snapshot's own are the records: no statement.
  if (columns !== null && columns.length === 0) {
    for (const [snapshot, dates] of datesByLayer) for (const d of dates) records.get(snapshot)!.set(d, withSnapshotFields(snapshot, {}, d));
    return records;
  }
  const owners = ownersById(datesByLayer, (snapshot, date) => snapshot.dateId[date]!);
  const first = datesByLayer.keys().next().value;
  if (owners.size === 0 || first === undefined) return records;
  const rows = await dateStatements.readAt(db, first, [...owners.keys()].map(String), columns);
  for (const row of rows) {
    if (row.id == null) continue;
    const own = owners.get(Number(row.id)) ?? [];
    // The row itself becomes the record (its `version` left on it, unread): no copy per date (but for a second layer's).
    own.forEach(({ snapshot, index: date }, k) => {
      const record = k === 0 ? row : { ...row };
      records.get(snapshot)!.set(date, columns === null ? (record as unknown as OccurrenceRow) : withSnapshotFields(snapshot, record, date));
    });
  }
  return records;
}

/** `record` with the snapshot's columns of date `d` written onto it. */
function withSnapshotFields(snapshot: CalendarSnapshot, record: Record<string, unknown>, d: number): OccurrenceRow {
  const venue = snapshot.dateVenue[d]!;
  const flags = snapshot.dateFlags[d]!;
  record['id'] = String(snapshot.dateId[d]!);
  // Read as epoch milliseconds in float8: rounded back to the whole millisecond stored.
  record['start_at'] = new Date(Math.round(snapshot.dateStart[d]!));
  record['end_at'] = (flags & DATE_NO_END) !== 0 ? null : new Date(Math.round(snapshot.dateEnds[d]!));
  record['venue_id'] = venue >= 0 ? snapshot.venueIds[venue]! : null;
  record['cancelled'] = (flags & DATE_CANCELLED) !== 0;
  record['sold_out'] = (flags & DATE_SOLD_OUT) !== 0;
  return record as unknown as OccurrenceRow;
}
