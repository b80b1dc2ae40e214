import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

export interface EventLookup {
  slugs?: string[];
  withSlug?: boolean;
  title?: string;
  lan?: 'nb' | 'en';
}

/**
 * Ids (and slugs) of events found by slug or title (unique indexes, not kept in the read model);
 * the read model then promotes their dates.
 */
export async function findEventIds(db: Kysely<Database>, lookup: EventLookup & { withSlug: true }): Promise<{ id: string; slug: string }[]>;
export async function findEventIds(db: Kysely<Database>, lookup: EventLookup): Promise<string[]>;
export async function findEventIds(db: Kysely<Database>, lookup: EventLookup): Promise<string[] | { id: string; slug: string }[]> {
  let q = db.selectFrom('events as e').select(['e.id', 'e.slug']);
  if (lookup.slugs) {
    if (lookup.slugs.length === 0) return [];
    q = q.where('e.slug', 'in', lookup.slugs);
  }
  if (lookup.title != null) q = q.where(lookup.lan === 'en' ? 'e.title_en' : 'e.title_nb', '=', lookup.title);
  const rows = await q.execute();
  return lookup.withSlug ? rows : rows.map((r) => r.id);
}
