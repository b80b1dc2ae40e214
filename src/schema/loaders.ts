import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import type { CategoryRow, Database, EventRecord, OccurrenceRow, OrganizerRow, VenueRow } from '../db/database.js';
import { eventRecordsByIds, occurrencesByIds, upcomingOccurrencesByEventIds } from '../db/repositories/event-records.js';
import { readDataVersion } from '../db/repositories/catalogue.js';
import type { Catalogue, CatalogueCache } from './catalogue-cache.js';

/** Per-request batching: every list of N events costs one query per kind of record, not N. */
export interface Loaders {
  event: DataLoader<string, EventRecord | null>;
  occurrence: DataLoader<string, OccurrenceRow | null>;
  upcomingOccurrences: DataLoader<string, OccurrenceRow[]>;
  venue: DataLoader<string, VenueRow | null>;
  organizer: DataLoader<string, OrganizerRow | null>;
  categories: () => Promise<readonly CategoryRow[]>;
  /**
   * The data version a statement of this request has read anyway (an `events` page): the
   * catalogues then come from the kept copy without a statement of their own.
   */
  useDataVersion(version: string): void;
}

function byKey<T>(keys: readonly string[], rows: T[], keyOf: (row: T) => string): (T | null)[] {
  const map = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => map.get(k) ?? null);
}

export function createLoaders(db: Kysely<Database>, now: Date, catalogues: CatalogueCache): Loaders {
  let version: Promise<string> | undefined;
  let catalogue: Promise<Catalogue> | undefined;
  // One catalogue per request, so that every venue and category of a response agrees.
  const requestCatalogue = () => (catalogue ??= (version ??= readDataVersion(db)).then((v) => catalogues.atLeast(v)));
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
    venue: new DataLoader(async (ids) => {
      const { venues } = await requestCatalogue();
      return ids.map((id) => venues.get(id) ?? null);
    }),
    organizer: new DataLoader(async (ids) => {
      const { organizers } = await requestCatalogue();
      return ids.map((id) => organizers.get(id) ?? null);
    }),
    categories: async () => (await requestCatalogue()).categories,
    useDataVersion(v) {
      version ??= Promise.resolve(v);
    },
  };
}
