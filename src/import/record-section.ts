import type { z } from 'zod';
import { detachedString } from './detached-string.js';
import type { ImportProblems } from './import-problems.js';
import type { ParsedItem } from './parse-record.js';
import { text } from './raw-record.js';
import { SectionIds } from './section-ids.js';
import { SlugClaims } from './slug-claims.js';

export type RecordTable = 'venues' | 'organizers' | 'events';

/**
 * One of the large sections (venues, organizers, events), checked and written a batch at a time.
 * What it keeps between batches is per-id state only (ids and slug claims), never the records.
 */
export class RecordSection<T> {
  /** The elements read since the last batch was checked. */
  private pending: ParsedItem<T>[] = [];
  readonly ids: SectionIds;
  readonly slugs: SlugClaims;

  constructor(
    readonly name: RecordTable,
    kind: string,
    readonly schema: z.ZodType<T>,
    problems: ImportProblems,
  ) {
    this.ids = new SectionIds(name, problems);
    this.slugs = new SlugClaims(name, kind, this.ids, problems);
  }

  /** Adds an element; returns how many wait for the next batch. */
  push(item: ParsedItem<T>): number {
    return this.pending.push(item);
  }

  /** The elements read since the last batch, their ids registered in file order. */
  takeBatch(): ParsedItem<T>[] {
    const items = this.pending;
    this.pending = [];
    for (const { index, record } of items) {
      const read = record ? text(record, 'id') : undefined;
      this.ids.add(index, read === undefined ? undefined : detachedString(read));
    }
    return items;
  }
}
