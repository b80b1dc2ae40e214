import type { EventQuery } from '../../domain/event-query.js';
import type { WordMatch } from '../search/search-matches.js';

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
  /**
   * The first listing position `nodes` holds, at most the page's own (page · pageSize, the default):
   * `nodes` is then every node from there to the page's end. A layered page asks its base so
   * (layered-result-page.ts). The walk, its plan, `hasMore` and the total are the page's all the same.
   */
  nodesFrom?: number;
}

/** The listing positions [first, last) of the nodes a request's answer holds (`nodesFrom` to the page's end). */
export function answeredPositions(request: Pick<ResultRequest, 'page' | 'pageSize' | 'nodesFrom'>): { first: number; last: number } {
  const last = (request.page + 1) * request.pageSize;
  return { first: Math.max(0, Math.min(request.nodesFrom ?? last - request.pageSize, last - request.pageSize)), last };
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
