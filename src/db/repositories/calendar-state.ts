import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/** `calendar_state.version`, the data version every import raises by one; undefined before the first migration's row. */
export async function readDataVersion(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db.selectFrom('calendar_state').select('version').executeTakeFirst();
  return row ? String(row.version) : undefined;
}

/** Whether data version `a` is newer than `b` (versions are bigints written as decimal strings). */
export function newerDataVersion(a: string, b: string): boolean {
  return BigInt(a) > BigInt(b);
}
