import { sql, type Kysely } from 'kysely';

/**
 * The calendar's core tables. An event has many dates (occurrences); the occurrence rows carry the
 * effective values of each date (venue, tickets URL, flags) so that filters and promotion read one row.
 */
// Migrations never import application code and see the database untyped (Kysely's advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Contrib extensions live in `public` so that several app schemas (tests) can share them.
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  await sql`create extension if not exists unaccent with schema public`.execute(db);
  await sql`create extension if not exists fuzzystrmatch with schema public`.execute(db);
  // unaccent() is only STABLE (it reads a dictionary); index expressions need an IMMUTABLE wrapper.
  await sql`
    create or replace function calendar_fold(value text) returns text
    language sql immutable parallel safe strict
    as $$ select lower(public.unaccent('public.unaccent'::regdictionary, value)) $$
  `.execute(db);

  await db.schema
    .createTable('categories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name_nb', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('slug_nb', 'text', (c) => c.notNull())
    .addColumn('slug_en', 'text', (c) => c.notNull())
    .addColumn('visible', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('parent_id', 'text', (c) => c.references('categories.id').onDelete('set null'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('retired_categories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('replaced_by', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('retired_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('venues')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('municipality', 'text')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .execute();
  await db.schema.createIndex('venues_location_idx').on('venues').columns(['latitude', 'longitude']).execute();
  await sql`create index venues_municipality_idx on venues (lower(municipality))`.execute(db);

  await db.schema
    .createTable('organizers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('website', 'text')
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title_nb', 'text')
    .addColumn('title_en', 'text')
    .addColumn('desc_nb', 'text')
    .addColumn('desc_en', 'text')
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('offline'))
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('venue_id', 'text', (c) => c.references('venues.id'))
    .addColumn('is_super_event', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('super_event_id', 'text')
    .addColumn('featured', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('featured_special_event', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('tickets_information', 'text', (c) => c.notNull().defaultTo('noTicketsInfo'))
    .addColumn('tickets_url', 'text')
    .addColumn('prices', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('images', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('event_cancelled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('event_sold_out', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('minimum_age', 'integer')
    .addColumn('maximum_age', 'integer')
    .addColumn('age_restriction', 'text')
    .addColumn('cancellation_period', 'integer')
    .addColumn('views', 'integer')
    .addColumn('publishing_date', 'timestamptz')
    .addColumn('tickets_from_date', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('registration_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('available_tickets', 'integer')
    .addColumn('active_tickets', 'integer')
    .addColumn('max_booking_date', 'text')
    .addColumn('max_booking_time', 'text')
    .addColumn('payment_method', 'text')
    // Folded (lower, unaccented, HTML-free) titles, descriptions and tags, written by the import.
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    // Latest end of any date (no end time: start + 3 h): lets "not yet ended" skip whole events cheaply.
    .addColumn('last_ends_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_super_event_idx').on('events').column('super_event_id').execute();
  await db.schema.createIndex('events_last_ends_at_idx').on('events').column('last_ends_at').execute();
  await sql`create index events_tags_idx on events using gin (tags)`.execute(db);
  await sql`create index events_search_trgm_idx on events using gin (search_text public.gin_trgm_ops)`.execute(db);
  await sql`create index events_title_nb_idx on events (title_nb)`.execute(db);
  await sql`create index events_title_en_idx on events (title_en)`.execute(db);

  await db.schema
    .createTable('event_categories')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('category_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_categories_pk', ['event_id', 'category_id'])
    .execute();
  await db.schema.createIndex('event_categories_category_idx').on('event_categories').columns(['category_id', 'event_id']).execute();

  await db.schema
    .createTable('event_organizers')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('organizer_id', 'text', (c) => c.notNull().references('organizers.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_organizers_pk', ['event_id', 'organizer_id'])
    .execute();
  await db.schema.createIndex('event_organizers_organizer_idx').on('event_organizers').columns(['organizer_id', 'event_id']).execute();

  await db.schema
    .createTable('occurrences')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('start_at', 'timestamptz', (c) => c.notNull())
    // Null when the organizer gave no end time (endDate then equals startDate).
    .addColumn('end_at', 'timestamptz')
    // When the date stops counting as ongoing: its end, or start + 3 h without an end time.
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('start_time', 'text', (c) => c.notNull())
    // Oslo wall-clock minute of day and calendar day of the start, for hoursRange and grouping by day.
    .addColumn('local_minute', 'integer', (c) => c.notNull())
    .addColumn('local_day', 'text', (c) => c.notNull())
    .addColumn('duration', 'integer')
    .addColumn('venue_id', 'text', (c) => c.references('venues.id'))
    .addColumn('tickets_url', 'text')
    .addColumn('cancelled', 'boolean', (c) => c.notNull())
    .addColumn('sold_out', 'boolean', (c) => c.notNull())
    // Null: the event's prices apply. Raw organizer input, as given.
    .addColumn('prices', 'jsonb')
    .execute();
  await db.schema.createIndex('occurrences_start_idx').on('occurrences').columns(['start_at', 'event_id']).execute();
  await db.schema.createIndex('occurrences_ends_idx').on('occurrences').columns(['ends_at', 'event_id']).execute();
  await db.schema.createIndex('occurrences_event_idx').on('occurrences').columns(['event_id', 'start_at']).execute();
  await db.schema.createIndex('occurrences_venue_idx').on('occurrences').columns(['venue_id', 'start_at']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    // First characters of the key, to tell keys apart in `calendar keys list` without storing them.
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('application', 'text', (c) => c.notNull())
    .addColumn('revoked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('usage_counts')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('page_origin', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_counts_pk', ['day', 'key_hash', 'client_id', 'page_origin'])
    .execute();
}
