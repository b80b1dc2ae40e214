import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { CalendarSnapshot } from '../read-model/snapshot/calendar-snapshot.js';
import { eventStatements } from '../read-model/records/event-records.js';

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
 * The events' statement of a feed, as the API reads events (read-model/records/event-records.ts), but with
 * only the columns a feed writes: a feed has up to a thousand dates, and an event's prices and
 * images would be read, parsed and dropped (the dates themselves are all in the snapshot). It reads
 * at the snapshot's version, so that records of another data version are never mixed into a feed.
 */
const readFeedEvents = eventStatements.withColumns(['id', 'slug', 'title_nb', 'title_en', 'desc_nb', 'desc_en', 'updated_at']);

/** The feed's fields of these events (snapshot event numbers), as of the snapshot's version. */
export async function feedEventRecords(db: Kysely<Database>, snapshot: CalendarSnapshot, events: readonly number[]): Promise<Map<number, FeedEventRecord>> {
  const records = new Map<number, FeedEventRecord>();
  if (events.length === 0) return records;
  const byId = new Map(events.map((e) => [snapshot.eventIds[e]!, e]));
  const rows = await readFeedEvents(db, snapshot, [...byId.keys()]);
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
