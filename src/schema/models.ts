import type { CategoryRow, EventRecord, OccurrenceRow, OrganizerRow, StoredImage, StoredPrice, VenueRow } from '../db/database.js';
import type { FacetCount, FacetKind } from '../read-model/walk/result-page.js';

export type { EventRecord };

/** One node of a result: an event with one of its dates promoted, its fields as getters (event-node.ts). */
export type { EventNode } from './event-node.js';
import type { EventNode } from './event-node.js';

/**
 * A page of `events`. Whole-result figures (total, facet counts) are only computed when selected:
 * `totalCount` is null otherwise, `facets` holds the facets selected.
 */
export interface EventConnectionModel {
  nodes: EventNode[];
  /** Whether page + 1 has content, from the page read itself. */
  hasMore: boolean;
  totalCount: number | null;
  page: number;
  pageSize: number;
  facets: Partial<Record<FacetKind, FacetCount[]>>;
}

export type VenueModel = VenueRow;
export type OrganizerModel = OrganizerRow;
export type CategoryModel = CategoryRow;
export type PriceModel = StoredPrice;
export type ImageModel = StoredImage;
export type RepetitionModel = OccurrenceRow;
export type VenueFacetModel = VenueRow & { hits: number };
export type OrganizerFacetModel = OrganizerRow & { hits: number };
export type CategoryFacetModel = CategoryRow & { hits: number };
