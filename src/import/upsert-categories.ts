import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { fromExcluded } from './from-excluded.js';
import type { CalendarCategory } from './import-format.js';
import { statementBatches } from './statement-batches.js';

/** Parents before children, so each batch's foreign keys resolve. */
function parentsFirst(categories: readonly CalendarCategory[]): CalendarCategory[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const depth = (c: CalendarCategory): number => {
    let d = 0;
    for (let p = c.parent; p !== null && d <= byId.size; p = byId.get(p)?.parent ?? null) d++;
    return d;
  };
  return categories.map((c) => ({ c, d: depth(c) })).sort((a, b) => a.d - b.d).map((x) => x.c);
}

/** What writing the categories did. */
export interface WrittenCategories {
  /** New or changed (an unchanged one is not rewritten). */
  written: number;
  /**
   * Stored categories whose shown values changed (labels, slugs, visibility, parent; not the position alone):
   * the events filed under them show them, so they change too (change sync, and the read model's layers).
   */
  changedShown: string[];
}

/** Writes categories by id; few, but still batched. Their position is their order in the file. */
export async function upsertCategories(trx: Transaction<Database>, categories: readonly CalendarCategory[]): Promise<WrittenCategories> {
  const position = new Map(categories.map((c, i) => [c.id, i]));
  const stored = categories.length === 0 ? [] : await trx.selectFrom('categories').selectAll().where('id', 'in', categories.map((c) => c.id)).execute();
  const changedShown = stored.flatMap((row) => {
    const c = categories.find((category) => category.id === row.id)!;
    const same = row.name_nb === c.name_nb && row.name_en === c.name_en && row.slug_nb === c.slug_nb && row.slug_en === c.slug_en && row.visible === c.visible && row.parent_id === c.parent;
    return same ? [] : [row.id];
  });
  let written = 0;
  for (const batch of statementBatches(parentsFirst(categories), 8)) {
    const rows = await trx
      .insertInto('categories')
      .values(
        batch.map((c) => ({
          id: c.id,
          name_nb: c.name_nb,
          name_en: c.name_en,
          slug_nb: c.slug_nb,
          slug_en: c.slug_en,
          visible: c.visible,
          parent_id: c.parent,
          position: position.get(c.id) ?? 0,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet(fromExcluded(['name_nb', 'name_en', 'slug_nb', 'slug_en', 'visible', 'parent_id', 'position']))
          .where(sql<boolean>`(categories.name_nb, categories.name_en, categories.slug_nb, categories.slug_en, categories.visible, categories.parent_id, categories.position) is distinct from (excluded.name_nb, excluded.name_en, excluded.slug_nb, excluded.slug_en, excluded.visible, excluded.parent_id, excluded.position)`),
      )
      .returning('id')
      .execute();
    written += rows.length;
  }
  return { written, changedShown };
}
