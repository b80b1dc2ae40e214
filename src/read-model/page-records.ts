import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database, EventFields, EventRecord, OccurrenceRow } from '../db/database.js';
import type { CalendarSnapshot } from './calendar-snapshot.js';
import { readAtSnapshotVersion } from './read-at-version.js';

/** Every column of `events` but `search_text` (the descriptions again, folded): never shown. */
const EVENT_FIELDS = [
  'id', 'slug', 'title_nb', 'title_en', 'desc_nb', 'desc_en', 'mode', 'tags', 'venue_id', 'is_super_event',
  'super_event_id', 'featured', 'featured_special_event', 'tickets_information', 'tickets_url', 'prices', 'images',
  'event_cancelled', 'event_sold_out', 'minimum_age', 'maximum_age', 'age_restriction', 'cancellation_period', 'views',
  'publishing_date', 'tickets_from_date', 'created_at', 'updated_at', 'registration_enabled', 'available_tickets',
  'active_tickets', 'max_booking_date', 'max_booking_time', 'payment_method', 'last_ends_at',
] as const satisfies readonly (keyof EventFields)[];

// Fails to compile when a column is added to `events` but not to the list above.
type MissingEventFields = Exclude<keyof EventFields, (typeof EVENT_FIELDS)[number]>;
const everyEventField: [MissingEventFields] extends [never] ? true : MissingEventFields = true;
void everyEventField;

/**
 * The statements below read `calendar_state.version` in the same statement as the records (one
 * statement sees one committed state), joined so that the version comes back even when no record
 * matches. A version other than the snapshot's means an import landed since it was built, or (older)
 * a read replica that is behind: readAtSnapshotVersion says what happens then.
 */

/**
 * The two statements every page runs, built once per database with Kysely (type-checked against
 * the schema) and then only given new parameters: one array parameter each, so their text never
 * changes and nothing is compiled per request.
 */
function pageStatements(db: Kysely<Database>) {
  const events = db
    .selectFrom('calendar_state as cs')
    .leftJoin('events as e', (join) => join.on(sql<boolean>`e.id = any(${[] as string[]}::text[])`))
    .select('cs.version')
    .select(EVENT_FIELDS.map((column) => `e.${column}` as const));
  const dates = db
    .selectFrom('calendar_state as cs')
    .leftJoin('occurrences as o', (join) => join.on(sql<boolean>`o.id = any(${[] as string[]}::bigint[])`))
    .select('cs.version')
    .selectAll('o');
  return { events: events.compile(), dates: dates.compile() };
}

type PageStatements = ReturnType<typeof pageStatements>;
const statementsByDatabase = new WeakMap<Kysely<Database>, PageStatements>();

function statementsOf(db: Kysely<Database>): PageStatements {
  let statements = statementsByDatabase.get(db);
  if (!statements) statementsByDatabase.set(db, (statements = pageStatements(db)));
  return statements;
}

/** A compiled statement run with other parameters. */
async function runWith<R>(db: Kysely<Database>, compiled: CompiledQuery<R>, parameters: unknown[]): Promise<R[]> {
  return (await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>)).rows;
}

/** Events by id, as of the snapshot's version; their category and organizer ids come from the snapshot. */
export async function eventRecordsAt(db: Kysely<Database>, snapshot: CalendarSnapshot, events: readonly number[]): Promise<Map<number, EventRecord>> {
  const records = new Map<number, EventRecord>();
  if (events.length === 0) return records;
  const ids = events.map((e) => snapshot.eventIds[e]!);
  const rows = await readAtSnapshotVersion(snapshot, () => runWith(db, statementsOf(db).events, [ids]));
  const eventById = new Map(events.map((e) => [snapshot.eventIds[e]!, e]));
  const { eventCategories, eventOrganizers, categoryIds, organizerIds } = snapshot;
  for (const row of rows) {
    if (row.id == null) continue;
    const { version: _version, ...fields } = row;
    const event = eventById.get(row.id);
    if (event === undefined) continue;
    const categories: string[] = [];
    for (let k = eventCategories.offsets[event]!; k < eventCategories.offsets[event + 1]!; k++) categories.push(categoryIds[eventCategories.values[k]!]!);
    const organizers: string[] = [];
    for (let k = eventOrganizers.offsets[event]!; k < eventOrganizers.offsets[event + 1]!; k++) organizers.push(organizerIds[eventOrganizers.values[k]!]!);
    records.set(event, { ...(fields as EventFields), category_ids: categories, organizer_ids: organizers });
  }
  return records;
}

/** Dates by snapshot date index, as of the snapshot's version. */
export async function dateRecordsAt(db: Kysely<Database>, snapshot: CalendarSnapshot, dates: readonly number[]): Promise<Map<number, OccurrenceRow>> {
  const records = new Map<number, OccurrenceRow>();
  if (dates.length === 0) return records;
  const ids = dates.map((d) => String(snapshot.dateId[d]!));
  const rows = await readAtSnapshotVersion(snapshot, () => runWith(db, statementsOf(db).dates, [ids]));
  const byId = new Map<number, number>(dates.map((d) => [snapshot.dateId[d]!, d]));
  for (const row of rows) {
    if (row.id == null) continue;
    const { version: _version, ...fields } = row;
    const date = byId.get(Number(row.id));
    if (date !== undefined) records.set(date, fields as OccurrenceRow);
  }
  return records;
}
