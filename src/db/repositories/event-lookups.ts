import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';

export interface EventLookup {
  slugs?: string[];
  withSlug?: boolean;
  title?: string;
  lan?: 'nb' | 'en';
  /** Container events with a date not ended at `now`. */
  superEvents?: boolean;
  /** Events with a date not ended at `now` at a venue inside the box (edges included). */
  box?: { minLatitude: number; maxLatitude: number; minLongitude: number; maxLongitude: number };
  now?: Date;
}

/** Ids (and slugs) of events found by one lookup; promotion happens in the caller through the loaders. */
export async function findEventIds(db: Kysely<Database>, lookup: EventLookup & { withSlug: true }): Promise<{ id: string; slug: string }[]>;
export async function findEventIds(db: Kysely<Database>, lookup: EventLookup): Promise<string[]>;
export async function findEventIds(db: Kysely<Database>, lookup: EventLookup): Promise<string[] | { id: string; slug: string }[]> {
  let q = db.selectFrom('events as e').select(['e.id', 'e.slug']);
  if (lookup.slugs) {
    if (lookup.slugs.length === 0) return [];
    q = q.where('e.slug', 'in', lookup.slugs);
  }
  if (lookup.title != null) q = q.where(lookup.lan === 'en' ? 'e.title_en' : 'e.title_nb', '=', lookup.title);
  if (lookup.superEvents) q = q.where('e.is_super_event', '=', true);
  if (lookup.now && (lookup.superEvents || lookup.box)) q = q.where('e.last_ends_at', '>', lookup.now);
  const box = lookup.box;
  if (box && lookup.now) {
    const now = lookup.now;
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('occurrences as o')
          .innerJoin('venues as v', 'v.id', 'o.venue_id')
          .select(sql`1`.as('one'))
          .whereRef('o.event_id', '=', 'e.id')
          .where('o.ends_at', '>', now)
          .where('v.latitude', '>=', box.minLatitude)
          .where('v.latitude', '<=', box.maxLatitude)
          .where('v.longitude', '>=', box.minLongitude)
          .where('v.longitude', '<=', box.maxLongitude),
      ),
    );
  }
  const rows = await q.execute();
  return lookup.withSlug ? rows : rows.map((r) => r.id);
}
