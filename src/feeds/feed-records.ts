import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { CalendarSnapshot } from '../read-model/calendar-snapshot.js';
import { readAtSnapshotVersion } from '../read-model/read-at-version.js';

/** What a VEVENT shows of an event besides its date: the snapshot holds the rest (categories, venues). */
export interface FeedEventRecord {
  id: string;
  slug: string;
  title_nb: string | null;
  title_en: string | null;
  desc_nb: string | null;
  desc_en: string | null;
  updated_at: Date;
}

/**
 * The statement of a feed, built once per database and then only given new parameters, like the
 * API's page statements (read-model/page-records.ts), but with only the columns a feed writes: a
 * feed has up to a thousand dates, and an event's prices and images would be read, parsed and
 * dropped (the dates themselves are all in the snapshot). It reads `calendar_state.version` in the
 * same statement, so that records of another data version are never mixed into a feed
 * (readAtSnapshotVersion).
 */
function feedStatements(db: Kysely<Database>) {
  const events = db
    .selectFrom('calendar_state as cs')
    .leftJoin('events as e', (join) => join.on(sql<boolean>`e.id = any(${[] as string[]}::text[])`))
    .select(['cs.version', 'e.id', 'e.slug', 'e.title_nb', 'e.title_en', 'e.desc_nb', 'e.desc_en', 'e.updated_at']);
  return { events: events.compile() };
}

type FeedStatements = ReturnType<typeof feedStatements>;
const statementsByDatabase = new WeakMap<Kysely<Database>, FeedStatements>();

function statementsOf(db: Kysely<Database>): FeedStatements {
  let statements = statementsByDatabase.get(db);
  if (!statements) statementsByDatabase.set(db, (statements = feedStatements(db)));
  return statements;
}

async function runWith<R>(db: Kysely<Database>, compiled: CompiledQuery<R>, parameters: unknown[]): Promise<R[]> {
  return (await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>)).rows;
}

/** The feed's fields of these events (snapshot event numbers), as of the snapshot's version. */
export async function feedEventRecords(db: Kysely<Database>, snapshot: CalendarSnapshot, events: readonly number[]): Promise<Map<number, FeedEventRecord>> {
  const records = new Map<number, FeedEventRecord>();
  if (events.length === 0) return records;
  const byId = new Map(events.map((e) => [snapshot.eventIds[e]!, e]));
  const rows = await readAtSnapshotVersion(snapshot, () => runWith(db, statementsOf(db).events, [[...byId.keys()]]));
  for (const row of rows) {
    if (row.id == null) continue;
    const event = byId.get(row.id);
    if (event === undefined) continue;
    records.set(event, {
      id: row.id,
      slug: row.slug!,
      title_nb: row.title_nb ?? null,
      title_en: row.title_en ?? null,
      desc_nb: row.desc_nb ?? null,
      desc_en: row.desc_en ?? null,
      updated_at: new Date(row.updated_at!),
    });
  }
  return records;
}
