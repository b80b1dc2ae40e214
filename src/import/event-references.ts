import type { CategoryProblem } from './check-categories.js';
import { CHECK_ORDER } from './check-order.js';
import { detachedString } from './detached-string.js';
import type { ImportProblems } from './import-problems.js';
import { Ordinals } from './ordinals.js';
import { records, text, texts, type RawRecord } from './raw-record.js';
import { Triples } from './triples.js';

/** What the references of an event are checked against, as far as the file has been read. */
export interface ReferenceTargets {
  /** The id is listed in the file so far, or stored (or its section is no list: not checked). */
  known(section: 'venues' | 'organizers', id: string): boolean;
  /** The section is known in full: an id it does not hold now, it never will. */
  complete(section: 'venues' | 'organizers'): boolean;
  /** The event id is listed in the file so far. */
  listedEvent(id: string): boolean;
}

/**
 * The references of the events: "venue, organizer, category and super event ids must exist in the
 * file or in the database". An id the file may still list further on stays open until the end of
 * the file, kept as numbers (Ordinals, Triples) rather than as one object per reference.
 */
export class EventReferences {
  // (event position, position in its list, id ordinal) of each reference still open.
  private readonly categoryNames = new Ordinals();
  private readonly openCategories = new Triples();
  private readonly venueNames = new Ordinals();
  /** The list position is -1 for the event's own venue, else the date's. */
  private readonly openVenues = new Triples();
  private readonly organizerNames = new Ordinals();
  private readonly openOrganizers = new Triples();
  private readonly openSuperEvents: { index: number; id: string; stored: boolean }[] = [];

  constructor(
    private readonly targets: ReferenceTargets,
    private readonly replace: boolean,
    private readonly problems: ImportProblems,
  ) {}

  /**
   * The references of one event, in the order they are reported. `stored`: the events the database
   * held before the import, among this batch's ids and super events. Returns whether one of its
   * venues or organizers may still come later in the file (the event must then wait to be written).
   */
  check(index: number, record: RawRecord, stored: ReadonlySet<string>): boolean {
    const { problems, targets } = this;
    const at = `events[${index}]`;
    const place = (check: number, sub = 0) => ({ section: 'events' as const, index, check, sub });
    const id = text(record, 'id');
    let waits = false;

    const seenCategories = new Set<string>();
    for (const [k, category] of texts(record, 'categories')) {
      // Whether a category exists or is retired depends on sections that may still follow.
      if (seenCategories.has(category)) problems.add(`${at}.categories[${k}]: listed twice`, place(CHECK_ORDER.eventCategory, k));
      else this.openCategories.push(index, k, this.categoryNames.of(category));
      seenCategories.add(category);
    }

    const seenOrganizers = new Set<string>();
    for (const [k, organizer] of texts(record, 'organizers')) {
      if (seenOrganizers.has(organizer)) problems.add(`${at}.organizers[${k}]: listed twice`, place(CHECK_ORDER.eventOrganizer, k));
      else if (!targets.known('organizers', organizer)) {
        if (targets.complete('organizers')) problems.add(`${at}.organizers[${k}]: unknown organizer ${JSON.stringify(organizer)}`, place(CHECK_ORDER.eventOrganizer, k));
        else {
          this.openOrganizers.push(index, k, this.organizerNames.of(organizer));
          waits = true;
        }
      }
      seenOrganizers.add(organizer);
    }

    const venue = (path: string, venueId: string | undefined, position: number, check: number): void => {
      if (venueId === undefined || targets.known('venues', venueId)) return;
      if (targets.complete('venues')) problems.add(`${path}: unknown venue ${JSON.stringify(venueId)}`, place(check, Math.max(position, 0)));
      else {
        this.openVenues.push(index, position, this.venueNames.of(venueId));
        waits = true;
      }
    };
    venue(`${at}.venue`, text(record, 'venue'), -1, CHECK_ORDER.eventVenue);
    for (const date of records(record, 'dates')) venue(`${at}.dates[${date.index}].venue`, text(date.record, 'venue'), date.index, CHECK_ORDER.dateVenue);

    const superEvent = text(record, 'superEvent');
    if (superEvent !== undefined) {
      if (superEvent === id) problems.add(`${at}.superEvent: an event cannot be its own super event`, place(CHECK_ORDER.superEvent));
      else if (!targets.listedEvent(superEvent)) this.openSuperEvents.push({ index, id: detachedString(superEvent), stored: stored.has(superEvent) });
    }
    return waits;
  }

  /** At the end of the file, every section known in full: what is still open is decided. */
  close(categoryProblem: CategoryProblem): void {
    const { problems, targets } = this;
    for (const [index, k, n] of this.openCategories) {
      const problem = categoryProblem(this.categoryNames.names[n]!);
      if (problem) problems.add(`events[${index}].categories[${k}]: ${problem}`, { section: 'events', index, check: CHECK_ORDER.eventCategory, sub: k });
    }
    for (const [index, k, n] of this.openOrganizers) {
      const organizer = this.organizerNames.names[n]!;
      if (!targets.known('organizers', organizer)) {
        problems.add(`events[${index}].organizers[${k}]: unknown organizer ${JSON.stringify(organizer)}`, { section: 'events', index, check: CHECK_ORDER.eventOrganizer, sub: k });
      }
    }
    for (const [index, position, n] of this.openVenues) {
      const venue = this.venueNames.names[n]!;
      if (targets.known('venues', venue)) continue;
      const message = `unknown venue ${JSON.stringify(venue)}`;
      if (position < 0) problems.add(`events[${index}].venue: ${message}`, { section: 'events', index, check: CHECK_ORDER.eventVenue });
      else problems.add(`events[${index}].dates[${position}].venue: ${message}`, { section: 'events', index, check: CHECK_ORDER.dateVenue, sub: position });
    }
    for (const { index, id, stored } of this.openSuperEvents) {
      if (targets.listedEvent(id)) continue;
      const place = { section: 'events' as const, index, check: CHECK_ORDER.superEvent };
      if (!stored) problems.add(`events[${index}].superEvent: unknown event ${JSON.stringify(id)}`, place);
      else if (this.replace) problems.add(`events[${index}].superEvent: event ${JSON.stringify(id)} is not in the file, so --replace removes it`, place);
    }
  }
}
