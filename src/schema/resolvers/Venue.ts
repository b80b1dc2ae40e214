import type { VenueFacetResolvers, VenueResolvers } from '../../../generated/resolvers-types.js';
import type { VenueModel } from '../models.js';
import type { DefaultResolvedFields, Satisfies } from '../resolver-result.js';

const location = (v: VenueModel) =>
  v.latitude != null && v.longitude != null ? { latitude: v.latitude, longitude: v.longitude } : null;

// A venue's own properties of the same names, read without a resolver (schema/event-node.ts says why:
// a page of events shows a venue per node).
type _StoredVenueFields = Satisfies<VenueModel, DefaultResolvedFields<VenueResolvers, 'id' | 'slug' | 'name' | 'address' | 'municipality'>>;

export const Venue: VenueResolvers = {
  postalCode: (v) => v.postal_code,
  location: (v) => location(v),
};

export const VenueFacet: VenueFacetResolvers = {
  ...(Venue as Omit<VenueFacetResolvers, 'hits'>),
  hits: (v) => v.hits,
};
