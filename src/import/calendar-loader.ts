import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { CalendarPart } from './calendar-parts.js';
import type { CalendarWriter, CheckedEvent, FileRest } from './calendar-writer.js';
import { checkCategories } from './check-categories.js';
import { CHECK_ORDER } from './check-order.js';
import { detachedString } from './detached-string.js';
import { EventReferences } from './event-references.js';
import {
  calendarFileSections,
  type CalendarApiKey,
  type CalendarCategory,
  type CalendarEvent,
  type CalendarOrganizer,
  type CalendarRetiredCategory,
  type CalendarVenue,
} from './import-format.js';
import { ImportProblems, ImportValidationError, type SectionName } from './import-problems.js';
import { parseRecord, type ParsedItem } from './parse-record.js';
import { records, text, texts, type RawRecord } from './raw-record.js';
import type { StartState } from './read-start-state.js';
import { RecordSection, type RecordTable } from './record-section.js';
import { SectionReader, type SectionHandler } from './section-reader.js';
import { StoredIds } from './stored-ids.js';
import { StoredRows } from './stored-rows.js';
import { WRITE_BATCH } from './write-batch.js';

/*
 * The checks of docs/import-format.md ("Loading", step 1), made while the file streams past.
 * Whatever needs the whole file is kept as compact per-id state (ids, slugs, the positions of
 * references still open), never as the records themselves; the few checks that only the end of
 * the file can decide are kept open until then and reported in their place in the file.
 */

export interface CalendarLoaderOptions {
  /** `--replace`: stored events the file does not list are removed (and give up their slugs). */
  replace: boolean;
  /** Told the length of the events list when it begins, when the source knows it ahead (progress). */
  onEventsList?: ((length: number | undefined) => void) | undefined;
}

/**
 * Takes a calendar part by part (SectionReader), checks each record as it comes, and hands what
 * passed to the writer batch by batch. At the first problem it stops writing but goes on checking,
 * so that one pass reports every problem of the file.
 */
export class CalendarLoader implements SectionHandler {
  private readonly problems = new ImportProblems();
  private readonly reader = new SectionReader(this, this.problems);

  // The small sections are kept whole, checked at the end of the file.
  private readonly categories: ParsedItem<CalendarCategory>[] = [];
  private readonly retiredCategories: ParsedItem<CalendarRetiredCategory>[] = [];
  private readonly apiKeys: ParsedItem<CalendarApiKey>[] = [];
  private readonly firstKey = new Map<string, number>();

  private readonly venues = new RecordSection<CalendarVenue>('venues', 'venue', calendarFileSections.venues, this.problems);
  private readonly organizers = new RecordSection<CalendarOrganizer>('organizers', 'organizer', calendarFileSections.organizers, this.problems);
  private readonly events = new RecordSection<CalendarEvent>('events', 'event', calendarFileSections.events, this.problems);

  private readonly storedRows: StoredRows;
  private readonly storedVenues: StoredIds;
  private readonly storedOrganizers: StoredIds;
  private readonly references: EventReferences;

  constructor(
    trx: Transaction<Database>,
    private readonly start: StartState,
    private readonly writer: CalendarWriter,
    private readonly options: CalendarLoaderOptions,
  ) {
    this.storedRows = new StoredRows(trx, () => writer.barrier());
    this.storedVenues = new StoredIds('venues', start.heldRows.venues, this.venues.ids, this.storedRows);
    this.storedOrganizers = new StoredIds('organizers', start.heldRows.organizers, this.organizers.ids, this.storedRows);
    this.references = new EventReferences(
      {
        known: (section, id) => this.reader.unreadable(section) || this[section].ids.has(id) || this.stored(section).has(id),
        complete: (section) => this.reader.complete(section),
        listedEvent: (id) => this.events.ids.has(id),
      },
      options.replace,
      this.problems,
    );
  }

  take(part: CalendarPart): Promise<void> {
    return this.reader.take(part);
  }

  listBegins(section: SectionName, length: number | undefined): void {
    if (section === 'events') this.options.onEventsList?.(length);
  }

  async element(section: SectionName, index: number, value: unknown): Promise<void> {
    const { problems } = this;
    switch (section) {
      case 'categories':
        this.categories.push(parseRecord(section, calendarFileSections.categories, index, value, problems));
        return;
      case 'retiredCategories':
        this.retiredCategories.push(parseRecord(section, calendarFileSections.retiredCategories, index, value, problems));
        return;
      case 'apiKeys': {
        const item = parseRecord(section, calendarFileSections.apiKeys, index, value, problems);
        this.apiKeys.push(item);
        const key = item.record ? text(item.record, 'key') : undefined;
        if (key === undefined) return;
        const earlier = this.firstKey.get(key);
        // The key is a secret: the message points at the other entry instead of quoting it.
        if (earlier !== undefined) {
          problems.add(`apiKeys[${index}].key: duplicate key (also apiKeys[${earlier}])`, { section, index, check: CHECK_ORDER.duplicateKey });
        } else this.firstKey.set(detachedString(key), index);
        return;
      }
      case 'venues':
      case 'organizers':
      case 'events': {
        const records = this[section] as RecordSection<unknown>;
        if (records.push(parseRecord(section, records.schema, index, value, problems)) >= WRITE_BATCH) await this.flush(section);
        return;
      }
    }
  }

  async listEnds(section: SectionName): Promise<void> {
    if (section === 'venues' || section === 'organizers' || section === 'events') await this.flush(section);
  }

  private stored(section: 'venues' | 'organizers'): StoredIds {
    return section === 'venues' ? this.storedVenues : this.storedOrganizers;
  }

  /**
   * Checks a batch and hands it to the writer. The rows of this batch are prepared while the
   * database still writes the previous one; then the loader waits for that previous one, so that
   * at most one batch is in flight while the next is read. (A batch that needs to read the
   * database waits for all writes first: StoredRows.)
   */
  private async flush(section: RecordTable): Promise<void> {
    const previous = this.writer.barrier();
    if (section === 'events') {
      const batch = await this.checkEventBatch();
      if (batch) this.writer.writeEvents(batch);
    } else if (section === 'venues') {
      const batch = await this.checkCatalogueBatch(this.venues);
      if (batch) this.writer.writeVenues(batch);
    } else {
      const batch = await this.checkCatalogueBatch(this.organizers);
      if (batch) this.writer.writeOrganizers(batch);
    }
    await previous;
  }

  /** A batch of venues or organizers: ids and slugs. Null once the file has a problem (nothing more is written). */
  private async checkCatalogueBatch<T>(section: RecordSection<T>): Promise<T[] | null> {
    const items = section.takeBatch();
    if (this.start.heldRows[section.name]) {
      const slugs = items.flatMap((i) => (i.record ? [text(i.record, 'slug')].filter((s): s is string => s !== undefined) : []));
      section.slugs.learnHolders(await this.storedRows.idsAndSlugs(section.name, [], slugs));
    }
    section.slugs.check(items, true);
    return this.problems.count === 0 ? items.map((i) => i.parsed!) : null;
  }

  /** A batch of events: ids, slugs and references. Null once the file has a problem (nothing more is written). */
  private async checkEventBatch(): Promise<CheckedEvent[] | null> {
    const { events } = this;
    const items = events.takeBatch();
    const withRecord = items.filter((i): i is ParsedItem<CalendarEvent> & { record: RawRecord } => i.record !== null);

    // What the database held before the import, for the ids, slugs and references of this batch.
    const stored = new Set<string>();
    if (this.start.heldRows.events) {
      const ids = withRecord.map((i) => text(i.record, 'id')).filter((id): id is string => id !== undefined);
      const superEvents = withRecord.map((i) => text(i.record, 'superEvent')).filter((id): id is string => id !== undefined && !events.ids.has(id));
      const slugs = withRecord.map((i) => text(i.record, 'slug')).filter((s): s is string => s !== undefined);
      const rows = await this.storedRows.idsAndSlugs('events', [...ids, ...superEvents], slugs);
      // Rows the file wrote before this batch are the file's own; any other row was there before.
      for (const row of rows) if (!events.ids.has(row.id) || (events.ids.firstIndex(row.id) ?? -1) >= (items[0]?.index ?? 0)) stored.add(row.id);
      events.slugs.learnHolders(rows);
    }
    const venueRefs = withRecord.flatMap((i) => [text(i.record, 'venue'), ...records(i.record, 'dates').map((d) => text(d.record, 'venue'))]);
    await this.storedVenues.learn(venueRefs.filter((v): v is string => v !== undefined));
    await this.storedOrganizers.learn(withRecord.flatMap((i) => texts(i.record, 'organizers').map(([, o]) => o)));

    events.slugs.check(items, !this.options.replace);
    const waits = new Set<number>();
    for (const item of withRecord) if (this.references.check(item.index, item.record, stored)) waits.add(item.index);

    if (this.problems.count > 0) return null;
    return items.map((i): CheckedEvent => ({ event: i.parsed!, stored: stored.has(i.parsed!.id), waits: waits.has(i.index) }));
  }

  /**
   * The end of the file: every section is known in full. Checks the categories and closes the open
   * references and slugs; throws ImportValidationError with every problem in file order, or hands
   * the writer what only now can be written.
   */
  end(): FileRest {
    const { problems } = this;
    const categoryProblem = checkCategories({
      categories: this.categories,
      retiredCategories: this.retiredCategories,
      start: this.start,
      categoriesUnreadable: this.reader.unreadable('categories'),
      problems,
    });
    this.references.close(categoryProblem);
    this.venues.slugs.close();
    this.organizers.slugs.close();
    this.events.slugs.close();

    if (problems.count > 0) throw new ImportValidationError(problems.inFileOrder());
    const parsed = <T>(items: ParsedItem<T>[]): T[] => items.map((i) => i.parsed!);
    return {
      categories: parsed(this.categories),
      retiredCategories: parsed(this.retiredCategories),
      apiKeys: parsed(this.apiKeys),
      eventIds: () => this.events.ids.ids(),
    };
  }
}
