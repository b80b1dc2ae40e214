import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';

interface StoredCategory {
  id: string;
  slug_nb: string;
  slug_en: string;
  parent_id: string | null;
}

/** What the database held when the import took its lock. */
export interface StartState {
  categories: Map<string, StoredCategory>;
  /** Retired id → its replacements. */
  retired: Map<string, string[]>;
  /** Which tables held rows (an empty one needs no lookups, no slug parking, nor --replace). */
  heldRows: { events: boolean; venues: boolean; organizers: boolean };
}

/**
 * Read once, under the import's lock: the categories and retired ids (a few dozen, kept whole) and
 * whether the large tables hold anything at all.
 */
export async function readStartState(trx: Transaction<Database>): Promise<StartState> {
  const categories = await trx.selectFrom('categories').select(['id', 'slug_nb', 'slug_en', 'parent_id']).execute();
  const retired = await trx.selectFrom('retired_categories').select(['id', 'replaced_by']).execute();
  const held = await sql<{ events: boolean; venues: boolean; organizers: boolean }>`
    select exists (select from events) as events, exists (select from venues) as venues, exists (select from organizers) as organizers
  `.execute(trx);
  return {
    categories: new Map(categories.map((c) => [c.id, c])),
    retired: new Map(retired.map((r) => [r.id, r.replaced_by])),
    heldRows: held.rows[0] ?? { events: true, venues: true, organizers: true },
  };
}
