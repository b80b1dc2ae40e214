import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';

/** Requests of one Oslo day by one caller: key hash ('' = anonymous), client id and page origin ('' = none sent). */
export interface UsageCount {
  day: string;
  keyHash: string;
  clientId: string;
  pageOrigin: string;
  requests: number;
}

export interface UsageReportRow extends UsageCount {
  /** Application and key prefix of the key, when the key is (still) in api_keys. */
  application: string | null;
  keyPrefix: string | null;
}

const ROWS_PER_STATEMENT = 1000;

/** Adds counts to the stored ones (an upsert that sums), in a few statements. */
export async function addUsageCounts(db: Kysely<Database>, counts: readonly UsageCount[]): Promise<void> {
  for (let start = 0; start < counts.length; start += ROWS_PER_STATEMENT) {
    const batch = counts.slice(start, start + ROWS_PER_STATEMENT);
    await db
      .insertInto('usage_counts')
      .values(batch.map((c) => ({ day: c.day, key_hash: c.keyHash, client_id: c.clientId, page_origin: c.pageOrigin, requests: c.requests })))
      .onConflict((oc) =>
        oc.columns(['day', 'key_hash', 'client_id', 'page_origin']).doUpdateSet({ requests: sql<number>`usage_counts.requests + excluded.requests` }),
      )
      .execute();
  }
}

/** Stored counts from `since` (an Oslo day, inclusive) on, newest day first, busiest first. */
export async function listUsageCounts(db: Kysely<Database>, options: { since?: string } = {}): Promise<UsageReportRow[]> {
  let query = db
    .selectFrom('usage_counts as u')
    .leftJoin('api_keys as k', 'k.key_hash', 'u.key_hash')
    .select([
      // `date` comes back as a Date at local midnight from `pg`; text is the same on both drivers.
      sql<string>`to_char(u.day, 'YYYY-MM-DD')`.as('day'),
      'u.key_hash',
      'u.client_id',
      'u.page_origin',
      'u.requests',
      'k.application',
      'k.key_prefix',
    ])
    .orderBy('u.day', 'desc')
    .orderBy('u.requests', 'desc')
    .orderBy('u.key_hash')
    .orderBy('u.client_id')
    .orderBy('u.page_origin');
  if (options.since) query = query.where('u.day', '>=', options.since);
  const rows = await query.execute();
  return rows.map((r) => ({
    day: r.day,
    keyHash: r.key_hash,
    clientId: r.client_id,
    pageOrigin: r.page_origin,
    requests: Number(r.requests),
    application: r.application,
    keyPrefix: r.key_prefix,
  }));
}
