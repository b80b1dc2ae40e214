import type { VenueFacetResolvers, VenueResolvers } from '../../../generated/resolvers-types.js';
import type { VenueModel } from '../models.js';
import type { SharedResolvers } from '../field-coverage.js';
import { VENUE_FIELDS } from '../../fields/calendar-fields.js';
import { renamedFieldResolvers } from '../../fields/field-declaration.js';

const location = (v: VenueModel) =>
  v.latitude != null && v.longitude != null ? { latitude: v.latitude, longitude: v.longitude } : null;

// Every other field is the venue's own property of the same name, read without a resolver
// (schema/event-node.ts says why: a page of events shows a venue per node); field-coverage.ts checks
// their types against the schema. A stored field whose column has another name (src/fields) gets one.

/** The fields a venue and a venue facet both have that need a resolver. */
const venueFields = {
  ...renamedFieldResolvers(VENUE_FIELDS),
  location: (v) => location(v),
} satisfies SharedResolvers<VenueResolvers, VenueFacetResolvers>;

export const Venue = { ...venueFields } satisfies VenueResolvers;

export const VenueFacet = {
  ...venueFields,
  hits: (v) => v.hits,
} satisfies VenueFacetResolvers;
