import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import type { CategoryRow, Database, EventRecord, OccurrenceRow, OrganizerRow, VenueRow } from '../db/database.js';
import { eventRecordsByIds, occurrencesByIds, upcomingOccurrencesByEventIds } from '../db/repositories/event-records.js';
import { listCategories, organizersByIds, venuesByIds } from '../db/repositories/catalogue.js';

/** Per-request batching: every list of N events costs one query per kind of record, not N. */
export interface Loaders {
  event: DataLoader<string, EventRecord | null>;
  occurrence: DataLoader<string, OccurrenceRow | null>;
  upcomingOccurrences: DataLoader<string, OccurrenceRow[]>;
  venue: DataLoader<string, VenueRow | null>;
  organizer: DataLoader<string, OrganizerRow | null>;
  categories: () => Promise<CategoryRow[]>;
}

function byKey<T>(keys: readonly string[], rows: T[], keyOf: (row: T) => string): (T | null)[] {
  const map = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => map.get(k) ?? null);
}

export function createLoaders(db: Kysely<Database>, now: Date): Loaders {
  let categories: Promise<CategoryRow[]> | undefined;
  return {
    event: new DataLoader(async (ids) => byKey(ids, await eventRecordsByIds(db, ids), (r) => r.id)),
    occurrence: new DataLoader(async (ids) => byKey(ids, await occurrencesByIds(db, ids), (r) => String(r.id))),
    upcomingOccurrences: new DataLoader(async (eventIds) => {
      const rows = await upcomingOccurrencesByEventIds(db, eventIds, now);
      const grouped = new Map<string, OccurrenceRow[]>();
      for (const row of rows) {
        const list = grouped.get(row.event_id);
        if (list) list.push(row);
        else grouped.set(row.event_id, [row]);
      }
      return eventIds.map((id) => grouped.get(id) ?? []);
    }),
    venue: new DataLoader(async (ids) => byKey(ids, await venuesByIds(db, ids), (r) => r.id)),
    organizer: new DataLoader(async (ids) => byKey(ids, await organizersByIds(db, ids), (r) => r.id)),
    categories: () => (categories ??= listCategories(db)),
  };
}
