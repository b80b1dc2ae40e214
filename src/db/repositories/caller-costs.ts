import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';

/** What one caller cost on one Oslo day: points of its executions, how many executed, how many were refused 429. */
export interface CallerCost {
  day: string;
  /** `key:<hash>`, `address:<address>` or `(other)` (callers past the bound, together). */
  caller: string;
  /** The key's hash of a keyed caller, else ''. */
  keyHash: string;
  points: number;
  executions: number;
  refused: number;
}

/** One caller's cost over a period, busiest first, with its key's application when the key is (still) known. */
export interface TopCallerRow {
  caller: string;
  keyHash: string;
  points: number;
  executions: number;
  refused: number;
  /** Days of the period the caller was seen on. */
  days: number;
  application: string | null;
  keyPrefix: string | null;
}

const ROWS_PER_STATEMENT = 1000;

/** Adds costs to the stored ones (an upsert that sums), in a few statements. */
export async function addCallerCosts(db: Kysely<Database>, costs: readonly CallerCost[]): Promise<void> {
  for (let start = 0; start < costs.length; start += ROWS_PER_STATEMENT) {
    const batch = costs.slice(start, start + ROWS_PER_STATEMENT);
    await db
      .insertInto('caller_costs')
      .values(batch.map((c) => ({ day: c.day, caller: c.caller, key_hash: c.keyHash, points: c.points, executions: c.executions, refused: c.refused })))
      .onConflict((oc) =>
        oc.columns(['day', 'caller']).doUpdateSet({
          points: sql<number>`caller_costs.points + excluded.points`,
          executions: sql<number>`caller_costs.executions + excluded.executions`,
          refused: sql<number>`caller_costs.refused + excluded.refused`,
        }),
      )
      .execute();
  }
}

/** Deletes the costs of days before `day` (an Oslo day): the addresses they hold are kept no longer than needed. */
export async function deleteCallerCostsBefore(db: Kysely<Database>, day: string): Promise<void> {
  await db.deleteFrom('caller_costs').where('day', '<', day).execute();
}

/** The `limit` callers that cost the most points from `since` (an Oslo day, inclusive) on, summed over the days. */
export async function listTopCallers(db: Kysely<Database>, options: { since: string; limit: number }): Promise<TopCallerRow[]> {
  const totals = db
    .selectFrom('caller_costs')
    .where('day', '>=', options.since)
    .groupBy(['caller', 'key_hash'])
    .select([
      'caller',
      'key_hash',
      sql<string>`sum(points)`.as('points'),
      sql<string>`sum(executions)`.as('executions'),
      sql<string>`sum(refused)`.as('refused'),
      sql<string>`count(*)`.as('days'),
    ]);
  const rows = await db
    .selectFrom(totals.as('t'))
    .leftJoin('api_keys as k', (join) => join.onRef('k.key_hash', '=', 't.key_hash').on('t.key_hash', '<>', ''))
    .select(['t.caller', 't.key_hash', 't.points', 't.executions', 't.refused', 't.days', 'k.application', 'k.key_prefix'])
    .orderBy('t.points', 'desc')
    .orderBy('t.refused', 'desc')
    .orderBy('t.caller')
    .limit(options.limit)
    .execute();
  return rows.map((r) => ({
    caller: r.caller,
    keyHash: r.key_hash,
    points: Number(r.points),
    executions: Number(r.executions),
    refused: Number(r.refused),
    days: Number(r.days),
    application: r.application,
    keyPrefix: r.key_prefix,
  }));
}
