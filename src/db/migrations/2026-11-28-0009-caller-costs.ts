import { sql, type Kysely } from 'kysely';

/**
 * What each caller cost the service, per Oslo day (`calendar usage --callers`, docs/operating.md):
 * the points of its executions (docs/transport.md, "Budgets": the same measure whether budgets are on
 * or not), how many executed, and how many were refused 429. `caller` is the caller of fair shares:
 * `key:<hash>` for a valid key, else `address:<address>` (IPv6 by its /64), or `(other)` past the
 * bound of callers counted apart. Addresses are personal data: rows are deleted after 30 days.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table caller_costs (
      day date not null,
      caller text not null,
      key_hash text not null,
      points bigint not null,
      executions bigint not null,
      refused bigint not null,
      primary key (day, caller)
    )
  `.execute(db);
}
