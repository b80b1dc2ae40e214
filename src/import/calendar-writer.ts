import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import {
  purgeOldTombstones,
  recordCatalogueChanges,
  recordCategoryRetirement,
  recordWrittenEvents,
  removeEventsNotListed,
  rewriteDigests,
} from '../db/repositories/event-changes.js';
import { recordDataVersion, type CatalogueChanges } from '../db/repositories/data-version-purges.js';
import { BULK_LOAD_EVENTS, BULK_TABLES, deferConstraintsAndIndexes } from './defer-constraints-and-indexes.js';
import type {
  CalendarApiKey,
  CalendarCategory,
  CalendarEvent,
  CalendarOrganizer,
  CalendarRetiredCategory,
  CalendarVenue,
} from './import-format.js';
import { parkTakenSlugs } from './park-taken-slugs.js';
import { prepareEventBatch, type PreparedBatch } from './prepare-event-batch.js';
import { retireCategory } from './retire-category.js';
import { compareWithStored } from './stored-digests.js';
import { upsertApiKeys } from './upsert-api-keys.js';
import { upsertCategories } from './upsert-categories.js';
import { upsertOrganizers } from './upsert-organizers.js';
import { upsertVenues } from './upsert-venues.js';
import { WaitingEvents, type WaitingEvent } from './waiting-events.js';
import { WriteQueue } from './write-queue.js';

/** What one import listed, and what it did with the events. */
export interface ImportSummary {
  categories: number;
  venues: number;
  organizers: number;
  /** Events the file lists (each one added, changed or unchanged), and their dates. */
  events: number;
  occurrences: number;
  apiKeys: number;
  /** Listed events the database did not hold: written. */
  addedEvents: number;
  /** Listed events the database held with another digest (another record): written, announced in the change log. */
  changedEvents: number;
  /** Listed events the database held as they are (the same digest): not written, their rows and change-log place kept. */
  unchangedEvents: number;
  /** Events deleted because `--replace` was given and the file does not list them. */
  removedEvents: number;
  retiredCategories: number;
}

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

export interface CalendarWriterOptions {
  /** Which tables held rows before the import (an empty one needs no slug parking, nor --replace). */
  heldRows: { events: boolean; venues: boolean; organizers: boolean };
  replace: boolean;
  /** Called after each batch of events is written, with the number written so far. */
  onEventsWritten?: ((written: number) => void) | undefined;
  /** The data version this import commits: what it records in the change log (docs/change-sync.md). */
  changeVersion: string;
}

/**
 * Writes a checked calendar in the import's transaction, batch by batch as the loader hands the
 * batches over. Writes run one after another in the background (WriteQueue): the loader reads and
 * checks the next batch meanwhile, and waits at the `barrier` before it reads the database and
 * after it hands over a batch, so at most one batch is in flight. The loader stops handing
 * anything over at the first problem of the file; the transaction is then rolled back whatever was
 * written.
 */
export class CalendarWriter {
  private readonly summary: ImportSummary = {
    categories: 0,
    venues: 0,
    organizers: 0,
    events: 0,
    occurrences: 0,
    apiKeys: 0,
    addedEvents: 0,
    changedEvents: 0,
    unchangedEvents: 0,
    removedEvents: 0,
    retiredCategories: 0,
  };

  private readonly queue = new WriteQueue();
  private readonly waiting: WaitingEvents;
  private eventsGiven = 0;
  private bulk = false;
  private restoreConstraintsAndIndexes: (() => Promise<void>) | null = null;
  /** Stored venues, organizers and categories whose shown values the file changed: their events change too. */
  private readonly changedCatalogue = { venues: new Set<string>(), organizers: new Set<string>(), categories: new Set<string>() };
  /** Whether each catalogue list changed at all (new, changed or retired entries): what the CDN purges. */
  private readonly cataloguesChanged: CatalogueChanges = { venues: false, organizers: false, categories: false };

  constructor(
    private readonly trx: Transaction<Database>,
    private readonly options: CalendarWriterOptions,
  ) {
    this.waiting = new WaitingEvents(trx);
  }

  /** The writes handed over so far (see WriteQueue.barrier); throws the first one that failed. */
  barrier(): Promise<void> {
    return this.queue.barrier();
  }

  /** Waits for the writes in flight whatever their outcome (before the transaction is rolled back). */
  settle(): Promise<void> {
    return this.queue.settle();
  }

  writeVenues(venues: readonly CalendarVenue[]): void {
    if (venues.length === 0) return;
    const { trx, options } = this;
    this.queue.enqueue(async () => {
      if (options.heldRows.venues) await parkTakenSlugs(trx, 'venues', venues);
      const written = await upsertVenues(trx, venues);
      if (written.length > 0) this.cataloguesChanged.venues = true;
      // A venue new to the database has no stored events: only those stored before matter.
      if (options.heldRows.venues) for (const id of written) this.changedCatalogue.venues.add(id);
      this.summary.venues += venues.length;
    });
  }

  writeOrganizers(organizers: readonly CalendarOrganizer[]): void {
    if (organizers.length === 0) return;
    const { trx, options } = this;
    this.queue.enqueue(async () => {
      if (options.heldRows.organizers) await parkTakenSlugs(trx, 'organizers', organizers);
      const written = await upsertOrganizers(trx, organizers);
      if (written.length > 0) this.cataloguesChanged.organizers = true;
      if (options.heldRows.organizers) for (const id of written) this.changedCatalogue.organizers.add(id);
      this.summary.organizers += organizers.length;
    });
  }

  /**
   * Events whose venue or organizer may still come later in the file wait (WaitingEvents), unless
   * the foreign keys are off for a first bulk load. The rows of a batch of new events are prepared at
   * once, while the database still writes the previous batch; a batch holding stored events is
   * prepared once compared with what is stored (only what differs is written).
   */
  writeEvents(batch: readonly CheckedEvent[]): void {
    if (batch.length === 0) return;
    this.eventsGiven += batch.length;
    if (!this.bulk && !this.options.heldRows.events && this.eventsGiven >= BULK_LOAD_EVENTS) {
      this.bulk = true;
      this.queue.enqueue(async () => {
        this.restoreConstraintsAndIndexes = await deferConstraintsAndIndexes(this.trx);
      });
    }
    const waiting = this.bulk ? [] : batch.filter((e) => e.waits);
    const ready = waiting.length === 0 ? batch : batch.filter((e) => !e.waits);
    if (waiting.length > 0) this.queue.enqueue(() => this.waiting.park(waiting));
    if (ready.length > 0) {
      const prepared = ready.some((e) => e.stored) ? null : prepareEventBatch(ready);
      this.queue.enqueue(() => this.runEventBatch(ready, prepared));
    }
  }

  /** Writes the batch's new and changed events (`prepared`: the whole batch's statements, when made ahead). */
  private async runEventBatch(batch: readonly WaitingEvent[], prepared: PreparedBatch | null): Promise<void> {
    const compared = await compareWithStored(this.trx, batch);
    const { write } = compared;
    if (write.length > 0) {
      if (this.options.heldRows.events) await parkTakenSlugs(this.trx, 'events', write.map((e) => e.event));
      const statements = prepared !== null && write.length === batch.length ? prepared.statements : prepareEventBatch(write).statements;
      for (const statement of statements) await statement.execute(this.trx);
    }
    // Digests an earlier release stored for the same records: rewritten in the current form, versions kept.
    await rewriteDigests(this.trx, compared.rewritten);
    await recordWrittenEvents(this.trx, this.options.changeVersion, compared.digests);
    const summary = this.summary;
    summary.events += batch.length;
    for (const { event } of batch) summary.occurrences += event.dates.length;
    summary.addedEvents += compared.added;
    summary.changedEvents += compared.changed;
    summary.unchangedEvents += compared.unchanged;
    this.options.onEventsWritten?.(summary.events);
  }

  /** Writes what only the end of the file completes, then everything derived from the data. */
  async finish(rest: FileRest): Promise<ImportSummary> {
    await this.barrier();
    await this.writeCategories(rest.categories);
    await this.writeWaitingEvents();
    await this.removeUnlistedEvents(rest.eventIds);
    await this.restoreAfterBulkLoad();
    await this.retireCategories(rest.retiredCategories);
    await this.writeApiKeys(rest.apiKeys);
    await this.refreshSearchWords();
    await this.recordChanges();
    await this.bumpCalendarState();
    await this.analyzeAfterBulkLoad();
    return this.summary;
  }

  private async writeCategories(categories: readonly CalendarCategory[]): Promise<void> {
    const { written, changedShown } = await upsertCategories(this.trx, categories);
    if (written > 0) this.cataloguesChanged.categories = true;
    for (const id of changedShown) this.changedCatalogue.categories.add(id);
    this.summary.categories += categories.length;
  }

  /** Listed events written (added or changed) so far. */
  private eventsWritten(): number {
    return this.summary.addedEvents + this.summary.changedEvents;
  }

  /** The events that waited for a later venue or organizer, now that every one is written. */
  private async writeWaitingEvents(): Promise<void> {
    for await (const batch of this.waiting.batches()) await this.runEventBatch(batch, null);
  }

  /** `--replace`: only a table that held events before the import can hold events the file does not list. */
  private async removeUnlistedEvents(eventIds: () => string[]): Promise<void> {
    if (!this.options.replace || !this.options.heldRows.events) return;
    // Each removed event leaves a tombstone for change sync, in the same statement.
    this.summary.removedEvents = await removeEventsNotListed(this.trx, this.options.changeVersion, eventIds());
  }

  /** The foreign keys and indexes a first bulk load dropped, created again before the commit. */
  private async restoreAfterBulkLoad(): Promise<void> {
    if (this.restoreConstraintsAndIndexes) await this.restoreConstraintsAndIndexes();
  }

  private async retireCategories(retiredCategories: readonly CalendarRetiredCategory[]): Promise<void> {
    for (const retired of retiredCategories) {
      await recordCategoryRetirement(this.trx, this.options.changeVersion, retired.id);
      await retireCategory(this.trx, retired);
      this.cataloguesChanged.categories = true;
      this.summary.retiredCategories++;
    }
  }

  private async writeApiKeys(apiKeys: readonly CalendarApiKey[]): Promise<void> {
    await upsertApiKeys(this.trx, apiKeys);
    this.summary.apiKeys += apiKeys.length;
  }

  /**
   * The approximate-search dictionary follows the events' text (in this transaction, so a failed
   * import leaves it as it was).
   */
  private async refreshSearchWords(): Promise<void> {
    if (this.eventsWritten() > 0 || this.summary.removedEvents > 0) await sql`refresh materialized view search_words`.execute(this.trx);
  }

  /** Change sync: events of changed venues, organizers and categories changed too; old tombstones go. */
  private async recordChanges(): Promise<void> {
    const { venues, organizers, categories } = this.changedCatalogue;
    await recordCatalogueChanges(this.trx, this.options.changeVersion, { venues: [...venues], organizers: [...organizers], categories: [...categories] });
    await purgeOldTombstones(this.trx);
  }

  /**
   * Totals and facets cached for the old data are not reused from here on (see calendar_state); the
   * CDN edges are purged of what this version changed (data_version_purges).
   */
  private async bumpCalendarState(): Promise<void> {
    await this.trx.updateTable('calendar_state').set({ version: sql`version + 1` }).execute();
    await recordDataVersion(this.trx, this.options.changeVersion, this.cataloguesChanged);
  }

  /** Fresh planner statistics after a large load: PGlite runs no autovacuum to gather them. */
  private async analyzeAfterBulkLoad(): Promise<void> {
    if (this.eventsWritten() < BULK_LOAD_EVENTS) return;
    await sql`analyze ${sql.join(BULK_TABLES.map((t) => sql.table(t)))}`.execute(this.trx);
    await sql`analyze event_changes`.execute(this.trx);
  }
}
