import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database, OccurrenceRow } from '../db/database.js';
import type { CalendarSnapshot } from './calendar-snapshot.js';
import { readAtSnapshotVersion } from './read-at-version.js';

/**
 * The `occurrences` columns a node's date fields and its repetitions show (Event's startDate, endDate,
 * startTime, duration, venue, ticketsURL, eventCancelled, eventSoldOut, jsonLd; every Repetition
 * field). Left out: what only filters and the importer read (`ends_at`, `local_minute`, `local_day`,
 * `publishing_date`, `position`, `event_id`): two timestamps fewer to parse per date, which a
 * whole-world area answer does for tens of thousands of dates.
 */
const SHOWN_COLUMNS = ['id', 'start_at', 'end_at', 'start_time', 'duration', 'venue_id', 'tickets_url', 'cancelled', 'sold_out', 'prices'] as const satisfies readonly (keyof OccurrenceRow)[];

type ShownDate = Pick<OccurrenceRow, (typeof SHOWN_COLUMNS)[number]>;

const statementByDatabase = new WeakMap<Kysely<Database>, CompiledQuery<ShownDate & { version: string | number }>>();

function statementOf(db: Kysely<Database>) {
  let statement = statementByDatabase.get(db);
  if (!statement) {
    // Same shape as page-records.ts's statement (version joined in, one array parameter), fewer columns.
    statement = db
      .selectFrom('calendar_state as cs')
      .leftJoin('occurrences as o', (join) => join.on(sql<boolean>`o.id = any(${[] as string[]}::bigint[])`))
      .select('cs.version')
      .select(SHOWN_COLUMNS.map((column) => `o.${column}` as const))
      .compile() as CompiledQuery<ShownDate & { version: string | number }>;
    statementByDatabase.set(db, statement);
  }
  return statement;
}

/**
 * Dates by snapshot date index with the shown columns only, as of the snapshot's version. The
 * records are partial on purpose: for nodes whose fields are resolved from them and nothing else
 * (the area answer; `Event.repetitions` reads its dates from here, never from a loader, for them).
 */
export async function shownDateRecordsAt(db: Kysely<Database>, snapshot: CalendarSnapshot, dates: readonly number[]): Promise<Map<number, OccurrenceRow>> {
  const records = new Map<number, OccurrenceRow>();
  if (dates.length === 0) return records;
  const compiled = statementOf(db);
  const ids = dates.map((d) => String(snapshot.dateId[d]!));
  const rows = await readAtSnapshotVersion(snapshot, async () => (await db.executeQuery(CompiledQuery.raw(compiled.sql, [ids]) as typeof compiled)).rows);
  const byId = new Map<number, number>(dates.map((d) => [snapshot.dateId[d]!, d]));
  for (const row of rows) {
    if (row.id == null) continue;
    const date = byId.get(Number(row.id));
    const { version: _version, ...fields } = row;
    if (date !== undefined) records.set(date, fields as OccurrenceRow);
  }
  return records;
}
