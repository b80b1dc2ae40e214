import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import type { FacetCount, FacetKind, ResultPage } from './result-page.js';

/**
 * Counters of the facets asked (null: not asked), filled node by node (`add`, `venueNode`) or, by the
 * closed forms, count by count into the arrays; `ranked` gives the answer's facets. The one place a
 * node counts for its venue, its event's organizers and its event's listed categories.
 */
export class FacetHits {
  readonly venues: Uint32Array | null;
  readonly organizers: Uint32Array | null;
  readonly categories: Uint32Array | null;

  constructor(
    private readonly snapshot: CalendarSnapshot,
    facets: readonly FacetKind[],
  ) {
    this.venues = facets.includes('venues') ? new Uint32Array(snapshot.venueIds.length) : null;
    this.organizers = facets.includes('organizers') ? new Uint32Array(snapshot.organizerIds.length) : null;
    this.categories = facets.includes('categories') ? new Uint32Array(snapshot.categoryIds.length) : null;
  }

  /** `nodes` more nodes of the event (`date`: one of them, when one, for its venue; -1: counted by `venueNode`). */
  add(event: number, nodes: number, date: number): void {
    const { organizers, categories } = this;
    if (date >= 0) this.venueNode(date);
    if (organizers) {
      const { offsets, values } = this.snapshot.eventOrganizers;
      for (let k = offsets[event]!; k < offsets[event + 1]!; k++) organizers[values[k]!] = organizers[values[k]!]! + nodes;
    }
    if (categories) {
      const { offsets, values } = this.snapshot.eventCategories;
      const listed = this.snapshot.categoryListed;
      for (let k = offsets[event]!; k < offsets[event + 1]!; k++) {
        const category = values[k]!;
        if (listed[category] === 1) categories[category] = categories[category]! + nodes;
      }
    }
  }

  /** One node at this date, for its venue (a date without a venue counts for none). */
  venueNode(date: number): void {
    const venues = this.venues;
    if (!venues) return;
    const venue = this.snapshot.dateVenue[date]!;
    if (venue >= 0) venues[venue] = venues[venue]! + 1;
  }

  ranked(): ResultPage['facets'] {
    const { venues, organizers, categories, snapshot } = this;
    return {
      ...(venues ? { venues: rankFacet(venues, snapshot.venueIds) } : {}),
      ...(organizers ? { organizers: rankFacet(organizers, snapshot.organizerIds) } : {}),
      ...(categories ? { categories: rankFacet(categories, snapshot.categoryIds) } : {}),
    };
  }
}

/** Entries with hits, most hits first, ties by id (code-unit order). */
function rankFacet(hits: Uint32Array, ids: readonly string[]): FacetCount[] {
  const counted: FacetCount[] = [];
  for (let i = 0; i < hits.length; i++) if (hits[i]! > 0) counted.push({ id: ids[i]!, hits: hits[i]! });
  return counted.sort((a, b) => b.hits - a.hits || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
