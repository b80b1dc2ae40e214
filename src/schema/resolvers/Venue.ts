import type { VenueFacetResolvers, VenueResolvers } from '../../../generated/resolvers-types.js';
import type { VenueModel } from '../models.js';

const location = (v: VenueModel) =>
  v.latitude != null && v.longitude != null ? { latitude: v.latitude, longitude: v.longitude } : null;

export const Venue: VenueResolvers = {
  id: (v) => v.id,
  slug: (v) => v.slug,
  name: (v) => v.name,
  address: (v) => v.address,
  postalCode: (v) => v.postal_code,
  municipality: (v) => v.municipality,
  location: (v) => location(v),
};

export const VenueFacet: VenueFacetResolvers = {
  ...(Venue as Omit<VenueFacetResolvers, 'hits'>),
  hits: (v) => v.hits,
};
