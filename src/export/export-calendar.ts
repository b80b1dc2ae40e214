import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { CompiledQuery, sql, type Compilable, type Kysely, type Transaction } from 'kysely';
import type { CategoryRow, Database, EventRow, OccurrenceRow, OrganizerRow, StoredImage, StoredPrice, VenueRow } from '../db/database.js';
import { formatOsloTimestamp, osloWallClock, parseImportTimestamp } from '../domain/oslo-time.js';
import { EVENT_FIELDS, ORGANIZER_FIELDS, VENUE_FIELDS } from '../fields/calendar-fields.js';
import { exportedRecord } from '../fields/field-declaration.js';
import type {
  CalendarCategory,
  CalendarEventDate,
  CalendarFileInput,
  CalendarImage,
  CalendarPrice,
  CalendarRetiredCategory,
} from '../import/import-format.js';

/** What one export wrote. */
export interface ExportSummary {
  categories: number;
  retiredCategories: number;
  venues: number;
  organizers: number;
  events: number;
  dates: number;
  /** Stored keys that are not in the file: only their hashes are stored (see docs/import-format.md). */
  apiKeysLeftOut: number;
}

export interface ExportOptions {
  /** Called after each page of events is written, with the number written and the total. */
  onProgress?: (done: number, total: number) => void;
  /** Events read per round trip. @default 500 */
  pageSize?: number;
}

type InputEvent = NonNullable<CalendarFileInput['events']>[number];
type CalendarVenueInput = NonNullable<CalendarFileInput['venues']>[number];
type CalendarOrganizerInput = NonNullable<CalendarFileInput['organizers']>[number];

/**
 * Writes the stored calendar as an import file (docs/import-format.md) to `out`, event by event:
 * memory stays flat however large the calendar is. Everything is read in one read-only,
 * repeatable-read transaction, so the file is one consistent snapshot even while an import runs.
 *
 * The file is canonical, so that export → import into an empty database → export gives the same
 * bytes: sections in the format's order; categories in the order the API lists them, everything
 * else by id in byte order (`collate "C"`, the same on every server); one record per line; fields
 * in the format's order, each left out when it holds the format's default; a date's venue, tickets
 * URL and flags only where they differ from the event's (the loader stores the effective values);
 * timestamps in Oslo time with their offset.
 */
export async function exportCalendar(db: Kysely<Database>, out: Writable, options: ExportOptions = {}): Promise<ExportSummary> {
  const pageSize = options.pageSize ?? 500;
  const writer = new BufferedWriter(out);
  const summary = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      // As long as the calendar needs: the API's statement timeout is for requests.
      await sql`set local statement_timeout = 0`.execute(trx);
      const summary: ExportSummary = { categories: 0, retiredCategories: 0, venues: 0, organizers: 0, events: 0, dates: 0, apiKeysLeftOut: 0 };
      const file = new SectionWriter(writer);

      file.begin('categories');
      // The order the API lists them in: the loader numbers positions by the file's order.
      for await (const rows of cursor<CategoryRow>(trx, 'export_categories', trx.selectFrom('categories').selectAll().orderBy('position').orderBy('id'), pageSize)) {
        for (const row of rows) await file.item(categoryRecord(row));
        summary.categories += rows.length;
      }
      file.end();

      file.begin('retiredCategories');
      const retired = await trx.selectFrom('retired_categories').select(['id', 'replaced_by']).orderBy(sql`id collate "C"`).execute();
      const replacements = new Map(retired.map((r) => [r.id, r.replaced_by]));
      for (const row of retired) await file.item(retiredRecord(row.id, replacements));
      summary.retiredCategories = retired.length;
      file.end();

      file.begin('venues');
      for await (const rows of cursor<VenueRow>(trx, 'export_venues', trx.selectFrom('venues').selectAll().orderBy(sql`id collate "C"`), pageSize)) {
        for (const row of rows) await file.item(venueRecord(row));
        summary.venues += rows.length;
      }
      file.end();

      file.begin('organizers');
      for await (const rows of cursor<OrganizerRow>(trx, 'export_organizers', trx.selectFrom('organizers').selectAll().orderBy(sql`id collate "C"`), pageSize)) {
        for (const row of rows) await file.item(organizerRecord(row));
        summary.organizers += rows.length;
      }
      file.end();

      file.begin('events');
      const total = Number((await trx.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      // Only the ids are sorted (byte order has no index); each page's rows are then read by key.
      const ids = trx.selectFrom('events').select('id').orderBy(sql`id collate "C"`);
      for await (const page of cursor<{ id: string }>(trx, 'export_event_ids', ids, pageSize)) {
        const events = await readEventPage(trx, page.map((r) => r.id));
        for (const event of events) {
          await file.item(event);
          summary.dates += event.dates.length;
        }
        summary.events += events.length;
        options.onProgress?.(summary.events, total);
      }
      file.end();

      summary.apiKeysLeftOut = Number((await trx.selectFrom('api_keys').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      file.close();
      return summary;
    });
  await writer.flush();
  return summary;
}

/**
 * The rows of `query`, page by page, through a server-side cursor: one sort for the whole result,
 * never more than a page in memory. Needs a transaction (a cursor lives until its transaction ends).
 */
async function* cursor<Row>(trx: Transaction<Database>, name: string, query: Compilable<unknown>, pageSize: number): AsyncGenerator<Row[]> {
  const compiled = query.compile();
  if (compiled.parameters.length > 0) throw new Error('An export cursor takes a query without parameters.');
  await trx.executeQuery(CompiledQuery.raw(`declare ${name} no scroll cursor for ${compiled.sql}`));
  try {
    for (;;) {
      const { rows } = await trx.executeQuery<Row>(CompiledQuery.raw(`fetch forward ${pageSize} from ${name}`));
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < pageSize) return;
    }
  } finally {
    // Best effort: after a failed statement the transaction refuses everything, and ends anyway.
    await trx.executeQuery(CompiledQuery.raw(`close ${name}`)).catch(() => undefined);
  }
}

/** One page of events with their dates, categories and organizers, in the order of `ids`. */
async function readEventPage(trx: Transaction<Database>, ids: string[]): Promise<InputEvent[]> {
  if (ids.length === 0) return [];
  const inPage = sql<boolean>`event_id = any(${ids}::text[])`;
  const [events, occurrences, categories, organizers] = await Promise.all([
    trx.selectFrom('events').selectAll().where(sql<boolean>`id = any(${ids}::text[])`).execute(),
    trx.selectFrom('occurrences').selectAll().where(inPage).orderBy('event_id').orderBy('position').execute(),
    trx.selectFrom('event_categories').select(['event_id', 'category_id']).where(inPage).orderBy('event_id').orderBy('position').execute(),
    trx.selectFrom('event_organizers').select(['event_id', 'organizer_id']).where(inPage).orderBy('event_id').orderBy('position').execute(),
  ]);
  const byEvent = <T extends { event_id: string }>(rows: T[]): Map<string, T[]> => {
    const map = new Map<string, T[]>();
    for (const row of rows) {
      const list = map.get(row.event_id);
      if (list) list.push(row);
      else map.set(row.event_id, [row]);
    }
    return map;
  };
  const eventById = new Map(events.map((e) => [e.id, e]));
  const datesOf = byEvent(occurrences);
  const categoriesOf = byEvent(categories);
  const organizersOf = byEvent(organizers);
  return ids.flatMap((id) => {
    const event = eventById.get(id);
    if (!event) return [];
    return [
      eventRecord(
        event,
        datesOf.get(id) ?? [],
        (categoriesOf.get(id) ?? []).map((c) => c.category_id),
        (organizersOf.get(id) ?? []).map((o) => o.organizer_id),
      ),
    ];
  });
}

// ---------------------------------------------------------------------------------------------
// Records, in the format's field order, defaults left out

/**
 * An instant as the file writes it: Oslo time with its offset (`2026-12-01T20:00:00+01:00`),
 * milliseconds when there are any. An instant Oslo's whole-minute offset cannot show exactly
 * (local mean time, before 1895) is written in UTC instead, so every timestamp reads back as itself.
 */
export function exportTimestamp(instant: Date): string {
  const oslo = formatOsloTimestamp(instant).replace(' ', 'T');
  const ms = instant.getUTCMilliseconds();
  const text = ms === 0 ? oslo : `${oslo.slice(0, 19)}.${String(ms).padStart(3, '0')}${oslo.slice(19)}`;
  return parseImportTimestamp(text)?.getTime() === instant.getTime() ? text : instant.toISOString();
}

const optionalTimestamp = (value: Date | null): string | undefined => (value === null ? undefined : exportTimestamp(value));
/** The value, or undefined (left out) when it is the format's default. */
const unless = <T>(value: T, fallback: T): T | undefined => (value === fallback ? undefined : value);
const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length === 0 ? undefined : list);

function categoryRecord(row: CategoryRow): Partial<CalendarCategory> {
  return {
    id: row.id,
    name_nb: row.name_nb,
    name_en: row.name_en,
    slug_nb: row.slug_nb,
    slug_en: row.slug_en,
    visible: unless(row.visible, true),
    parent: row.parent_id ?? undefined,
  };
}

/**
 * A retired category with what replaces it now. A replacement that was itself retired later is
 * replaced by its own replacements: the loader accepts only existing categories as replacements,
 * and events already carry the final ones, so the chain is followed to its end.
 */
function retiredRecord(id: string, replacements: Map<string, string[]>): CalendarRetiredCategory {
  const replacedBy: string[] = [];
  const follow = (ids: string[], seen: Set<string>): void => {
    for (const next of ids) {
      const further = replacements.get(next);
      if (further === undefined) {
        if (!replacedBy.includes(next)) replacedBy.push(next);
      } else if (!seen.has(next)) {
        follow(further, new Set([...seen, next]));
      }
    }
  };
  follow(replacements.get(id) ?? [], new Set([id]));
  return { id, replacedBy };
}

function venueRecord(row: VenueRow): CalendarVenueInput {
  return exportedRecord<typeof VENUE_FIELDS, CalendarVenueInput>(VENUE_FIELDS, row, {
    location: row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : undefined,
  });
}

function organizerRecord(row: OrganizerRow): CalendarOrganizerInput {
  return exportedRecord<typeof ORGANIZER_FIELDS, CalendarOrganizerInput>(ORGANIZER_FIELDS, row, {});
}

/** A price exactly as stored: labels that were left out stay out, labels given as null stay null. */
function priceRecord(price: StoredPrice): CalendarPrice {
  const record: CalendarPrice = { type: price.type, price: price.price as string | number };
  if ('name_nb' in price) record.name_nb = price.name_nb ?? null;
  if ('name_en' in price) record.name_en = price.name_en ?? null;
  return record;
}

function imageRecord(image: StoredImage): Partial<CalendarImage> {
  return {
    urlSmall: image.urlSmall,
    urlLarge: image.urlLarge,
    alt: image.alt ?? undefined,
    focusX: image.focusX ?? undefined,
    focusY: image.focusY ?? undefined,
    width: image.width ?? undefined,
    height: image.height ?? undefined,
  };
}

/** Every key of `T`, each given (undefined: left out): a key the format gains does not compile until it is exported. */
type EveryKey<T> = { [K in keyof T]-?: T[K] | undefined };

function dateRecord(row: OccurrenceRow, event: EventRow): EveryKey<CalendarEventDate> {
  return {
    start: exportTimestamp(row.start_at),
    end: optionalTimestamp(row.end_at),
    // Left out when it is what the loader derives: the Oslo clock time of the start.
    startTime: unless(row.start_time, osloWallClock(row.start_at).time),
    duration: row.duration ?? undefined,
    // The loader stores the effective values (the date's, else the event's): only differences are the date's own.
    venue: row.venue_id === event.venue_id ? undefined : (row.venue_id ?? undefined),
    ticketsURL: row.tickets_url === event.tickets_url ? undefined : (row.tickets_url ?? undefined),
    cancelled: unless(row.cancelled, event.event_cancelled),
    soldOut: unless(row.sold_out, event.event_sold_out),
    prices: row.prices === null ? undefined : row.prices.map(priceRecord),
  };
}

function eventRecord(row: EventRow, dates: OccurrenceRow[], categories: string[], organizers: string[]): InputEvent {
  return exportedRecord<typeof EVENT_FIELDS, InputEvent>(EVENT_FIELDS, row, {
    categories: nonEmpty(categories),
    venue: row.venue_id ?? undefined,
    organizers: nonEmpty(organizers),
    ticketsURL: row.tickets_url ?? undefined,
    prices: nonEmpty(row.prices.map(priceRecord)),
    images: nonEmpty(row.images.map(imageRecord)) as CalendarImage[] | undefined,
    dates: dates.map((date) => dateRecord(date, row)) as InputEvent['dates'],
    eventCancelled: unless(row.event_cancelled, false),
    eventSoldOut: unless(row.event_sold_out, false),
    publishingDate: optionalTimestamp(row.publishing_date),
    ticketsFromDate: optionalTimestamp(row.tickets_from_date),
    created_at: exportTimestamp(row.created_at),
    updated_at: exportTimestamp(row.updated_at),
  });
}

// ---------------------------------------------------------------------------------------------
// Output

/**
 * The document's layout: one section per line pair, one record per line. JSON.stringify leaves out
 * the fields a record sets to undefined (the defaults).
 */
class SectionWriter {
  private sections = 0;
  private items = 0;

  constructor(private readonly writer: BufferedWriter) {
    writer.write('{');
  }

  begin(name: string): void {
    this.writer.write(`${this.sections > 0 ? ',' : ''}\n  ${JSON.stringify(name)}: [`);
    this.sections++;
    this.items = 0;
  }

  item(record: object): Promise<void> {
    this.writer.write(`${this.items > 0 ? ',' : ''}\n    ${JSON.stringify(record)}`);
    this.items++;
    return this.writer.drained();
  }

  end(): void {
    this.writer.write(this.items > 0 ? '\n  ]' : ']');
  }

  close(): void {
    this.writer.write('\n}\n');
  }
}

/** Gathers small writes into chunks of about 64 KB, and waits when `out` asks it to (backpressure). */
class BufferedWriter {
  private buffer = '';

  constructor(private readonly out: Writable) {}

  write(text: string): void {
    this.buffer += text;
  }

  /** Hands the buffer over once it is large enough, and waits while `out` is full. */
  async drained(): Promise<void> {
    if (this.buffer.length >= 65_536) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer === '') return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }
}
