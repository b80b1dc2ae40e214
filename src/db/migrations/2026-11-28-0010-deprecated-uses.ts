import { sql, type Kysely } from 'kysely';

/**
 * Who still uses the deprecated parts of the schema (docs/regenerate.md, `calendar usage --deprecated`):
 * requests per Oslo day, schema coordinate (`Filter.sortBy`) and caller, the caller as in
 * `usage_counts` (key hash, client id, page origin; '' = none). Written in batches by the usage
 * recorder, summed on conflict like `usage_counts`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table deprecated_uses (
      day date not null,
      coordinate text not null,
      key_hash text not null,
      client_id text not null,
      page_origin text not null,
      requests bigint not null,
      constraint deprecated_uses_pk primary key (day, coordinate, key_hash, client_id, page_origin)
    )
  `.execute(db);
}
