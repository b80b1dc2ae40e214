import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import type { CategoryRow, Database, OccurrenceRow, OrganizerRow, VenueRow } from '../db/database.js';
import { upcomingOccurrencesByEventIds } from '../db/repositories/event-records.js';
import type { CalendarReader } from '../read-model/calendar-reader.js';

/** Per-request lookups: catalogue records from the request's snapshot, dates batched (no N+1). */
export interface Loaders {
  /**
   * Dates that have not ended, per event: only for `repetitions` a resolver could not foresee
   * (nodes normally carry them, read with the page).
   */
  upcomingOccurrences: DataLoader<string, OccurrenceRow[]>;
  venue: DataLoader<string, VenueRow | null>;
  organizer: DataLoader<string, OrganizerRow | null>;
  categories: () => Promise<readonly CategoryRow[]>;
}

export function createLoaders(db: Kysely<Database>, now: Date, calendar: CalendarReader): Loaders {
  return {
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
    venue: new DataLoader(async (ids) => {
      const { venues } = await calendar.catalogue();
      return ids.map((id) => venues.get(id) ?? null);
    }),
    organizer: new DataLoader(async (ids) => {
      const { organizers } = await calendar.catalogue();
      return ids.map((id) => organizers.get(id) ?? null);
    }),
    categories: async () => (await calendar.catalogue()).categories,
  };
}
