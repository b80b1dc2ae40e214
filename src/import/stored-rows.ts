import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { RecordTable } from './record-section.js';

/**
 * The checks' reads of what the database holds, in the import's own transaction. Reads share the
 * transaction's one connection with the writes, so each waits first for the writes handed over so
 * far (`beforeRead`): it then sees the file's earlier batches as written.
 */
export class StoredRows {
  constructor(
    private readonly trx: Transaction<Database>,
    private readonly beforeRead: () => Promise<void>,
  ) {}

  /** Stored `id, slug` rows for the given ids and slugs. */
  async idsAndSlugs(table: RecordTable, ids: Iterable<string>, slugs: Iterable<string>): Promise<{ id: string; slug: string }[]> {
    await this.beforeRead();
    const idList = [...new Set(ids)];
    const slugList = [...new Set(slugs)];
    if (idList.length === 0 && slugList.length === 0) return [];
    // Arrays travel as one parameter each, whatever the size of the batch.
    return this.trx
      .selectFrom(table)
      .select(['id', 'slug'])
      .where(sql<boolean>`id = any(${idList}::text[]) or slug = any(${slugList}::text[])`)
      .execute();
  }

  /** Which of the ids are stored. */
  async existing(table: 'venues' | 'organizers', ids: readonly string[]): Promise<Set<string>> {
    await this.beforeRead();
    const rows = await this.trx.selectFrom(table).select('id').where(sql<boolean>`id = any(${ids}::text[])`).execute();
    return new Set(rows.map((row) => row.id));
  }
}
