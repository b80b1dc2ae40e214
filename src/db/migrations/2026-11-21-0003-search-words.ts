import { sql, type Kysely } from 'kysely';

/**
 * The distinct words of all events' searchable text, with a trigram index: approximate search looks
 * up the few dictionary words within the typing tolerance, then finds events by those words, instead
 * of measuring edit distance against every word of every candidate event. Refreshed by each import.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create materialized view search_words as
    select distinct w as word
    from events, regexp_split_to_table(events.search_text, '[^[:alnum:]]+') as w
    where length(w) between 2 and 40
  `.execute(db);
  await sql`create unique index search_words_word_idx on search_words (word)`.execute(db);
  await sql`create index search_words_trgm_idx on search_words using gin (word public.gin_trgm_ops)`.execute(db);
}
