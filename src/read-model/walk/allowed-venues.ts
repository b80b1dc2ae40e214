import { distanceKm } from '../../domain/distance-km.js';
import type { EventQuery } from '../../domain/event-query.js';
import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { membership } from './membership.js';

/**
 * The venue-level conditions (venue slugs, municipality, postal codes, near) as one set of allowed
 * venue numbers, or null when the query has none. Venues are few (hundreds to thousands) next to
 * dates, so `near` costs one distance per venue, not per date.
 */
export function allowedVenues(snapshot: CalendarSnapshot, q: EventQuery): Uint8Array | null {
  if (q.venueSlugSets.length === 0 && q.municipality == null && q.postalCodes == null && q.near == null) return null;
  const venues = snapshot.venueIds.length;
  const allowed = new Uint8Array(venues).fill(1);
  for (const slugs of q.venueSlugSets) {
    const inSet = membership(venues, slugs.map((slug) => snapshot.venueBySlug.get(slug)));
    for (let v = 0; v < venues; v++) allowed[v] = allowed[v]! & inSet[v]!;
  }
  if (q.municipality != null) {
    const wanted = q.municipality.toLowerCase();
    for (let v = 0; v < venues; v++) if (snapshot.venueMunicipalities[v] !== wanted) allowed[v] = 0;
  }
  if (q.postalCodes != null) {
    const codes = new Set(q.postalCodes);
    for (let v = 0; v < venues; v++) {
      const code = snapshot.venuePostalCodes[v];
      if (code == null || !codes.has(code)) allowed[v] = 0;
    }
  }
  if (q.near != null) {
    const { latitude, longitude, radiusKm } = q.near;
    const { venueLatitudes, venueLongitudes } = snapshot;
    // A venue without a location has NaN coordinates: NaN <= radius is false, so it is left out.
    for (let v = 0; v < venues; v++) {
      if (!(distanceKm(latitude, longitude, venueLatitudes[v]!, venueLongitudes[v]!) <= radiusKm)) allowed[v] = 0;
    }
  }
  return allowed;
}
