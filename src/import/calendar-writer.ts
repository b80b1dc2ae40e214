import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { hashApiKey } from '../domain/api-key-hash.js';
import {
  eventContentHash,
  purgeOldTombstones,
  recordCatalogueChanges,
  recordCategoryRetirement,
  recordWrittenEvents,
  removeEventsNotListed,
} from '../db/repositories/event-changes.js';
import { EVENT_COLUMNS, eventRows, OCCURRENCE_COLUMNS, type EventRows, type JsonValue } from './event-rows.js';
import type {
  CalendarApiKey,
  CalendarCategory,
  CalendarEvent,
  CalendarOrganizer,
  CalendarRetiredCategory,
  CalendarVenue,
} from './import-format.js';

/** What one import wrote. */
export interface ImportSummary {
  categories: number;
  venues: number;
  organizers: number;
  events: number;
  occurrences: number;
  apiKeys: number;
  /** Events deleted because `--replace` was given and the file does not list them. */
  removedEvents: number;
  retiredCategories: number;
}

/** Called after each batch of events is written; `total` when the source knows it ahead. */
export type ImportProgress = (done: number, total: number | undefined) => void;

/** An event that passed every check so far, with what the checks learnt about it. */
export interface CheckedEvent {
  event: CalendarEvent;
  /** The database held an event with this id before the import: upserted, its links replaced. */
  stored: boolean;
  /** It references a venue or organizer that a later part of the file may still provide. */
  waits: boolean;
}

/** What the loader hands over at the end of the file: the small sections, kept whole. */
export interface FileRest {
  categories: CalendarCategory[];
  retiredCategories: CalendarRetiredCategory[];
  apiKeys: CalendarApiKey[];
  /** Every event id of the file (for --replace). */
  eventIds: () => string[];
}

// PostgreSQL allows 65535 bind parameters per statement; stay below it with room to spare.
const MAX_PARAMETERS = 60_000;
/** Records per write batch (and per progress report). */
export const WRITE_BATCH = 2_000;
// Below this many events, updating the indexes row by row is cheap enough.
const BULK_LOAD_EVENTS = 5_000;

type BulkTable = 'events' | 'occurrences' | 'event_categories' | 'event_organizers';
const BULK_TABLES: readonly BulkTable[] = ['events', 'occurrences', 'event_categories', 'event_organizers'];

/**
 * `col = excluded.col` for each column: an upsert replaces the stored values with the file's.
 * `excluded.col` has the column's own type by definition, hence `never` (assignable to any column).
 */
function fromExcluded<C extends string>(columns: readonly C[]): Record<C, RawBuilder<never>> {
  return Object.fromEntries(columns.map((c) => [c, sql.ref<never>(`excluded.${c}`)])) as Record<C, RawBuilder<never>>;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function rowsPerStatement(columns: number): number {
  return Math.max(1, Math.floor(MAX_PARAMETERS / columns));
}

/**
 * Inserts a batch of rows sent as ONE JSON parameter and expanded by PostgreSQL
 * (`json_populate_recordset` converts each field to its column's type). Thousands of rows with
 * dozens of columns would otherwise need tens of thousands of bind parameters (the limit is 65535),
 * which both drivers, and PGlite above all, handle far more slowly than one string.
 */
function insertJsonRows<C extends string>(
  table: BulkTable,
  columns: readonly C[],
  rows: readonly Record<C, JsonValue>[],
  options: { select?: Partial<Record<C, RawBuilder<unknown>>>; onConflict?: RawBuilder<unknown> } = {},
): RawBuilder<unknown>[] {
  if (rows.length === 0) return [];
  const selected = columns.map((c) => options.select?.[c] ?? sql.ref(`r.${c}`));
  // A field left out of the JSON reads as null: leaving the nulls out shortens the parameter by a fifth.
  const compact = rows.map((row) => {
    const out: Partial<Record<C, JsonValue>> = {};
    for (const column of columns) if (row[column] !== null) out[column] = row[column];
    return out;
  });
  return [
    sql`
      insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
      select ${sql.join(selected)}
      from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(compact)}::json) as r
      ${options.onConflict ?? sql``}
    `,
  ];
}

interface PreparedBatch {
  statements: RawBuilder<unknown>[];
  events: number;
  occurrences: number;
}

/** Every statement that writes one batch of events, their links and their dates. */
function prepareEventBatch(batch: readonly { event: CalendarEvent; stored: boolean }[]): PreparedBatch {
  const rows = batch.map((e) => ({ rows: eventRows(e.event), stored: e.stored }));
  const statements: RawBuilder<unknown>[] = [];
  // New events are plainly inserted: ON CONFLICT makes PostgreSQL check each row twice, a third of
  // the cost of a large first load. Stored ones are upserted, keeping the timestamps the file leaves
  // out, so rows go in groups by which they give.
  const groups = new Map<string, { stored: boolean; rows: EventRows[] }>();
  for (const { rows: row, stored } of rows) {
    const key = `${stored}/${row.keepsCreatedAt}/${row.keepsUpdatedAt}`;
    const group = groups.get(key);
    if (group) group.rows.push(row);
    else groups.set(key, { stored, rows: [row] });
  }
  for (const { stored, rows: group } of groups.values()) {
    const first = group[0];
    if (!first) continue;
    const updated = EVENT_COLUMNS.filter(
      (c) => c !== 'id' && !(c === 'created_at' && first.keepsCreatedAt) && !(c === 'updated_at' && first.keepsUpdatedAt),
    );
    statements.push(
      ...insertJsonRows('events', EVENT_COLUMNS, group.map((r) => r.event), {
        select: {
          // Folded in SQL, so that the stored text matches the database's own unaccent used by searches.
          search_text: sql`calendar_fold(r.search_text)`,
          created_at: sql`coalesce(r.created_at, now())`,
          updated_at: sql`coalesce(r.updated_at, now())`,
        },
        ...(stored ? { onConflict: sql`on conflict (id) do update set ${sql.join(updated.map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`))}` } : {}),
      }),
    );
  }
  // An event's categories, organizers and dates are replaced as a whole.
  const stored = batch.filter((e) => e.stored).map((e) => e.event.id);
  if (stored.length > 0) {
    for (const table of ['event_categories', 'event_organizers', 'occurrences'] as const) {
      statements.push(sql`delete from ${sql.table(table)} where event_id = any(${stored}::text[])`);
    }
  }
  const categoryRows = batch.flatMap(({ event: e }) => e.categories.map((category_id, position) => ({ event_id: e.id, category_id, position })));
  statements.push(...insertJsonRows('event_categories', ['event_id', 'category_id', 'position'], categoryRows));
  const organizerRows = batch.flatMap(({ event: e }) => e.organizers.map((organizer_id, position) => ({ event_id: e.id, organizer_id, position })));
  statements.push(...insertJsonRows('event_organizers', ['event_id', 'organizer_id', 'position'], organizerRows));
  const occurrenceRows = rows.flatMap((r) => r.rows.occurrences);
  statements.push(...insertJsonRows('occurrences', OCCURRENCE_COLUMNS, occurrenceRows));
  return { statements, events: batch.length, occurrences: occurrenceRows.length };
}

/**
 * Before a batch claims its slugs, stored rows holding one of them under another id give it up
 * (parked on a value no slug can take), so that the unique index accepts each row. The checks
 * decide whether that was right: the row must appear later in the file with a slug of its own or
 * be removed by --replace, or the import is rejected and this is rolled back.
 */
async function parkTakenSlugs(trx: Transaction<Database>, table: 'venues' | 'organizers' | 'events', items: readonly { id: string; slug: string }[]): Promise<void> {
  if (items.length === 0) return;
  await sql`
    update ${sql.table(table)} as t set slug = chr(1) || t.id
    from unnest(${items.map((i) => i.slug)}::text[], ${items.map((i) => i.id)}::text[]) as c(slug, id)
    where t.slug = c.slug and t.id <> c.id
  `.execute(trx);
}

/** Parents before children, so each batch's foreign keys resolve. */
function parentsFirst(categories: CalendarCategory[]): CalendarCategory[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const depth = (c: CalendarCategory): number => {
    let d = 0;
    for (let p = c.parent; p !== null && d <= byId.size; p = byId.get(p)?.parent ?? null) d++;
    return d;
  };
  return categories.map((c) => ({ c, d: depth(c) })).sort((a, b) => a.d - b.d).map((x) => x.c);
}

/**
 * The first load of a large calendar follows "Populating a Database" in the PostgreSQL manual: the
 * foreign keys and secondary indexes of the event tables are dropped and created again once the
 * rows are in. One validating join and one index build per index are several times cheaper than
 * checking and updating them row by row (a trigram index above all). Primary keys and unique
 * constraints stay, as the upsert relies on them. Only done while the event tables held nothing
 * before the import: dropping them locks those tables until the transaction ends.
 */
async function deferConstraintsAndIndexes(trx: Transaction<Database>): Promise<() => Promise<void>> {
  const tables = [...BULK_TABLES];
  const foreignKeys = await sql<{ table_name: string; name: string; definition: string }>`
    select c.conrelid::regclass::text as table_name, c.conname as name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_namespace n on n.oid = t.relnamespace
    where c.contype = 'f' and n.nspname = current_schema() and t.relname = any(${tables}::text[])
  `.execute(trx);
  const indexes = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition
    from pg_indexes i
    where i.schemaname = current_schema()
      and i.tablename = any(${tables}::text[])
      and not exists (
        select 1 from pg_constraint c
        join pg_namespace n on n.oid = c.connamespace
        where c.conname = i.indexname and n.nspname = i.schemaname
      )
  `.execute(trx);
  for (const fk of foreignKeys.rows) await sql`alter table ${sql.raw(fk.table_name)} drop constraint ${sql.id(fk.name)}`.execute(trx);
  for (const index of indexes.rows) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  return async () => {
    for (const index of indexes.rows) await sql.raw(index.definition).execute(trx);
    for (const fk of foreignKeys.rows) {
      await sql`alter table ${sql.raw(fk.table_name)} add constraint ${sql.id(fk.name)} ${sql.raw(fk.definition)}`.execute(trx);
    }
  };
}

/**
 * Moves every event off a retired category onto its replacements, in the retired category's place
 * in the event's list and without duplicates; then deletes the category (its children lose their
 * parent) and records the id so it can never come back.
 */
async function retireCategory(trx: Transaction<Database>, retired: CalendarRetiredCategory): Promise<void> {
  const rows = await trx
    .selectFrom('event_categories')
    .select(['event_id', 'category_id'])
    .where('event_id', 'in', (eb) => eb.selectFrom('event_categories').select('event_id').where('category_id', '=', retired.id))
    .orderBy('event_id')
    .orderBy('position')
    .execute();
  const lists = new Map<string, string[]>();
  for (const row of rows) {
    const list = lists.get(row.event_id) ?? [];
    list.push(row.category_id);
    lists.set(row.event_id, list);
  }
  const replaced: { event_id: string; category_id: string; position: number }[] = [];
  for (const [eventId, list] of lists) {
    const next: string[] = [];
    for (const category of list.flatMap((c) => (c === retired.id ? retired.replacedBy : [c]))) {
      if (!next.includes(category)) next.push(category);
    }
    next.forEach((category_id, position) => replaced.push({ event_id: eventId, category_id, position }));
  }
  for (const batch of chunks([...lists.keys()], rowsPerStatement(1))) {
    await trx.deleteFrom('event_categories').where('event_id', 'in', batch).execute();
  }
  for (const batch of chunks(replaced, rowsPerStatement(3))) await trx.insertInto('event_categories').values(batch).execute();
  await trx.deleteFrom('categories').where('id', '=', retired.id).execute();
  await trx
    .insertInto('retired_categories')
    .values({ id: retired.id, replaced_by: retired.replacedBy })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export interface CalendarWriterOptions {
  /** Which tables held rows before the import (an empty one needs no slug parking, nor --replace). */
  heldRows: { events: boolean; venues: boolean; organizers: boolean };
  replace: boolean;
  onProgress?: ImportProgress | undefined;
  /** The data version this import commits: what it records in the change log (docs/change-sync.md). */
  changeVersion: string;
}

/**
 * Writes a checked calendar in the import's transaction, batch by batch as the loader hands the
 * batches over. Writes run one after another in the background: the loader reads and checks the
 * next batch meanwhile, and waits (`idle`) before it hands over another one or reads the database,
 * so at most one batch is in flight. The loader stops handing anything over at the first problem
 * of the file; the transaction is then rolled back whatever was written.
 */
export class CalendarWriter {
  readonly summary: ImportSummary = {
    categories: 0,
    venues: 0,
    organizers: 0,
    events: 0,
    occurrences: 0,
    apiKeys: 0,
    removedEvents: 0,
    retiredCategories: 0,
  };
  /** The number of events the source announced, for progress. */
  eventsTotal: number | undefined;

  private writing: Promise<void> = Promise.resolve();
  private eventsGiven = 0;
  private bulk = false;
  private restoreIndexes: (() => Promise<void>) | null = null;
  private parked = 0;
  /** Stored venues and organizers whose values the file changed: their events change too. */
  private readonly changedCatalogue = { venues: new Set<string>(), organizers: new Set<string>() };

  constructor(
    private readonly trx: Transaction<Database>,
    private readonly options: CalendarWriterOptions,
  ) {}

  /** Waits for the writes handed over so far; throws the first one that failed. */
  idle(): Promise<void> {
    return this.writing;
  }

  /** The writes handed over so far, to wait for later (after handing over more). */
  tail(): Promise<void> {
    return this.writing;
  }

  /** Waits for the writes in flight whatever their outcome (before the transaction is rolled back). */
  async settle(): Promise<void> {
    await this.writing.catch(() => undefined);
  }

  private enqueue(work: () => Promise<void>): void {
    const next = this.writing.then(work);
    // Handled here so that a failure waits for the loader's next `idle` instead of ending the process.
    next.catch(() => undefined);
    this.writing = next;
  }

  writeVenues(venues: readonly CalendarVenue[]): void {
    if (venues.length === 0) return;
    const { trx } = this;
    this.enqueue(async () => {
      if (this.options.heldRows.venues) await parkTakenSlugs(trx, 'venues', venues);
      for (const batch of chunks(venues, rowsPerStatement(8))) {
        await trx
          .insertInto('venues')
          .values(
            batch.map((v) => ({
              id: v.id,
              slug: v.slug,
              name: v.name,
              address: v.address,
              postal_code: v.postalCode,
              municipality: v.municipality,
              latitude: v.location?.latitude ?? null,
              longitude: v.location?.longitude ?? null,
            })),
          )
          .onConflict((oc) =>
            oc
              .column('id')
              .doUpdateSet(fromExcluded(['slug', 'name', 'address', 'postal_code', 'municipality', 'latitude', 'longitude']))
              // Only a venue whose values change is rewritten, and returned (change sync).
              .where(sql<boolean>`(venues.slug, venues.name, venues.address, venues.postal_code, venues.municipality, venues.latitude, venues.longitude) is distinct from (excluded.slug, excluded.name, excluded.address, excluded.postal_code, excluded.municipality, excluded.latitude, excluded.longitude)`),
          )
          .returning('id')
          .execute()
          // A venue new to the database has no stored events: only those stored before matter.
          .then((rows) => this.options.heldRows.venues && rows.forEach((r) => this.changedCatalogue.venues.add(r.id)));
      }
      this.summary.venues += venues.length;
    });
  }

  writeOrganizers(organizers: readonly CalendarOrganizer[]): void {
    if (organizers.length === 0) return;
    const { trx } = this;
    this.enqueue(async () => {
      if (this.options.heldRows.organizers) await parkTakenSlugs(trx, 'organizers', organizers);
      for (const batch of chunks(organizers, rowsPerStatement(4))) {
        await trx
          .insertInto('organizers')
          .values(batch.map((o) => ({ id: o.id, slug: o.slug, name: o.name, website: o.website })))
          .onConflict((oc) =>
            oc
              .column('id')
              .doUpdateSet(fromExcluded(['slug', 'name', 'website']))
              .where(sql<boolean>`(organizers.slug, organizers.name, organizers.website) is distinct from (excluded.slug, excluded.name, excluded.website)`),
          )
          .returning('id')
          .execute()
          .then((rows) => this.options.heldRows.organizers && rows.forEach((r) => this.changedCatalogue.organizers.add(r.id)));
      }
      this.summary.organizers += organizers.length;
    });
  }

  /**
   * Events whose venue or organizer may still come later in the file wait in a temporary table
   * until the end (the foreign keys would reject them now), unless the foreign keys are off for a
   * first bulk load. The rows of the others are prepared at once, while the database still writes
   * the previous batch.
   */
  writeEvents(batch: readonly CheckedEvent[]): void {
    if (batch.length === 0) return;
    this.eventsGiven += batch.length;
    if (!this.bulk && !this.options.heldRows.events && this.eventsGiven >= BULK_LOAD_EVENTS) {
      this.bulk = true;
      this.enqueue(async () => {
        this.restoreIndexes = await deferConstraintsAndIndexes(this.trx);
      });
    }
    const waiting = this.bulk ? [] : batch.filter((e) => e.waits);
    const ready = waiting.length === 0 ? batch : batch.filter((e) => !e.waits);
    if (waiting.length > 0) this.enqueue(() => this.park(waiting));
    if (ready.length > 0) {
      const prepared = prepareEventBatch(ready);
      this.enqueue(() => this.runEventBatch(ready, prepared));
    }
  }

  private async runEventBatch(batch: readonly CheckedEvent[], prepared: PreparedBatch): Promise<void> {
    if (this.options.heldRows.events) await parkTakenSlugs(this.trx, 'events', batch.map((e) => e.event));
    for (const statement of prepared.statements) await statement.execute(this.trx);
    await recordWrittenEvents(this.trx, this.options.changeVersion, batch.map((e) => ({ id: e.event.id, hash: eventContentHash(e.event) })));
    this.summary.events += prepared.events;
    this.summary.occurrences += prepared.occurrences;
    this.options.onProgress?.(this.summary.events, this.eventsTotal);
  }

  private async park(events: readonly CheckedEvent[]): Promise<void> {
    if (this.parked === 0) {
      // Dropped with the transaction, committed or not.
      await sql`create temporary table calendar_import_waiting (position integer primary key, stored boolean not null, event text not null) on commit drop`.execute(this.trx);
    }
    const positions = events.map((_, i) => this.parked + i);
    await sql`
      insert into calendar_import_waiting (position, stored, event)
      select * from unnest(${positions}::integer[], ${events.map((e) => e.stored)}::boolean[], ${events.map((e) => JSON.stringify(e.event))}::text[])
    `.execute(this.trx);
    this.parked += events.length;
  }

  /** Writes the events that waited, in file order, a batch at a time. */
  private async writeWaiting(): Promise<void> {
    for (let from = 0; from < this.parked; from += WRITE_BATCH) {
      const rows = await sql<{ stored: boolean; event: string }>`
        select stored, event from calendar_import_waiting
        where position >= ${from} and position < ${from + WRITE_BATCH} order by position
      `.execute(this.trx);
      const batch = rows.rows.map((r): CheckedEvent => ({ event: JSON.parse(r.event) as CalendarEvent, stored: r.stored, waits: false }));
      await this.runEventBatch(batch, prepareEventBatch(batch));
    }
  }

  /** Writes what only the end of the file completes, then everything derived from the data. */
  async finish(rest: FileRest): Promise<ImportSummary> {
    await this.idle();
    const { trx, summary } = this;

    // Categories: few, but still batched; position is the order in the file.
    const categoryPosition = new Map(rest.categories.map((c, i) => [c.id, i]));
    for (const batch of chunks(parentsFirst(rest.categories), rowsPerStatement(8))) {
      await trx
        .insertInto('categories')
        .values(
          batch.map((c) => ({
            id: c.id,
            name_nb: c.name_nb,
            name_en: c.name_en,
            slug_nb: c.slug_nb,
            slug_en: c.slug_en,
            visible: c.visible,
            parent_id: c.parent,
            position: categoryPosition.get(c.id) ?? 0,
          })),
        )
        .onConflict((oc) => oc.column('id').doUpdateSet(fromExcluded(['name_nb', 'name_en', 'slug_nb', 'slug_en', 'visible', 'parent_id', 'position'])))
        .execute();
      summary.categories += batch.length;
    }

    await this.writeWaiting();

    // Only a table that held events before the import can hold events the file does not list.
    if (this.options.replace && this.options.heldRows.events) {
      // Each removed event leaves a tombstone for change sync, in the same statement.
      summary.removedEvents = await removeEventsNotListed(trx, this.options.changeVersion, rest.eventIds());
    }
    if (this.restoreIndexes) await this.restoreIndexes();

    for (const retired of rest.retiredCategories) {
      await recordCategoryRetirement(trx, this.options.changeVersion, retired.id);
      await retireCategory(trx, retired);
      summary.retiredCategories++;
    }

    for (const batch of chunks(rest.apiKeys, rowsPerStatement(4))) {
      await trx
        .insertInto('api_keys')
        .values(batch.map((k) => ({ key_hash: hashApiKey(k.key), key_prefix: k.key.slice(0, 8), application: k.application, revoked: k.revoked })))
        .onConflict((oc) => oc.column('key_hash').doUpdateSet(fromExcluded(['key_prefix', 'application', 'revoked'])))
        .execute();
      summary.apiKeys += batch.length;
    }

    // The approximate-search dictionary follows the events' text (in this transaction, so a failed
    // import leaves it as it was).
    if (summary.events > 0 || summary.removedEvents > 0) await sql`refresh materialized view search_words`.execute(trx);

    // Change sync: events of changed venues and organizers changed too; old tombstones go.
    const { venues, organizers } = this.changedCatalogue;
    await recordCatalogueChanges(trx, this.options.changeVersion, { venues: [...venues], organizers: [...organizers] });
    await purgeOldTombstones(trx);

    // Totals and facets cached for the old data are not reused from here on (see calendar_state).
    await trx.updateTable('calendar_state').set({ version: sql`version + 1` }).execute();

    // Fresh planner statistics after a large load: PGlite runs no autovacuum to gather them.
    if (summary.events >= BULK_LOAD_EVENTS) {
      await sql`analyze ${sql.join(BULK_TABLES.map((t) => sql.table(t)))}`.execute(trx);
      await sql`analyze event_changes`.execute(trx);
    }
    return summary;
  }
}
