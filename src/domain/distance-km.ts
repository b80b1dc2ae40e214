/**
 * Mean radius of the Earth in km (IUGG R1). The haversine formula on a sphere is within 0.5 % of the
 * ellipsoidal distance: a few metres over the radii "near me" is asked with.
 */
export const EARTH_RADIUS_KM = 6371.0088;

const RADIANS = Math.PI / 180;

/** Great-circle distance in km between two points given in degrees (haversine). NaN when a coordinate is. */
export function distanceKm(latitudeA: number, longitudeA: number, latitudeB: number, longitudeB: number): number {
  const halfDLat = ((latitudeB - latitudeA) * RADIANS) / 2;
  const halfDLon = ((longitudeB - longitudeA) * RADIANS) / 2;
  const h = Math.sin(halfDLat) ** 2 + Math.cos(latitudeA * RADIANS) * Math.cos(latitudeB * RADIANS) * Math.sin(halfDLon) ** 2;
  // min(1, ...): rounding can lift h a hair above 1 for antipodal points, and asin(>1) is NaN.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, h)));
}

/**
 * A distance as `Event.distanceKm` shows it: to 10 metres. Finer would be false precision: a venue's
 * coordinates mark one point of a building and a phone's position is good to some tens of metres.
 */
export function roundDistanceKm(km: number): number {
  return Math.round(km * 100) / 100;
}
