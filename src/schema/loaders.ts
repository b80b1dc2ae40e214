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
  return new RequestLoaders(db, now, calendar);
}

/** Each loader made when a resolver first asks for it: most operations use one of them or none. */
class RequestLoaders implements Loaders {
  #upcomingOccurrences: Loaders['upcomingOccurrences'] | undefined;
  #venue: Loaders['venue'] | undefined;
  #organizer: Loaders['organizer'] | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Date,
    private readonly calendar: CalendarReader,
  ) {}

  get upcomingOccurrences(): Loaders['upcomingOccurrences'] {
    const { db, now } = this;
    return (this.#upcomingOccurrences ??= new DataLoader(async (eventIds) => {
      const rows = await upcomingOccurrencesByEventIds(db, eventIds, now);
      const grouped = new Map<string, OccurrenceRow[]>();
      for (const row of rows) {
        const list = grouped.get(row.event_id);
        if (list) list.push(row);
        else grouped.set(row.event_id, [row]);
      }
      return eventIds.map((id) => grouped.get(id) ?? []);
    }));
  }

  get venue(): Loaders['venue'] {
    const { calendar } = this;
    return (this.#venue ??= new DataLoader(async (ids) => {
      const { venues } = await calendar.catalogue();
      return ids.map((id) => venues.get(id) ?? null);
    }));
  }

  get organizer(): Loaders['organizer'] {
    const { calendar } = this;
    return (this.#organizer ??= new DataLoader(async (ids) => {
      const { organizers } = await calendar.catalogue();
      return ids.map((id) => organizers.get(id) ?? null);
    }));
  }

  async categories(): Promise<readonly CategoryRow[]> {
    return (await this.calendar.catalogue()).categories;
  }
}
