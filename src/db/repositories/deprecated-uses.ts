import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { UsageReportRow } from './usage-counts.js';

/** Requests of one Oslo day by one caller that used one deprecated schema coordinate. */
export interface DeprecatedUseCount {
  day: string;
  /** Schema coordinate: `Filter.sortBy`, `Type.field`, `Type.field(arg:)`, `Enum.VALUE`. */
  coordinate: string;
  keyHash: string;
  clientId: string;
  pageOrigin: string;
  requests: number;
}

/** One caller's uses of one coordinate over the days asked for, with its key's application as `calendar usage` shows it. */
export interface DeprecatedUseReportRow extends Omit<DeprecatedUseCount, 'day'>, Pick<UsageReportRow, 'application' | 'keyPrefix'> {
  /** The first and the last Oslo day it was used on, within the days asked for. */
  firstDay: string;
  lastDay: string;
}

const ROWS_PER_STATEMENT = 1000;

/** Adds counts to the stored ones (an upsert that sums), in a few statements. */
export async function addDeprecatedUses(db: Kysely<Database>, counts: readonly DeprecatedUseCount[]): Promise<void> {
  for (let start = 0; start < counts.length; start += ROWS_PER_STATEMENT) {
    const batch = counts.slice(start, start + ROWS_PER_STATEMENT);
    await db
      .insertInto('deprecated_uses')
      .values(
        batch.map((c) => ({ day: c.day, coordinate: c.coordinate, key_hash: c.keyHash, client_id: c.clientId, page_origin: c.pageOrigin, requests: c.requests })),
      )
      .onConflict((oc) =>
        oc
          .columns(['day', 'coordinate', 'key_hash', 'client_id', 'page_origin'])
          .doUpdateSet({ requests: sql<number>`deprecated_uses.requests + excluded.requests` }),
      )
      .execute();
  }
}

/** Uses from `since` (an Oslo day, inclusive) on, summed per coordinate and caller: by coordinate, busiest caller first. */
export async function listDeprecatedUses(db: Kysely<Database>, options: { since?: string } = {}): Promise<DeprecatedUseReportRow[]> {
  let query = db
    .selectFrom('deprecated_uses as d')
    .leftJoin('api_keys as k', 'k.key_hash', 'd.key_hash')
    .select([
      'd.coordinate',
      'd.key_hash',
      'd.client_id',
      'd.page_origin',
      sql<string>`sum(d.requests)`.as('requests'),
      // `date` comes back as a Date at local midnight from `pg`; text is the same on both drivers.
      sql<string>`to_char(min(d.day), 'YYYY-MM-DD')`.as('first_day'),
      sql<string>`to_char(max(d.day), 'YYYY-MM-DD')`.as('last_day'),
      'k.application',
      'k.key_prefix',
    ])
    .groupBy(['d.coordinate', 'd.key_hash', 'd.client_id', 'd.page_origin', 'k.application', 'k.key_prefix'])
    .orderBy('d.coordinate')
    .orderBy(sql`sum(d.requests)`, 'desc')
    .orderBy('d.key_hash')
    .orderBy('d.client_id')
    .orderBy('d.page_origin');
  if (options.since) query = query.where('d.day', '>=', options.since);
  const rows = await query.execute();
  return rows.map((r) => ({
    coordinate: r.coordinate,
    keyHash: r.key_hash,
    clientId: r.client_id,
    pageOrigin: r.page_origin,
    requests: Number(r.requests),
    firstDay: r.first_day,
    lastDay: r.last_day,
    application: r.application,
    keyPrefix: r.key_prefix,
  }));
}
