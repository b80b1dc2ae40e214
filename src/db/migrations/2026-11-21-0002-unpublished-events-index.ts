import { sql, type Kysely } from 'kysely';

/** The few events with a publishing date: every query excludes those not yet published by this index. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index events_publishing_idx on events (publishing_date) where publishing_date is not null`.execute(db);
}
