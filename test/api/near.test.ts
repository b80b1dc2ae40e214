import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { createGraphQLRunner, type GraphQLRunner } from '../support/graphql-runner.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';

/*
 * Venues around Oslo Central Station (the point asked from), one in Bergen, one without a location;
 * a tour whose first date is in Bergen and second in Oslo. Seen from NOW (Wednesday 25 March 2026).
 */
const NOW = new Date('2026-03-25T12:00:00+01:00');
const OSLO_S = { latitude: 59.9111, longitude: 10.7528 };

const venue = (id: string, latitude: number | null, longitude: number | null) => ({
  id,
  slug: id.toLowerCase(),
  name: `Scene ${id}`,
  address: `${id}gata 1`,
  postalCode: '0150',
  municipality: 'Oslo',
  location: latitude === null || longitude === null ? null : { latitude, longitude },
});
const VENUES = [
  venue('V-CENTRUM', 59.9127, 10.7461), // 0.41 km
  venue('V-LOKKA', 59.9225, 10.759), // ~1.3 km
  venue('V-SANDVIKA', 59.891, 10.523), // ~13 km
  venue('V-BERGEN', 60.3913, 5.3221), // ~305 km
  venue('V-NOWHERE', null, null),
];

const event = (id: string, venueId: string | null, dates: { start: string; end?: string; venue?: string }[], extra: Record<string, unknown> = {}) => ({
  id,
  slug: id.toLowerCase(),
  title_nb: `Tittel ${id}`,
  categories: ['CONCERT'],
  organizers: ['ORG'],
  venue: venueId,
  created_at: '2026-01-01T10:00:00+01:00',
  updated_at: '2026-01-01T10:00:00+01:00',
  dates,
  ...extra,
});

const calendar = {
  categories: [
    { id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' },
    { id: 'THEATER', name_nb: 'Teater', name_en: 'Theater', slug_nb: 'teater', slug_en: 'theater' },
  ],
  venues: VENUES,
  organizers: [{ id: 'ORG', slug: 'org', name: 'Arrangør', website: null }],
  events: [
    event('E-CENTRUM', 'V-CENTRUM', [{ start: '2026-03-26T19:00:00+01:00', end: '2026-03-26T21:00:00+01:00' }]),
    event('E-LOKKA', 'V-LOKKA', [{ start: '2026-03-27T19:00:00+01:00' }], { categories: ['THEATER'] }),
    event('E-SANDVIKA', 'V-SANDVIKA', [{ start: '2026-03-25T20:00:00+01:00' }]),
    event('E-BERGEN', 'V-BERGEN', [{ start: '2026-03-25T18:00:00+01:00' }]),
    event('E-NOWHERE', 'V-NOWHERE', [{ start: '2026-03-25T19:00:00+01:00' }]),
    event('E-ONLINE', null, [{ start: '2026-03-25T19:30:00+01:00' }], { mode: 'online' }),
    event('E-TOUR', 'V-BERGEN', [
      { start: '2026-03-25T21:00:00+01:00' },
      { start: '2026-03-28T21:00:00+01:00', venue: 'V-LOKKA' },
    ]),
  ],
};

/** The haversine formula as a textbook writes it, for comparing with the service's distances. */
function referenceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
}
const locationOf = (venueId: string) => VENUES.find((v) => v.id === venueId)!.location!;

let database: DatabaseHandle;
let run: GraphQLRunner;

beforeAll(async () => {
  database = await createTestDatabase();
  await importCalendar(database, calendar);
  run = createGraphQLRunner(database, () => NOW);
});
afterAll(async () => {
  await run?.close();
  await database?.close();
});

const PAGE = `query ($filter: Filter) {
  events(filter: $filter, pageSize: 100) {
    totalCount
    data { id startDate distanceKm venue { id } }
    venues { id hits } categories { id hits }
  }
}`;
interface Page {
  totalCount: number;
  data: { id: string; startDate: string; distanceKm: number | null; venue: { id: string } | null }[];
  venues: { id: string; hits: number }[];
  categories: { id: string; hits: number }[];
}
async function page(filter: Record<string, unknown>): Promise<Page> {
  const result = await run(PAGE, { filter });
  expect(result.errors).toBeUndefined();
  return (result.data as { events: Page }).events;
}

describe(`events filter (${databaseLabel}): near`, () => {
  it('keeps the dates whose venue lies within the radius, chronologically, with each distance', async () => {
    const p = await page({ near: { ...OSLO_S, radiusKm: 5 } });
    expect(p.data.map((n) => [n.id, n.startDate, n.venue?.id])).toEqual([
      ['E-CENTRUM', '2026-03-26 19:00:00+01:00', 'V-CENTRUM'],
      ['E-LOKKA', '2026-03-27 19:00:00+01:00', 'V-LOKKA'],
      // The tour's Bergen date is out of range: its Oslo date is promoted.
      ['E-TOUR', '2026-03-28 21:00:00+01:00', 'V-LOKKA'],
    ]);
    expect(p.totalCount).toBe(3);
    for (const node of p.data) {
      expect(node.distanceKm).toBe(Math.round(referenceKm(OSLO_S, locationOf(node.venue!.id)) * 100) / 100);
    }
    // By the flat-earth rule of thumb: 178 m north, 374 m west (a degree of longitude is ~55.7 km here).
    expect(p.data[0]!.distanceKm).toBe(0.41);
  });

  it('leaves out dates without a venue location and online events without a venue', async () => {
    const p = await page({ near: { ...OSLO_S, radiusKm: 1000 } });
    expect(p.data.map((n) => n.id)).toEqual(['E-BERGEN', 'E-SANDVIKA', 'E-TOUR', 'E-CENTRUM', 'E-LOKKA']);
    expect(p.data.find((n) => n.id === 'E-BERGEN')!.distanceKm).toBe(Math.round(referenceKm(OSLO_S, locationOf('V-BERGEN')) * 100) / 100);
  });

  it('includes a venue just inside the radius and not one just outside', async () => {
    const sandvika = referenceKm(OSLO_S, locationOf('V-SANDVIKA'));
    expect((await page({ near: { ...OSLO_S, radiusKm: sandvika + 0.001 } })).data.map((n) => n.id)).toContain('E-SANDVIKA');
    expect((await page({ near: { ...OSLO_S, radiusKm: sandvika - 0.001 } })).data.map((n) => n.id)).not.toContain('E-SANDVIKA');
    // The point itself: distance 0 is inside the smallest radius.
    const at = await page({ near: { ...locationOf('V-CENTRUM'), radiusKm: 0.001 } });
    expect(at.data.map((n) => [n.id, n.distanceKm])).toEqual([['E-CENTRUM', 0]]);
  });

  it('counts the facets over the nodes near the point only', async () => {
    const p = await page({ near: { ...OSLO_S, radiusKm: 5 } });
    expect(p.venues).toEqual([
      { id: 'V-LOKKA', hits: 2 },
      { id: 'V-CENTRUM', hits: 1 },
    ]);
    expect(p.categories).toEqual([
      { id: 'CONCERT', hits: 2 },
      { id: 'THEATER', hits: 1 },
    ]);
  });

  it('combines with the other filters', async () => {
    const p = await page({ near: { ...OSLO_S, radiusKm: 20 }, categories: ['CONCERT'], untilDate: '2026-03-27 00:00:00+01:00' });
    expect(p.data.map((n) => n.id)).toEqual(['E-SANDVIKA', 'E-CENTRUM']);
  });

  it('gives no distance without near, also on the lookups', async () => {
    const p = await page({});
    expect(p.data.every((n) => n.distanceKm === null)).toBe(true);
    const byId = await run(`{ eventByID(eventID: "E-CENTRUM") { distanceKm } }`);
    expect(byId.data).toEqual({ eventByID: { distanceKm: null } });
  });

  it('refuses coordinates and radii out of range, naming each', async () => {
    const cases: [Record<string, number>, string[]][] = [
      [{ latitude: 90.5, longitude: 10, radiusKm: 5 }, ['near.latitude']],
      [{ latitude: -91, longitude: 181, radiusKm: 5 }, ['near.latitude', 'near.longitude']],
      [{ latitude: 59, longitude: -180.01, radiusKm: 0 }, ['near.longitude', 'near.radiusKm']],
      [{ latitude: 59, longitude: 10, radiusKm: -1 }, ['near.radiusKm']],
      [{ latitude: 59, longitude: 10, radiusKm: 1000.5 }, ['near.radiusKm']],
    ];
    for (const [near, invalidArgs] of cases) {
      const result = await run(PAGE, { filter: { near } });
      expect(result.data, JSON.stringify(near)).toBeNull();
      expect(result.errors?.[0]?.message).toBe('Query Arguments invalid');
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(result.errors?.[0]?.extensions?.['invalidArgs']).toEqual(invalidArgs);
    }
    // The edges themselves are valid.
    const edges = await run(PAGE, { filter: { near: { latitude: -90, longitude: 180, radiusKm: 1000 } } });
    expect(edges.errors).toBeUndefined();
  });

  it('requires all three fields (GraphQL validation)', async () => {
    const result = await run(PAGE, { filter: { near: { latitude: 59.9, longitude: 10.7 } } });
    expect(result.errors?.[0]?.message).toMatch(/radiusKm/);
  });
});
