import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { DATE_CANCELLED, DATE_NO_END, DATE_SOLD_OUT, type CalendarSnapshot, type PackedLists } from './calendar-snapshot.js';
import { GrowingColumn } from './growing-column.js';
import { ROWS_PER_READ, type EventsRead } from './read-snapshot-events.js';
import type { CatalogueRead } from './read-snapshot-catalogue.js';
import { selectedEvents, type EventSelection } from '../segments/event-segments.js';
import { buildWalkIndexes } from './walk-indexes.js';

/*
 * A snapshot's dates, as load-snapshot.ts reads them in its one view, a bounded number of rows at a time:
 * their columns in walk order, each event's dates, and the indexes the walk reads besides.
 */

type DateColumns = Pick<
  CalendarSnapshot,
  'eventDateOffsets' | 'dateCount' | 'dateOrder' | 'venueDateRanks' | 'walk' | 'dateStart' | 'dateEnds' | 'dateEvent' | 'dateVenue' | 'dateId' | 'dateDay' | 'dateMinute' | 'dateFlags'
>;

interface DateRow {
  id: number;
  event_id: string;
  start_ms: number;
  ends_ms: number;
  venue_id: string | null;
  local_minute: number;
  day: number;
  cancelled: boolean;
  sold_out: boolean;
  no_end: boolean;
}

export async function readDates(
  trx: Transaction<Database>,
  cutoff: Date,
  events: EventsRead,
  catalogue: CatalogueRead,
  selection: EventSelection | null = null,
): Promise<DateColumns> {
  const start = new GrowingColumn(new Float64Array(0), (s) => new Float64Array(s));
  const ends = new GrowingColumn(new Float64Array(0), (s) => new Float64Array(s));
  const event = new GrowingColumn(new Uint32Array(0), (s) => new Uint32Array(s));
  const venue = new GrowingColumn(new Int32Array(0), (s) => new Int32Array(s));
  const id = new GrowingColumn(new Float64Array(0), (s) => new Float64Array(s));
  const day = new GrowingColumn(new Int32Array(0), (s) => new Int32Array(s));
  const minute = new GrowingColumn(new Uint16Array(0), (s) => new Uint16Array(s));
  const flags = new GrowingColumn(new Uint8Array(0), (s) => new Uint8Array(s));
  for (let after = -1; ; ) {
    const page: DateRow[] = await trx
      .selectFrom('occurrences as o')
      .select([
        sql<number>`o.id::float8`.as('id'),
        'o.event_id',
        sql<number>`date_part('epoch', o.start_at) * 1000`.as('start_ms'),
        sql<number>`date_part('epoch', o.ends_at) * 1000`.as('ends_ms'),
        'o.venue_id',
        'o.local_minute',
        sql<number>`o.local_day::date - date '1970-01-01'`.as('day'),
        'o.cancelled',
        'o.sold_out',
        sql<boolean>`o.end_at is null`.as('no_end'),
      ])
      .where('o.ends_at', '>', cutoff)
      .$if(selection !== null, (q) => q.where(selectedEvents('o.event_id', selection!)))
      .where('o.id', '>', after)
      .orderBy('o.id')
      .limit(ROWS_PER_READ)
      .execute();
    for (const row of page) {
      const eventNumber = events.eventIndex.get(row.event_id);
      // Cannot happen within one consistent read (the event's last end is at least this date's end).
      if (eventNumber === undefined) continue;
      start.push(Number(row.start_ms));
      ends.push(Number(row.ends_ms));
      event.push(eventNumber);
      venue.push(row.venue_id == null ? -1 : (catalogue.venueIndex.get(row.venue_id) ?? -1));
      id.push(Number(row.id));
      day.push(Number(row.day));
      minute.push(row.local_minute);
      flags.push((row.cancelled ? DATE_CANCELLED : 0) | (row.sold_out ? DATE_SOLD_OUT : 0) | (row.no_end ? DATE_NO_END : 0));
    }
    if (page.length < ROWS_PER_READ) break;
    after = Number(page[page.length - 1]!.id);
  }

  // Grouped by event, each event's dates chronological (ties by date id): one event's dates are
  // read together, in order, by the scans and by `repetitions`.
  const count = start.length;
  let order: Uint32Array | null = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  {
    // In a block of its own: nothing holds the columns in read order past it.
    const s = start.array;
    const e = event.array;
    const d = id.array;
    order.sort((a, b) => e[a]! - e[b]! || s[a]! - s[b]! || d[a]! - d[b]!);
  }
  // Each column in read order (grown by doubling: up to twice its size) is let go once reordered, before the
  // walk's indexes are built: a compaction builds beside the snapshot still serving (issue 54, item 3).
  const permute = <T extends Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array>(column: GrowingColumn<T>, make: (size: number) => T): T => {
    const sorted = make(count);
    const unsorted = column.array;
    for (let i = 0; i < count; i++) sorted[i] = unsorted[order![i]!]!;
    column.release();
    return sorted;
  };
  const dateEvent = permute(event, (n) => new Uint32Array(n));
  const dateStart = permute(start, (n) => new Float64Array(n));
  const dateId = permute(id, (n) => new Float64Array(n));
  const dateVenue = permute(venue, (n) => new Int32Array(n));
  const dateEnds = permute(ends, (n) => new Float64Array(n));
  const dateDay = permute(day, (n) => new Int32Array(n));
  const dateMinute = permute(minute, (n) => new Uint16Array(n));
  const dateFlags = permute(flags, (n) => new Uint8Array(n));
  order = null;
  const eventCount = events.snapshot.eventIds.length;
  const offsets = new Uint32Array(eventCount + 1);
  for (let i = 0; i < count; i++) offsets[dateEvent[i]! + 1] = offsets[dateEvent[i]! + 1]! + 1;
  for (let i = 0; i < eventCount; i++) offsets[i + 1] = offsets[i + 1]! + offsets[i]!;
  // The listing order: by start, then event id (event numbers follow ids), then date id.
  const dateOrder = new Uint32Array(count);
  for (let i = 0; i < count; i++) dateOrder[i] = i;
  dateOrder.sort((a, b) => dateStart[a]! - dateStart[b]! || dateEvent[a]! - dateEvent[b]! || dateId[a]! - dateId[b]!);

  return {
    eventDateOffsets: offsets,
    dateCount: count,
    dateOrder,
    venueDateRanks: ranksByVenue(dateOrder, dateVenue, catalogue.venueIndex.size),
    walk: buildWalkIndexes({ ...catalogue.snapshot, ...events.snapshot, eventDateOffsets: offsets, dateOrder, dateStart, dateEnds, dateVenue }),
    dateStart,
    dateEnds,
    dateEvent,
    dateVenue,
    dateId,
    dateDay,
    dateMinute,
    dateFlags,
  };
}

/** Each venue's dates as positions in the listing order, ascending (a counting sort: one pass to count, one to place). */
function ranksByVenue(dateOrder: Uint32Array, dateVenue: Int32Array, venueCount: number): PackedLists {
  const offsets = new Uint32Array(venueCount + 1);
  for (let rank = 0; rank < dateOrder.length; rank++) {
    const venue = dateVenue[dateOrder[rank]!]!;
    if (venue >= 0) offsets[venue + 1] = offsets[venue + 1]! + 1;
  }
  for (let v = 0; v < venueCount; v++) offsets[v + 1] = offsets[v + 1]! + offsets[v]!;
  const values = new Uint32Array(offsets[venueCount]!);
  const next = offsets.slice(0, venueCount);
  for (let rank = 0; rank < dateOrder.length; rank++) {
    const venue = dateVenue[dateOrder[rank]!]!;
    if (venue >= 0) values[next[venue]!++] = rank;
  }
  return { offsets, values };
}
