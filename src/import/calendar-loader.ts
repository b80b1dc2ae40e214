import { sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/database.js';
import type { CalendarPart } from './calendar-parts.js';
import { detachedString } from './detached-string.js';
import type { CalendarWriter, CheckedEvent, FileRest } from './calendar-writer.js';
import {
  calendarFileSections,
  type CalendarApiKey,
  type CalendarCategory,
  type CalendarEvent,
  type CalendarOrganizer,
  type CalendarRetiredCategory,
  type CalendarVenue,
} from './import-format.js';
import { formatIssue, formatPath, ImportProblems, ImportValidationError, isSectionName, issueMessage, SECTION_NAMES, type SectionName } from './import-problems.js';
import { WRITE_BATCH } from './write-batch.js';

/*
 * The checks of docs/import-format.md ("Loading", step 1), made while the file streams past.
 * Whatever needs the whole file is kept as compact per-id state (ids, slugs, the positions of
 * references still open), never as the records themselves; the few checks that only the end of
 * the file can decide are kept open until then and reported in their place in the file.
 */

type RawRecord = Record<string, unknown>;

/** A record of the file as written, whether or not it passed its schema. */
interface RawItem {
  index: number;
  record: RawRecord;
}

interface Pending<T> {
  index: number;
  /** null: the record is not an object (its schema problem says so; no reference check applies). */
  record: RawRecord | null;
  parsed: T | null;
}

function isPlainObject(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field of a raw record; anything else was already reported by the schema. */
function text(record: RawRecord, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

/** The string entries of a raw list field, with their positions. */
function texts(record: RawRecord, key: string): [index: number, value: string][] {
  const value = record[key];
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: unknown, i): [number, string][] => (typeof v === 'string' ? [[i, v]] : []));
}

function records(record: RawRecord, key: string): RawItem[] {
  const value = record[key];
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: unknown, index): RawItem[] => (isPlainObject(v) ? [{ index, record: v }] : []));
}

/** The order in which the checks of one record are reported (0 is the record's own shape). */
const CHECK = {
  duplicateId: 1,
  categoryRetiredOrParent: 2,
  categorySlugNb: 3,
  categorySlugEn: 4,
  replacement: 2,
  slug: 2,
  eventCategory: 3,
  eventOrganizer: 4,
  eventVenue: 5,
  dateVenue: 6,
  superEvent: 7,
  duplicateKey: 1,
} as const;

/** A growing list of integer triples: three ints per open reference instead of an object each. */
class Triples {
  private data = new Int32Array(3 * 1024);
  length = 0;

  push(a: number, b: number, c: number): void {
    if (3 * (this.length + 1) > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set([a, b, c], 3 * this.length);
    this.length++;
  }

  *[Symbol.iterator](): Generator<[number, number, number]> {
    for (let i = 0; i < this.length; i++) yield [this.data[3 * i]!, this.data[3 * i + 1]!, this.data[3 * i + 2]!];
  }
}

/** Small numbers for the few distinct ids that many references repeat (categories, venues, organizers). */
class Ordinals {
  private readonly numbers = new Map<string, number>();
  readonly names: string[] = [];

  of(name: string): number {
    let n = this.numbers.get(name);
    if (n === undefined) {
      n = this.names.length;
      const kept = detachedString(name);
      this.numbers.set(kept, n);
      this.names.push(kept);
    }
    return n;
  }
}

type RecordTable = 'venues' | 'organizers' | 'events';

/** A slug whose stored holder may still appear in the file (and then give it up). */
interface OpenSlug {
  index: number;
  slug: string;
  holder: string;
  /** The earlier record of the file that claimed the slug first, if any. */
  claimant: number | null;
}

/**
 * Ids and slugs of one streamed section, kept as compact as the checks allow: the first position
 * of each id, the id at each position, and the first record to claim each slug.
 */
class RecordSection<T> {
  batch: Pending<T>[] = [];
  readonly firstIndex = new Map<string, number>();
  readonly idAt: (string | undefined)[] = [];
  private readonly claims = new Map<string, number>();
  /** Stored rows that held a slug before the import and had not appeared in the file when it was claimed. */
  private readonly storedHolders = new Map<string, string>();
  readonly openSlugs: OpenSlug[] = [];

  constructor(
    readonly name: SectionName & RecordTable,
    readonly kind: string,
    readonly schema: z.ZodType<T>,
  ) {}

  has(id: string): boolean {
    return this.firstIndex.has(id);
  }

  /** Ids in file order; a repeated id is reported (and keeps its first position). */
  registerIds(items: readonly Pending<T>[], problems: ImportProblems): void {
    for (const { index, record } of items) {
      const read = record ? text(record, 'id') : undefined;
      const id = read === undefined ? undefined : detachedString(read);
      this.idAt[index] = id;
      if (id === undefined) continue;
      const earlier = this.firstIndex.get(id);
      if (earlier === undefined) this.firstIndex.set(id, index);
      else {
        problems.add(`${this.name}[${index}].id: duplicate id ${JSON.stringify(id)} (also ${this.name}[${earlier}])`, {
          section: this.name,
          index,
          check: CHECK.duplicateId,
        });
      }
    }
  }

  /** Learns which rows held a slug before the import, from rows read in the import's own transaction. */
  learnHolders(rows: readonly { id: string; slug: string }[]): void {
    // A row whose id the file lists is the file's own (written or about to be): it claims no slug.
    for (const row of rows) if (!this.has(row.id)) this.storedHolders.set(row.slug, row.id);
  }

  /**
   * "Slugs are unique among the records that exist after the import": stored rows the file does not
   * list (and that survive it) hold their slug first, then the file's records claim theirs in order.
   * Whether a stored holder is listed later is only known at the end; until then the slug stays open.
   */
  checkSlugs(items: readonly Pending<T>[], storedSurvive: boolean, problems: ImportProblems): void {
    for (const { index, record } of items) {
      const id = record ? text(record, 'id') : undefined;
      const slug = record ? text(record, 'slug') : undefined;
      if (id === undefined || slug === undefined) continue;
      const first = this.claims.get(slug);
      let claimant: number | null = null;
      if (first === undefined) this.claims.set(detachedString(slug), index);
      else if (this.idAt[first] !== id) claimant = first;
      const holder = storedSurvive ? this.storedHolders.get(slug) : undefined;
      if (holder !== undefined && holder !== id && !this.has(holder)) this.openSlugs.push({ index, slug: detachedString(slug), holder, claimant });
      else if (claimant !== null) this.slugProblem(index, slug, `${this.name}[${claimant}]`, problems);
    }
  }

  /** At the end of the file: a stored holder that never appeared keeps its slug. */
  closeSlugs(problems: ImportProblems): void {
    for (const { index, slug, holder, claimant } of this.openSlugs) {
      if (!this.has(holder)) this.slugProblem(index, slug, `${this.kind} ${JSON.stringify(holder)}`, problems);
      else if (claimant !== null) this.slugProblem(index, slug, `${this.name}[${claimant}]`, problems);
    }
  }

  private slugProblem(index: number, slug: string, holder: string, problems: ImportProblems): void {
    problems.add(`${this.name}[${index}].slug: slug ${JSON.stringify(slug)} is already used by ${holder}`, { section: this.name, index, check: CHECK.slug });
  }
}

interface StoredCategory {
  id: string;
  slug_nb: string;
  slug_en: string;
  parent_id: string | null;
}

/** What the database held when the import took its lock. */
export interface StartState {
  categories: Map<string, StoredCategory>;
  /** Retired id → its replacements. */
  retired: Map<string, string[]>;
  heldRows: { events: boolean; venues: boolean; organizers: boolean };
}

export async function readStartState(trx: Transaction<Database>): Promise<StartState> {
  const categories = await trx.selectFrom('categories').select(['id', 'slug_nb', 'slug_en', 'parent_id']).execute();
  const retired = await trx.selectFrom('retired_categories').select(['id', 'replaced_by']).execute();
  const held = await sql<{ events: boolean; venues: boolean; organizers: boolean }>`
    select exists (select from events) as events, exists (select from venues) as venues, exists (select from organizers) as organizers
  `.execute(trx);
  return {
    categories: new Map(categories.map((c) => [c.id, c])),
    retired: new Map(retired.map((r) => [r.id, r.replaced_by])),
    heldRows: held.rows[0] ?? { events: true, venues: true, organizers: true },
  };
}

export interface CalendarLoaderOptions {
  /** `--replace`: stored events the file does not list are removed (and give up their slugs). */
  replace: boolean;
  /** Told the length of the events list when it begins, when the source knows it ahead (progress). */
  onEventsList?: ((length: number | undefined) => void) | undefined;
}

/**
 * Takes a calendar part by part (the order of its top-level keys is free), checks each record as
 * it comes, and hands what passed to the writer batch by batch. At the first problem it stops
 * writing but goes on checking, so that one pass reports every problem of the file.
 */
export class CalendarLoader {
  readonly problems = new ImportProblems();
  private readonly seenKeys = new Set<string>();
  /** Sections whose list has ended (or that are not lists): what they hold is known in full. */
  private readonly complete = new Set<SectionName>();
  /** Sections that are not lists: their ids are unknown, so references into them are not checked. */
  private readonly unreadable = new Set<SectionName>();
  private current: SectionName | null = null;
  private index = 0;

  private readonly categories: Pending<CalendarCategory>[] = [];
  private readonly retiredCategories: Pending<CalendarRetiredCategory>[] = [];
  private readonly apiKeys: Pending<CalendarApiKey>[] = [];
  private readonly firstKey = new Map<string, number>();
  private readonly venues = new RecordSection<CalendarVenue>('venues', 'venue', calendarFileSections.venues);
  private readonly organizers = new RecordSection<CalendarOrganizer>('organizers', 'organizer', calendarFileSections.organizers);
  private readonly events = new RecordSection<CalendarEvent>('events', 'event', calendarFileSections.events);

  /** Whether a venue / organizer id not (yet) in the file is stored: asked once per id. */
  private readonly storedVenues = new Map<string, boolean>();
  private readonly storedOrganizers = new Map<string, boolean>();
  // References the file may still satisfy further on: (event position, position in its list, id).
  private readonly categoryNames = new Ordinals();
  private readonly openCategories = new Triples();
  private readonly venueNames = new Ordinals();
  /** The list position is -1 for the event's own venue, else the date's. */
  private readonly openVenues = new Triples();
  private readonly organizerNames = new Ordinals();
  private readonly openOrganizers = new Triples();
  private readonly openSuperEvents: { index: number; id: string; stored: boolean }[] = [];
  private readonly replace: boolean;

  constructor(
    private readonly trx: Transaction<Database>,
    private readonly start: StartState,
    private readonly writer: CalendarWriter,
    private readonly options: CalendarLoaderOptions,
  ) {
    this.replace = options.replace;
  }

  async take(part: CalendarPart): Promise<void> {
    switch (part.kind) {
      case 'element':
        if (this.current !== null) await this.element(this.current, this.index++, part.value);
        return;
      case 'end':
        if (this.current !== null) await this.endSection(this.current);
        this.current = null;
        return;
      case 'notAnObject':
        this.problems.add(`(root): expected a JSON object with the keys ${SECTION_NAMES.join(', ')}; got ${part.description}`);
        return;
      default:
        this.beginKey(part);
    }
  }

  private beginKey(part: Extract<CalendarPart, { key: string }>): void {
    const { key } = part;
    const repeated = this.seenKeys.has(key);
    this.seenKeys.add(key);
    this.current = null;
    if (!isSectionName(key)) {
      if (!repeated) this.problems.add(`${formatPath([key])}: unknown key`);
      return;
    }
    if (repeated) {
      // JSON.parse would keep the last one silently; a stream cannot take the first one back.
      this.problems.add(`${key}: duplicate key (the file lists it twice)`, { section: key });
      return;
    }
    if (part.kind === 'list') {
      this.current = key;
      this.index = 0;
      if (key === 'events') this.options.onEventsList?.(part.length);
    } else {
      if (part.kind === 'value') {
        this.problems.add(`${key}: expected a list, got ${part.description}`, { section: key });
        this.unreadable.add(key);
      }
      this.complete.add(key);
    }
  }

  private parse<T>(section: SectionName, schema: z.ZodType<T>, index: number, value: unknown): Pending<T> {
    const result = schema.safeParse(value, { error: issueMessage });
    if (!result.success) {
      for (const issue of result.error.issues) {
        for (const line of formatIssue([section, index], issue)) this.problems.add(line, { section, index });
      }
    }
    return { index, record: isPlainObject(value) ? value : null, parsed: result.success ? result.data : null };
  }

  private async element(section: SectionName, index: number, value: unknown): Promise<void> {
    switch (section) {
      case 'categories':
        this.categories.push(this.parse(section, calendarFileSections.categories, index, value));
        return;
      case 'retiredCategories':
        this.retiredCategories.push(this.parse(section, calendarFileSections.retiredCategories, index, value));
        return;
      case 'apiKeys': {
        const item = this.parse(section, calendarFileSections.apiKeys, index, value);
        this.apiKeys.push(item);
        const key = item.record ? text(item.record, 'key') : undefined;
        if (key === undefined) return;
        const earlier = this.firstKey.get(key);
        // The key is a secret: the message points at the other entry instead of quoting it.
        if (earlier !== undefined) {
          this.problems.add(`apiKeys[${index}].key: duplicate key (also apiKeys[${earlier}])`, { section, index, check: CHECK.duplicateKey });
        } else this.firstKey.set(detachedString(key), index);
        return;
      }
      case 'venues':
      case 'organizers':
      case 'events': {
        const records = this[section] as RecordSection<unknown>;
        records.batch.push(this.parse(section, records.schema, index, value));
        if (records.batch.length >= WRITE_BATCH) await this.flush(section);
        return;
      }
    }
  }

  private async endSection(section: SectionName): Promise<void> {
    if (section === 'venues' || section === 'organizers' || section === 'events') await this.flush(section);
    this.complete.add(section);
  }

  /**
   * Checks a batch and hands it to the writer. The rows of this batch are prepared while the
   * database still writes the previous one; then the loader waits for that previous one, so that
   * at most one batch is in flight while the next is read. (A batch that needs to read the
   * database waits for all writes first: reads share the transaction's connection.)
   */
  private async flush(section: RecordTable): Promise<void> {
    const before = this.writer.barrier();
    if (section === 'events') await this.flushEvents();
    else if (section === 'venues') {
      const items = await this.flushCatalogue(this.venues);
      if (items) this.writer.writeVenues(items);
    } else {
      const items = await this.flushCatalogue(this.organizers);
      if (items) this.writer.writeOrganizers(items);
    }
    await before;
  }

  /** Stored `id, slug` rows for the given ids and slugs, read in the import's transaction. */
  private async idsAndSlugs(table: RecordTable, ids: Iterable<string>, slugs: Iterable<string>): Promise<{ id: string; slug: string }[]> {
    const idList = [...new Set(ids)];
    const slugList = [...new Set(slugs)];
    if (idList.length === 0 && slugList.length === 0) return [];
    // Arrays travel as one parameter each, whatever the size of the batch.
    return this.trx
      .selectFrom(table)
      .select(['id', 'slug'])
      .where(sql<boolean>`id = any(${idList}::text[]) or slug = any(${slugList}::text[])`)
      .execute();
  }

  private async flushCatalogue<T>(section: RecordSection<T>): Promise<T[] | null> {
    const items = section.batch;
    section.batch = [];
    section.registerIds(items, this.problems);
    if (this.start.heldRows[section.name]) {
      const slugs = items.flatMap((i) => (i.record ? [text(i.record, 'slug')].filter((s): s is string => s !== undefined) : []));
      await this.writer.barrier();
      section.learnHolders(await this.idsAndSlugs(section.name, [], slugs));
    }
    section.checkSlugs(items, true, this.problems);
    return this.problems.count === 0 ? items.map((i) => i.parsed!) : null;
  }

  /** Whether the ids are stored, asked of the database once per id the file does not hold (yet). */
  private async learnStored(table: 'venues' | 'organizers', known: Map<string, boolean>, section: RecordSection<unknown>, ids: Iterable<string>): Promise<void> {
    const asked = [...new Set(ids)].filter((id) => !section.has(id) && !known.has(id));
    if (asked.length === 0) return;
    const found = new Set<string>();
    if (this.start.heldRows[table]) {
      await this.writer.barrier();
      const rows = await this.trx.selectFrom(table).select('id').where(sql<boolean>`id = any(${asked}::text[])`).execute();
      for (const row of rows) found.add(row.id);
    }
    for (const id of asked) known.set(detachedString(id), found.has(id));
  }

  private async flushEvents(): Promise<void> {
    const { events, problems } = this;
    const items = events.batch;
    events.batch = [];
    events.registerIds(items, problems);
    const withRecord = items.filter((i): i is Pending<CalendarEvent> & { record: RawRecord } => i.record !== null);

    // What the database held before the import, for the ids, slugs and references of this batch.
    const stored = new Set<string>();
    if (this.start.heldRows.events) {
      const ids = withRecord.map((i) => text(i.record, 'id')).filter((id): id is string => id !== undefined);
      const superEvents = withRecord.map((i) => text(i.record, 'superEvent')).filter((id): id is string => id !== undefined && !events.has(id));
      const slugs = withRecord.map((i) => text(i.record, 'slug')).filter((s): s is string => s !== undefined);
      await this.writer.barrier();
      const rows = await this.idsAndSlugs('events', [...ids, ...superEvents], slugs);
      // Rows the file wrote before this batch are the file's own; any other row was there before.
      for (const row of rows) if (!events.has(row.id) || (events.firstIndex.get(row.id) ?? -1) >= (items[0]?.index ?? 0)) stored.add(row.id);
      events.learnHolders(rows);
    }
    const venueRefs = withRecord.flatMap((i) => [text(i.record, 'venue'), ...records(i.record, 'dates').map((d) => text(d.record, 'venue'))]);
    await this.learnStored('venues', this.storedVenues, this.venues as RecordSection<unknown>, venueRefs.filter((v): v is string => v !== undefined));
    await this.learnStored('organizers', this.storedOrganizers, this.organizers as RecordSection<unknown>, withRecord.flatMap((i) => texts(i.record, 'organizers').map(([, o]) => o)));

    events.checkSlugs(items, !this.replace, problems);
    const waits = new Set<number>();
    for (const item of withRecord) if (this.checkEventReferences(item.index, item.record, stored)) waits.add(item.index);

    if (problems.count > 0) return;
    this.writer.writeEvents(
      items.map((i): CheckedEvent => ({ event: i.parsed!, stored: stored.has(i.parsed!.id), waits: waits.has(i.index) })),
    );
  }

  private known(section: 'venues' | 'organizers', id: string): boolean {
    const stored = section === 'venues' ? this.storedVenues : this.storedOrganizers;
    return this.unreadable.has(section) || this[section].has(id) || stored.get(id) === true;
  }

  /**
   * The references of one event, in the order they are reported. Returns whether one of its
   * venues or organizers may still come later in the file (the event must then wait to be written).
   */
  private checkEventReferences(index: number, record: RawRecord, stored: Set<string>): boolean {
    const { problems } = this;
    const at = `events[${index}]`;
    const place = (check: number, sub = 0) => ({ section: 'events' as const, index, check, sub });
    const id = text(record, 'id');
    let waits = false;

    const seenCategories = new Set<string>();
    for (const [k, category] of texts(record, 'categories')) {
      // Whether a category exists or is retired depends on sections that may still follow.
      if (seenCategories.has(category)) problems.add(`${at}.categories[${k}]: listed twice`, place(CHECK.eventCategory, k));
      else this.openCategories.push(index, k, this.categoryNames.of(category));
      seenCategories.add(category);
    }

    const seenOrganizers = new Set<string>();
    for (const [k, organizer] of texts(record, 'organizers')) {
      if (seenOrganizers.has(organizer)) problems.add(`${at}.organizers[${k}]: listed twice`, place(CHECK.eventOrganizer, k));
      else if (!this.known('organizers', organizer)) {
        if (this.complete.has('organizers')) problems.add(`${at}.organizers[${k}]: unknown organizer ${JSON.stringify(organizer)}`, place(CHECK.eventOrganizer, k));
        else {
          this.openOrganizers.push(index, k, this.organizerNames.of(organizer));
          waits = true;
        }
      }
      seenOrganizers.add(organizer);
    }

    const venue = (path: string, venueId: string | undefined, position: number, check: number): void => {
      if (venueId === undefined || this.known('venues', venueId)) return;
      if (this.complete.has('venues')) problems.add(`${path}: unknown venue ${JSON.stringify(venueId)}`, place(check, Math.max(position, 0)));
      else {
        this.openVenues.push(index, position, this.venueNames.of(venueId));
        waits = true;
      }
    };
    venue(`${at}.venue`, text(record, 'venue'), -1, CHECK.eventVenue);
    for (const date of records(record, 'dates')) venue(`${at}.dates[${date.index}].venue`, text(date.record, 'venue'), date.index, CHECK.dateVenue);

    const superEvent = text(record, 'superEvent');
    if (superEvent !== undefined) {
      if (superEvent === id) problems.add(`${at}.superEvent: an event cannot be its own super event`, place(CHECK.superEvent));
      else if (!this.events.has(superEvent)) this.openSuperEvents.push({ index, id: detachedString(superEvent), stored: stored.has(superEvent) });
    }
    return waits;
  }

  /**
   * The end of the file: every section is known in full. Closes the open references and checks the
   * categories; throws ImportValidationError with every problem in file order, or hands the
   * writer what only now can be written.
   */
  end(): FileRest {
    const { problems, replace } = this;
    for (const section of SECTION_NAMES) this.complete.add(section);
    const categoryProblem = this.checkCategories();

    for (const [index, k, n] of this.openCategories) {
      const problem = categoryProblem(this.categoryNames.names[n]!);
      if (problem) problems.add(`events[${index}].categories[${k}]: ${problem}`, { section: 'events', index, check: CHECK.eventCategory, sub: k });
    }
    for (const [index, k, n] of this.openOrganizers) {
      const organizer = this.organizerNames.names[n]!;
      if (!this.known('organizers', organizer)) {
        problems.add(`events[${index}].organizers[${k}]: unknown organizer ${JSON.stringify(organizer)}`, { section: 'events', index, check: CHECK.eventOrganizer, sub: k });
      }
    }
    for (const [index, position, n] of this.openVenues) {
      const venue = this.venueNames.names[n]!;
      if (this.known('venues', venue)) continue;
      const message = `unknown venue ${JSON.stringify(venue)}`;
      if (position < 0) problems.add(`events[${index}].venue: ${message}`, { section: 'events', index, check: CHECK.eventVenue });
      else problems.add(`events[${index}].dates[${position}].venue: ${message}`, { section: 'events', index, check: CHECK.dateVenue, sub: position });
    }
    for (const { index, id, stored } of this.openSuperEvents) {
      if (this.events.has(id)) continue;
      const place = { section: 'events' as const, index, check: CHECK.superEvent };
      if (!stored) problems.add(`events[${index}].superEvent: unknown event ${JSON.stringify(id)}`, place);
      else if (replace) problems.add(`events[${index}].superEvent: event ${JSON.stringify(id)} is not in the file, so --replace removes it`, place);
    }
    this.venues.closeSlugs(problems);
    this.organizers.closeSlugs(problems);
    this.events.closeSlugs(problems);

    if (problems.count > 0) throw new ImportValidationError(problems.inFileOrder());
    const parsed = <T>(items: Pending<T>[]): T[] => items.map((i) => i.parsed!);
    return {
      categories: parsed(this.categories),
      retiredCategories: parsed(this.retiredCategories),
      apiKeys: parsed(this.apiKeys),
      eventIds: () => [...this.events.firstIndex.keys()],
    };
  }

  /**
   * The categories and retired categories (a few dozen, kept whole): ids, parents, slugs and
   * replacements. Returns the check of a category reference, which needs both sections.
   */
  private checkCategories(): (id: string) => string | null {
    const { problems, start } = this;
    const raw = (items: Pending<unknown>[]): RawItem[] => items.flatMap((i) => (i.record ? [{ index: i.index, record: i.record }] : []));
    const categories = raw(this.categories);
    const retiredCategories = raw(this.retiredCategories);
    const fileCategories = new Set(categories.map((i) => text(i.record, 'id')).filter((id): id is string => id !== undefined));
    const fileRetired = new Map<string, string[]>();
    for (const { record } of retiredCategories) {
      const id = text(record, 'id');
      if (id !== undefined) fileRetired.set(id, texts(record, 'replacedBy').map(([, r]) => r));
    }
    const replacementsOf = (id: string): string[] | undefined => fileRetired.get(id) ?? start.retired.get(id);
    const retiredMessage = (id: string, replacedBy: string[]): string => {
      const hint = replacedBy.length > 0 ? ` (replaced by ${replacedBy.join(', ')})` : '';
      return `category ${JSON.stringify(id)} is retired${hint} and cannot be used again`;
    };
    const categoryProblem = (id: string): string | null => {
      const replacedBy = replacementsOf(id);
      if (replacedBy !== undefined) return retiredMessage(id, replacedBy);
      if (this.unreadable.has('categories') || fileCategories.has(id) || start.categories.has(id)) return null;
      return `unknown category ${JSON.stringify(id)}`;
    };
    const place = (section: SectionName, index: number, check: number, sub = 0) => ({ section, index, check, sub });

    const duplicateIds = (section: SectionName, items: RawItem[]): void => {
      const first = new Map<string, number>();
      for (const { index, record } of items) {
        const id = text(record, 'id');
        if (id === undefined) continue;
        const earlier = first.get(id);
        if (earlier === undefined) first.set(id, index);
        else problems.add(`${section}[${index}].id: duplicate id ${JSON.stringify(id)} (also ${section}[${earlier}])`, place(section, index, CHECK.duplicateId));
      }
    };

    duplicateIds('categories', categories);
    const parentOf = new Map<string, string | null>([...start.categories.values()].map((c) => [c.id, c.parent_id]));
    for (const { record } of categories) {
      const id = text(record, 'id');
      if (id !== undefined) parentOf.set(id, text(record, 'parent') ?? null);
    }
    for (const { index, record } of categories) {
      const id = text(record, 'id');
      const parent = text(record, 'parent');
      if (id === undefined) continue;
      const at = place('categories', index, CHECK.categoryRetiredOrParent);
      const replacedBy = replacementsOf(id);
      if (replacedBy !== undefined) problems.add(`categories[${index}].id: ${retiredMessage(id, replacedBy)}`, at);
      if (parent === undefined) continue;
      if (parent === id) {
        problems.add(`categories[${index}].parent: a category cannot be its own parent`, at);
        continue;
      }
      const parentProblem = categoryProblem(parent);
      if (parentProblem) {
        problems.add(`categories[${index}].parent: ${parentProblem}`, at);
        continue;
      }
      // Walk up; a chain longer than the number of categories has looped.
      let current: string | null | undefined = parent;
      for (let steps = 0; current && steps <= parentOf.size; steps++) {
        if (current === id) {
          problems.add(`categories[${index}].parent: the parent chain loops back to ${JSON.stringify(id)}`, at);
          break;
        }
        current = parentOf.get(current);
      }
    }
    // Category slugs are unique per language among the categories after the import; retired ones go.
    for (const [field, check] of [['slug_nb', CHECK.categorySlugNb], ['slug_en', CHECK.categorySlugEn]] as const) {
      const claims = new Map<string, { id: string; index?: number }>();
      for (const c of start.categories.values()) if (!fileCategories.has(c.id) && !fileRetired.has(c.id)) claims.set(c[field], { id: c.id });
      for (const { index, record } of categories) {
        const id = text(record, 'id');
        const slug = text(record, field);
        if (id === undefined || slug === undefined) continue;
        const claim = claims.get(slug);
        if (!claim) claims.set(slug, { id, index });
        else if (claim.id !== id) {
          const holder = claim.index === undefined ? `category ${JSON.stringify(claim.id)}` : `categories[${claim.index}]`;
          problems.add(`categories[${index}].${field}: slug ${JSON.stringify(slug)} is already used by ${holder}`, place('categories', index, check));
        }
      }
    }

    duplicateIds('retiredCategories', retiredCategories);
    for (const { index, record } of retiredCategories) {
      const id = text(record, 'id');
      const seen = new Set<string>();
      for (const [k, replacement] of texts(record, 'replacedBy')) {
        const path = `retiredCategories[${index}].replacedBy[${k}]`;
        const problem = replacement === id ? 'a category cannot replace itself' : seen.has(replacement) ? 'listed twice' : categoryProblem(replacement);
        if (problem) problems.add(`${path}: ${problem}`, place('retiredCategories', index, CHECK.replacement, k));
        seen.add(replacement);
      }
    }
    return categoryProblem;
  }
}
