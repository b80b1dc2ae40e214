import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';

/**
 * Before a batch claims its slugs, stored rows holding one of them under another id give it up
 * (parked on a value no slug can take), so that the unique index accepts each row. The checks
 * decide whether that was right: the row must appear later in the file with a slug of its own or
 * be removed by --replace, or the import is rejected and this is rolled back.
 */
export async function parkTakenSlugs(trx: Transaction<Database>, table: 'venues' | 'organizers' | 'events', items: readonly { id: string; slug: string }[]): Promise<void> {
  if (items.length === 0) return;
  await sql`
    update ${sql.table(table)} as t set slug = chr(1) || t.id
    from unnest(${items.map((i) => i.slug)}::text[], ${items.map((i) => i.id)}::text[]) as c(slug, id)
    where t.slug = c.slug and t.id <> c.id
  `.execute(trx);
}
