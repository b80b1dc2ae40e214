import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel } from '../support/test-database.js';
import { postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A whole-world `allUpcomingEventsInArea` over more events than one large answer's threshold (1 000):
 * such answers are read in chunks, with only the columns the selection reads, and handed to the
 * executor a chunk per turn of the event loop, one at a time per process. The answer must still be
 * every event, once, chronological, each field as `events` shows it with jsonLd selected (which
 * makes it read every column).
 */
const NOW = new Date('2026-05-04T12:00:00+02:00');
const EVENTS = 1_600;

const venues = [
  { id: 'V-OSLO', slug: 'oslo', name: 'Oslo scene', municipality: 'Oslo', location: { latitude: 59.91, longitude: 10.75 } },
  { id: 'V-BERGEN', slug: 'bergen', name: 'Bergen scene', municipality: 'Bergen', location: { latitude: 60.39, longitude: 5.32 } },
  { id: 'V-TROMSO', slug: 'tromso', name: 'Tromsø scene', municipality: 'Tromsø', location: { latitude: 69.65, longitude: 18.96 } },
  // No location: never inside any box.
  { id: 'V-NOWHERE', slug: 'nowhere', name: 'Ukjent sted' },
];

const stamp = (day: number, hour: number) => {
  const date = new Date(Date.UTC(2026, 4, 1 + day, hour - 2, (day * 7) % 60));
  return date.toISOString().replace('.000Z', 'Z');
};

function event(i: number) {
  const id = `A-${String(i).padStart(5, '0')}`;
  // Events 0..9 have ended (before NOW), the rest start over the next months; some have more dates.
  const first = i < 10 ? -5 : 1 + (i % 90);
  const dates = [{ start: stamp(first, 18 + (i % 4)), end: stamp(first, 20 + (i % 4)) }];
  if (i % 3 === 0) dates.push({ start: stamp(first + 7, 19), end: stamp(first + 7, 21) });
  if (i % 5 === 0) dates.push({ start: stamp(first + 14, 12), end: stamp(first + 14, 13) });
  return {
    id,
    slug: id.toLowerCase(),
    title_nb: `Arrangement ${i}`,
    title_en: i % 2 === 0 ? `Event ${i}` : null,
    desc_nb: `Beskrivelse ${i}`,
    categories: [i % 2 === 0 ? 'CONCERT' : 'THEATER'],
    organizers: ['ORG-1'],
    venue: venues[i % venues.length]!.id,
    tags: i % 4 === 0 ? ['jazz', 'natt'] : [],
    ticketsInformation: i % 3 === 0 ? 'ticketsInfo' : 'free',
    prices: i % 3 === 0 ? [{ type: 'REGULAR', price: `${100 + i} kr` }, { type: 'STUDENT', price: 50 }] : [],
    images: [{ urlSmall: `https://images.example.no/${id}-s.jpg`, urlLarge: `https://images.example.no/${id}-l.jpg`, alt: `Bilde ${i}` }],
    minimumAge: i % 7 === 0 ? 18 : null,
    publishingDate: i % 11 === 0 ? '2026-04-01T00:00:00+02:00' : null,
    dates,
    created_at: '2026-04-01T10:00:00+02:00',
    updated_at: '2026-04-02T10:00:00+02:00',
  };
}

const calendar = {
  categories: [
    { id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' },
    { id: 'THEATER', name_nb: 'Teater / show', name_en: 'Theater / show', slug_nb: 'teater-show', slug_en: 'theater-show' },
  ],
  venues,
  organizers: [{ id: 'ORG-1', slug: 'arrangoren', name: 'Arrangøren', website: 'https://example.org' }],
  events: Array.from({ length: EVENTS }, (_, i) => event(i)),
};

/** Every Event field but jsonLd (which reads every column: not the partial read under test). */
const FIELDS = `id event_slug eventLink title_nb title_en desc_nb desc_en startDate endDate startTime duration categories mode tags
  venue { id name location { latitude longitude } } organizers { id name } images { urlSmall urlLarge alt }
  repetitions { startDate endDate venue { id } } ticketsInformation prices { type price name_nb } ticketsURL eventCancelled eventSoldOut
  isSuperEvent superEventID featured minimumAge maximumAge ageRestriction cancellationPeriod views publishingDate ticketsFromDate
  created_at updated_at registrationEnabled availableTickets activeTickets maxBookingDate maxBookingTime paymentMethod distanceKm`;

const AREA = `query ($a: Float, $b: Float, $c: Float, $d: Float) {
  allUpcomingEventsInArea(minLatitude: $a, maxLatitude: $b, minLongitude: $c, maxLongitude: $d) { ${FIELDS} } }`;
const WORLD = { a: -90, b: 90, c: -180, d: 180 };

type Node = Record<string, unknown> & { id: string; venue: { id: string } | null };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ calendar, clock: () => NOW });
});
afterAll(async () => server?.close());

async function area(box: Record<string, number>): Promise<Node[]> {
  const res = await postGraphQL(server.url, { query: AREA, variables: box });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return (res.body.data as { allUpcomingEventsInArea: Node[] }).allUpcomingEventsInArea;
}

/** Every upcoming event through `events` (one node per event, its next date promoted), all columns read (jsonLd asks them). */
async function everyEvent(): Promise<Node[]> {
  const nodes: Node[] = [];
  for (let page = 0; ; page++) {
    const res = await postGraphQL(server.url, { query: `query ($p: Int) { events(page: $p, pageSize: 1000) { hasMore data { ${FIELDS} jsonLd } } }`, variables: { p: page } });
    expect(res.body.errors).toBeUndefined();
    const { data, hasMore } = (res.body.data as { events: { data: Node[]; hasMore: boolean } }).events;
    nodes.push(...data.map(({ jsonLd: _jsonLd, ...rest }) => rest as Node));
    if (!hasMore) return nodes;
  }
}

describe(`allUpcomingEventsInArea, a large answer (${databaseLabel})`, () => {
  it('lists every upcoming event with a located venue once, chronologically, each field as events shows it', async () => {
    const [world, all] = await Promise.all([area(WORLD), everyEvent()]);
    const located = all.filter((n) => n.venue !== null && n.venue.id !== 'V-NOWHERE');
    // 1 600 events: 10 ended, 400 at the venue without a location (some of those ended too).
    expect(world.length).toBeGreaterThan(1_000);
    expect(world).toEqual(located);
    expect(new Set(world.map((n) => n.id)).size).toBe(world.length);
  });

  it('answers distinct large boxes asked at once, each complete', async () => {
    const boxes = [0, 1, 2].map((k) => ({ ...WORLD, a: -90 + k * 1e-6 }));
    const answers = await Promise.all(boxes.map(area));
    const ids = answers.map((nodes) => nodes.map((n) => n.id));
    expect(ids[1]).toEqual(ids[0]);
    expect(ids[2]).toEqual(ids[0]);
  });

  it('reads jsonLd (every column) for a large answer too', async () => {
    const res = await postGraphQL(server.url, { query: 'query { allUpcomingEventsInArea(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180) { id desc_nb jsonLd } }' });
    expect(res.body.errors).toBeUndefined();
    const nodes = (res.body.data as { allUpcomingEventsInArea: { id: string; desc_nb: string; jsonLd: string }[] }).allUpcomingEventsInArea;
    expect(nodes.length).toBeGreaterThan(1_000);
    const first = JSON.parse(nodes[0]!.jsonLd) as { '@type': string; name: string };
    expect(first).toMatchObject({ '@type': 'Event', name: expect.stringMatching(/^Arrangement \d+$/) });
  });
});
