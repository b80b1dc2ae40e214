import type { EventQuery } from '../../domain/event-query.js';
import type { WordMatch } from '../search-matches.js';

/** What a walk is asked and what it answers (find-result-page.ts); every strategy answers the same. */

export type FacetKind = 'venues' | 'organizers' | 'categories';

export interface FacetCount {
  id: string;
  hits: number;
}

/** One node: an event and the date promoted for it (indices into the snapshot). */
export interface NodeIndex {
  event: number;
  date: number;
}

export interface ResultRequest {
  query: EventQuery;
  /** One per search word of the query, in the phase asked (literal or approximate); empty without a search. */
  words: readonly WordMatch[];
  page: number;
  pageSize: number;
  facets: readonly FacetKind[];
  /** Count every node even when no facet is asked (for `totalCount` / `pageInfo`). */
  wantsTotal: boolean;
}

export interface ResultPage {
  nodes: NodeIndex[];
  /** Whether the next page has content. */
  hasMore: boolean;
  /** Null when the scan stopped after the page (nothing asked it to count). */
  totalCount: number | null;
  /** Counts of the facets asked for, most hits first (ties by id). */
  facets: Partial<Record<FacetKind, FacetCount[]>>;
}
