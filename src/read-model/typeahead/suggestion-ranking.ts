import type { SuggestionKind } from '../../../generated/schema-types.js';

/* How suggestions are ranked and the best few kept (suggestions.ts, layered-suggestions.ts). */

export const KIND_NAMES: readonly SuggestionKind[] = ['VENUE', 'ORGANIZER', 'CATEGORY', 'TAG'];

/** Quality 0: a word of the prefix starts the first word of a label; 1: only inner words. */
export interface Ranked<Label extends number | string = number> {
  quality: number;
  hits: number;
  /**
   * Label rank (SuggestionIndex): unique over every entity, so the order is total; across layers
   * (KeyRanked), the key that rank orders by.
   */
  label: Label;
  kind: SuggestionKind;
  entity: number;
}

/** "Ranked by match quality, then hits, then label." */
export function before<Label extends number | string>(a: Ranked<Label>, b: Ranked<Label>): boolean {
  if (a.quality !== b.quality) return a.quality < b.quality;
  if (a.hits !== b.hits) return a.hits > b.hits;
  return a.label < b.label;
}

/** The best `limit` suggestions so far, in order. */
export class Best<T> {
  readonly list: T[] = [];
  constructor(
    private readonly limit: number,
    private readonly before: (a: T, b: T) => boolean,
  ) {}
  get full(): boolean {
    return this.list.length >= this.limit;
  }
  get worst(): T | undefined {
    return this.list[this.list.length - 1];
  }
  offer(item: T): void {
    const { list, before } = this;
    if (this.full && !before(item, list[list.length - 1]!)) return;
    let at = list.length;
    while (at > 0 && before(item, list[at - 1]!)) at--;
    list.splice(at, 0, item);
    if (list.length > this.limit) list.pop();
  }
}
