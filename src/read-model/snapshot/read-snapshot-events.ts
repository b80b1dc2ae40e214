import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import {
  EVENT_FEATURED,
  EVENT_FEATURED_SPECIAL,
  EVENT_SUPER,
  MODE_OFFLINE,
  MODE_ONLINE,
  MODE_OTHER,
  type CalendarSnapshot,
  type PackedLists,
} from './calendar-snapshot.js';
import { GrowingColumn } from './growing-column.js';
import type { CatalogueRead } from './read-snapshot-catalogue.js';
import { selectedEvents, type EventSelection } from '../segments/event-segments.js';
import type { SuggestionIndexBuilder } from '../typeahead/suggestion-index.js';

/*
 * A snapshot's events, as load-snapshot.ts reads them in its one view, a bounded number of rows at a time:
 * their columns in the snapshot's event order, and the keys (tags, super-events) numbered as first seen.
 */

/** Rows per statement while reading events and dates: bounds the rows held at once at any size. */
export const ROWS_PER_READ = 50_000;

type EventColumns = Pick<
  CalendarSnapshot,
  | 'categoryIds'
  | 'categoryByKey'
  | 'categoryListed'
  | 'categoryFoldedNames'
  | 'eventIds'
  | 'eventPublishing'
  | 'eventMode'
  | 'eventFlags'
  | 'eventSuperEvent'
  | 'superEventKeys'
  | 'eventTags'
  | 'tagKeys'
  | 'eventCategories'
  | 'eventOrganizers'
>;

export interface EventsRead {
  snapshot: EventColumns;
  eventIndex: Map<string, number>;
  /** `readOrder[i]`: the position in read order of event i. */
  readOrder: Uint32Array;
}

interface EventRow {
  id: string;
  slug: string;
  title_nb: string | null;
  title_en: string | null;
  publishing_ms: number | null;
  mode: string;
  tags: string[];
  super_event_id: string | null;
  featured: boolean;
  featured_special_event: boolean;
  is_super_event: boolean;
  category_ids: string[];
  organizer_ids: string[];
}

/** Keys numbered in first-seen order. */
class KeyNumbers {
  readonly numbers = new Map<string, number>();
  numberOf(key: string): number {
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = this.numbers.size;
      this.numbers.set(key, n);
    }
    return n;
  }
}

/** A packed list per entity, appended entity by entity in read order. */
class ListBuilder {
  private readonly starts = new GrowingColumn(new Uint32Array(0), (n) => new Uint32Array(n));
  private readonly values = new GrowingColumn(new Uint32Array(0), (n) => new Uint32Array(n));
  add(list: Iterable<number>): void {
    this.starts.push(this.values.length);
    for (const value of list) this.values.push(value);
  }
  /** The lists packed in the order `order` gives (entity order[i] becomes entity i). */
  packed(order: Uint32Array): PackedLists {
    const starts = this.starts.array;
    const values = this.values.array;
    const count = this.starts.length;
    const end = (entity: number) => (entity + 1 < count ? starts[entity + 1]! : this.values.length);
    const offsets = new Uint32Array(order.length + 1);
    for (let i = 0; i < order.length; i++) offsets[i + 1] = offsets[i]! + end(order[i]!) - starts[order[i]!]!;
    const packed = new Uint32Array(offsets[order.length]!);
    for (let i = 0; i < order.length; i++) packed.set(values.subarray(starts[order[i]!], end(order[i]!)), offsets[i]);
    return { offsets, values: packed };
  }
}

/** `column` reordered: element order[i] becomes element i. */
function permuted<T extends Float64Array | Int32Array | Uint8Array>(column: T, order: Uint32Array, make: (size: number) => T): T {
  const result = make(order.length);
  for (let i = 0; i < order.length; i++) result[i] = column[order[i]!]!;
  return result;
}

export async function readEvents(
  trx: Transaction<Database>,
  cutoff: Date,
  catalogue: CatalogueRead,
  suggestions: SuggestionIndexBuilder,
  selection: EventSelection | null = null,
): Promise<EventsRead> {
  const categories = new KeyNumbers();
  // Listed categories first, so that their numbers follow the calendar's order.
  for (const c of catalogue.snapshot.catalogue.categories) categories.numberOf(c.id);
  const tags = new KeyNumbers();
  const superEvents = new KeyNumbers();
  // Filled in read order (the database's id order), one row at a time: no row is held past its page.
  const ids: string[] = [];
  const publishing = new GrowingColumn(new Float64Array(0), (n) => new Float64Array(n));
  const mode = new GrowingColumn(new Uint8Array(0), (n) => new Uint8Array(n));
  const flags = new GrowingColumn(new Uint8Array(0), (n) => new Uint8Array(n));
  const superEvent = new GrowingColumn(new Int32Array(0), (n) => new Int32Array(n));
  const tagLists = new ListBuilder();
  const categoryLists = new ListBuilder();
  const organizerLists = new ListBuilder();
  for (let after: string | null = null; ; ) {
    const page: EventRow[] = await trx
      .selectFrom('events as e')
      .select([
        'e.id',
        'e.slug',
        'e.title_nb',
        'e.title_en',
        sql<number | null>`date_part('epoch', e.publishing_date) * 1000`.as('publishing_ms'),
        'e.mode',
        'e.tags',
        'e.super_event_id',
        'e.featured',
        'e.featured_special_event',
        'e.is_super_event',
        sql<string[]>`coalesce((select array_agg(ec.category_id order by ec.position) from event_categories ec where ec.event_id = e.id), '{}')`.as('category_ids'),
        sql<string[]>`coalesce((select array_agg(eo.organizer_id order by eo.position) from event_organizers eo where eo.event_id = e.id), '{}')`.as('organizer_ids'),
      ])
      .where('e.last_ends_at', '>', cutoff)
      .$if(selection !== null, (q) => q.where(selectedEvents('e.id', selection!)))
      .$if(after !== null, (q) => q.where('e.id', '>', after!))
      .orderBy('e.id')
      .limit(ROWS_PER_READ)
      .execute();
    for (const row of page) {
      ids.push(row.id);
      publishing.push(row.publishing_ms == null ? Number.NaN : Number(row.publishing_ms));
      mode.push(row.mode === 'offline' ? MODE_OFFLINE : row.mode === 'online' ? MODE_ONLINE : MODE_OTHER);
      flags.push((row.featured ? EVENT_FEATURED : 0) | (row.featured_special_event ? EVENT_FEATURED_SPECIAL : 0) | (row.is_super_event ? EVENT_SUPER : 0));
      superEvent.push(row.super_event_id == null ? -1 : superEvents.numberOf(row.super_event_id));
      tagLists.add(new Set(row.tags.map((t) => tags.numberOf(t))));
      categoryLists.add(row.category_ids.map((c) => categories.numberOf(c)));
      const organizers: number[] = [];
      for (const o of row.organizer_ids) {
        const index = catalogue.organizerIndex.get(o);
        if (index !== undefined) organizers.push(index);
      }
      organizerLists.add(organizers);
      // Titles are folded here and not kept: the suggestion index holds their words (suggestion-index.ts).
      suggestions.addEvent(row.slug, row.title_nb, row.title_en);
    }
    if (page.length < ROWS_PER_READ) break;
    after = page[page.length - 1]!.id;
  }

  // Code-unit order, whatever the database's collation: event numbers then compare as ids do.
  const n = ids.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
  const eventIds = Array.from(order, (i) => ids[i]!);
  const eventIndex = new Map<string, number>();
  eventIds.forEach((id, i) => eventIndex.set(id, i));

  const categoryIds = [...categories.numbers.keys()];
  const categoryListed = new Uint8Array(categoryIds.length);
  categoryListed.fill(1, 0, catalogue.snapshot.catalogue.categories.length);
  return {
    snapshot: {
      categoryIds,
      categoryByKey: categories.numbers,
      categoryListed,
      categoryFoldedNames: categoryIds.map((id) => catalogue.categoryFolded.get(id) ?? ''),
      eventIds,
      eventPublishing: permuted(publishing.array, order, (size) => new Float64Array(size)),
      eventMode: permuted(mode.array, order, (size) => new Uint8Array(size)),
      eventFlags: permuted(flags.array, order, (size) => new Uint8Array(size)),
      eventSuperEvent: permuted(superEvent.array, order, (size) => new Int32Array(size)),
      superEventKeys: superEvents.numbers,
      eventTags: tagLists.packed(order),
      tagKeys: tags.numbers,
      eventCategories: categoryLists.packed(order),
      eventOrganizers: organizerLists.packed(order),
    },
    eventIndex,
    readOrder: order,
  };
}

