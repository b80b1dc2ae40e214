import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { CalendarRetiredCategory } from './import-format.js';
import { statementBatches } from './statement-batches.js';

/**
 * Moves every event off a retired category onto its replacements, in the retired category's place
 * in the event's list and without duplicates; then deletes the category (its children lose their
 * parent) and records the id so it can never come back.
 */
export async function retireCategory(trx: Transaction<Database>, retired: CalendarRetiredCategory): Promise<void> {
  const rows = await trx
    .selectFrom('event_categories')
    .select(['event_id', 'category_id'])
    .where('event_id', 'in', (eb) => eb.selectFrom('event_categories').select('event_id').where('category_id', '=', retired.id))
    .orderBy('event_id')
    .orderBy('position')
    .execute();
  const lists = new Map<string, string[]>();
  for (const row of rows) {
    const list = lists.get(row.event_id) ?? [];
    list.push(row.category_id);
    lists.set(row.event_id, list);
  }
  const replaced: { event_id: string; category_id: string; position: number }[] = [];
  for (const [eventId, list] of lists) {
    const next: string[] = [];
    for (const category of list.flatMap((c) => (c === retired.id ? retired.replacedBy : [c]))) {
      if (!next.includes(category)) next.push(category);
    }
    next.forEach((category_id, position) => replaced.push({ event_id: eventId, category_id, position }));
  }
  for (const batch of statementBatches([...lists.keys()], 1)) {
    await trx.deleteFrom('event_categories').where('event_id', 'in', batch).execute();
  }
  for (const batch of statementBatches(replaced, 3)) await trx.insertInto('event_categories').values(batch).execute();
  await trx.deleteFrom('categories').where('id', '=', retired.id).execute();
  await trx
    .insertInto('retired_categories')
    .values({ id: retired.id, replaced_by: retired.replacedBy })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
