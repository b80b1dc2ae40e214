import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { createGraphQLRunner, type GraphQLRunner } from '../support/graphql-runner.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';

/*
 * One event per shape the structured data must handle, seen from Wednesday 25 March 2026: a priced
 * concert, a free summer event without end time, an online stream, a cancelled date, a date with
 * prices of its own, an offline event without venue, an English-only title, and hostile text.
 */
const NOW = new Date('2026-03-25T12:00:00+01:00');
const LINK = 'https://kalender.example.no/arrangement';

const event = (id: string, overrides: Record<string, unknown>) => ({
  id,
  slug: id.toLowerCase(),
  title_nb: `Tittel ${id}`,
  title_en: `Title ${id}`,
  categories: ['CONCERT'],
  organizers: ['ORG-A'],
  venue: 'V-HALL',
  ticketsInformation: 'noTicketsInfo',
  created_at: '2026-01-01T10:00:00+01:00',
  updated_at: '2026-01-01T10:00:00+01:00',
  dates: [{ start: '2026-04-10T19:00:00+02:00', end: '2026-04-10T21:00:00+02:00' }],
  ...overrides,
});

const calendar = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [
    {
      id: 'V-HALL',
      slug: 'v-hall',
      name: 'Grieghallen',
      address: 'Edvard Griegs plass 1',
      postalCode: '5015',
      municipality: 'Bergen',
      location: { latitude: 60.3886, longitude: 5.3286 },
    },
    { id: 'V-BARE', slug: 'v-bare', name: 'Låven' },
  ],
  organizers: [
    { id: 'ORG-A', slug: 'org-a', name: 'Bergen Filharmoniske', website: 'https://harmonien.example.no' },
    { id: 'ORG-B', slug: 'org-b', name: 'Bølgen Kultur', website: null },
  ],
  events: [
    event('E-CONCERT', {
      title_nb: 'Vårkonsert',
      title_en: 'Spring concert',
      desc_nb: '<p>Musikk av <strong>Grieg</strong> &amp; Sinding.</p>\n<p>Velkommen!</p>',
      desc_en: '<p>Music by Grieg &amp; Sinding.</p>',
      organizers: ['ORG-A', 'ORG-B'],
      ticketsInformation: 'ticketsInfo',
      ticketsURL: 'https://billett.example.no/var',
      ticketsFromDate: '2026-02-01T09:00:00+01:00',
      prices: [
        { type: 'REGULAR', price: '1 250,-' },
        { type: 'STUDENT', price: 'kr 99,50' },
        { type: 'CHILD', price: 'Gratis' },
        { type: 'VIP', price: 2000, name_nb: 'VIP-billett', name_en: 'VIP ticket' },
      ],
      images: [
        { urlSmall: 'https://img.example.no/s/1.jpg', urlLarge: 'https://img.example.no/l/1.jpg' },
        { urlSmall: 'https://img.example.no/s/2.jpg', urlLarge: 'https://img.example.no/l/2.jpg' },
      ],
      dates: [{ start: '2026-03-26T19:00:00+01:00', end: '2026-03-26T21:00:00+01:00' }],
    }),
    event('E-FREE', {
      ticketsInformation: 'free',
      venue: 'V-BARE',
      dates: [{ start: '2026-06-20T18:00:00+02:00', duration: 90 }],
    }),
    event('E-NOEND', { dates: [{ start: '2026-06-21T18:00:00+02:00' }] }),
    event('E-ONLINE', { mode: 'online', venue: null, ticketsInformation: 'free' }),
    event('E-CANCELLED', {
      ticketsInformation: 'ticketsInfo',
      prices: [{ type: 'REGULAR', price: 300 }],
      dates: [{ start: '2026-04-02T18:00:00+02:00', end: '2026-04-02T20:00:00+02:00', cancelled: true, soldOut: true }],
    }),
    event('E-DATE-PRICES', {
      ticketsInformation: 'ticketsInfo',
      prices: [{ type: 'REGULAR', price: 300 }],
      dates: [{ start: '2026-04-05T18:00:00+02:00', end: '2026-04-05T20:00:00+02:00', prices: [{ type: 'REGULAR', price: '150 kr' }] }],
    }),
    event('E-NOVENUE', { venue: null }),
    event('E-ENGLISH', { title_nb: null, desc_nb: null, desc_en: 'Only in English.' }),
    event('E-HOSTILE', { title_nb: 'Quiz </script><script>alert(1)</script>', desc_nb: '<!-- x --> "sitat" \\ bak' }),
  ],
};

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

type JsonLd = Record<string, unknown> & {
  location?: Record<string, unknown> & { address?: Record<string, unknown>; geo?: Record<string, unknown> };
  offers?: Record<string, unknown>[];
};

async function jsonLdOf(id: string, lan?: string): Promise<{ text: string | null; value: JsonLd | null }> {
  const result = await run(`query ($id: String!, $lan: String) { eventByID(eventID: $id) { jsonLd(lan: $lan) } }`, { id, lan });
  expect(result.errors).toBeUndefined();
  const text = (result.data as { eventByID: { jsonLd: string | null } }).eventByID.jsonLd;
  return { text, value: text === null ? null : (JSON.parse(text) as JsonLd) };
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/** Google's required properties of an Event rich result, and the form of each recommended one given. */
function expectGoogleEvent(value: JsonLd) {
  expect(value['@context']).toBe('https://schema.org');
  expect(value['@type']).toBe('Event');
  expect(typeof value['name']).toBe('string');
  expect((value['name'] as string).length).toBeGreaterThan(0);
  expect(value['startDate']).toMatch(ISO_WITH_OFFSET);
  if (value['endDate'] !== undefined) expect(value['endDate']).toMatch(ISO_WITH_OFFSET);
  expect(['https://schema.org/EventScheduled', 'https://schema.org/EventCancelled']).toContain(value['eventStatus']);
  const location = value.location!;
  if (value['eventAttendanceMode'] === 'https://schema.org/OnlineEventAttendanceMode') {
    expect(location['@type']).toBe('VirtualLocation');
    expect(location['url']).toMatch(/^https:\/\//);
  } else {
    expect(value['eventAttendanceMode']).toBe('https://schema.org/OfflineEventAttendanceMode');
    expect(location['@type']).toBe('Place');
    expect(typeof location['name']).toBe('string');
    expect(location.address?.['@type']).toBe('PostalAddress');
    expect(location.address?.['addressCountry']).toBe('NO');
  }
  for (const offer of value.offers ?? []) {
    expect(offer['@type']).toBe('Offer');
    expect(typeof offer['price']).toBe('number');
    expect(offer['priceCurrency']).toBe('NOK');
    expect(offer['url']).toMatch(/^https:\/\//);
  }
  expect(value['url']).toMatch(/^https:\/\/kalender\.example\.no\/arrangement\//);
}

describe(`Event.jsonLd (${databaseLabel})`, () => {
  it('describes a priced concert with every property Google asks for', async () => {
    const { value } = await jsonLdOf('E-CONCERT');
    expectGoogleEvent(value!);
    expect(value).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Vårkonsert',
      description: 'Musikk av Grieg & Sinding. Velkommen!',
      startDate: '2026-03-26T19:00:00+01:00',
      endDate: '2026-03-26T21:00:00+01:00',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: {
        '@type': 'Place',
        name: 'Grieghallen',
        address: { '@type': 'PostalAddress', streetAddress: 'Edvard Griegs plass 1', postalCode: '5015', addressLocality: 'Bergen', addressCountry: 'NO' },
        geo: { '@type': 'GeoCoordinates', latitude: 60.3886, longitude: 5.3286 },
      },
      image: ['https://img.example.no/l/1.jpg', 'https://img.example.no/l/2.jpg'],
      offers: [
        // "Gratis" cannot be read as a number: left out, not guessed.
        { '@type': 'Offer', priceCurrency: 'NOK', availability: 'https://schema.org/InStock', url: 'https://billett.example.no/var', validFrom: '2026-02-01T09:00:00+01:00', name: 'Vanlig', price: 1250 },
        { '@type': 'Offer', priceCurrency: 'NOK', availability: 'https://schema.org/InStock', url: 'https://billett.example.no/var', validFrom: '2026-02-01T09:00:00+01:00', name: 'Student', price: 100 },
        { '@type': 'Offer', priceCurrency: 'NOK', availability: 'https://schema.org/InStock', url: 'https://billett.example.no/var', validFrom: '2026-02-01T09:00:00+01:00', name: 'VIP-billett', price: 2000 },
      ],
      organizer: [
        { '@type': 'Organization', name: 'Bergen Filharmoniske', url: 'https://harmonien.example.no' },
        { '@type': 'Organization', name: 'Bølgen Kultur' },
      ],
      url: `${LINK}/e-concert`,
    });
  });

  it('picks the English title, description and labels with lan: en', async () => {
    const { value } = await jsonLdOf('E-CONCERT', 'en');
    expect(value!['name']).toBe('Spring concert');
    expect(value!['description']).toBe('Music by Grieg & Sinding.');
    expect(value!.offers!.map((o) => o['name'])).toEqual(['Regular', 'Student', 'VIP ticket']);
  });

  it('reads free as one offer at price 0 NOK, with the summer offset and an end from the duration', async () => {
    const { value } = await jsonLdOf('E-FREE');
    expectGoogleEvent(value!);
    expect(value!['startDate']).toBe('2026-06-20T18:00:00+02:00');
    expect(value!['endDate']).toBe('2026-06-20T19:30:00+02:00');
    expect(value!['isAccessibleForFree']).toBe(true);
    expect(value!.offers).toEqual([{ '@type': 'Offer', priceCurrency: 'NOK', availability: 'https://schema.org/InStock', url: `${LINK}/e-free`, price: 0 }]);
    // A venue without address or location: the country only, no geo.
    expect(value!.location).toEqual({ '@type': 'Place', name: 'Låven', address: { '@type': 'PostalAddress', addressCountry: 'NO' } });
  });

  it('leaves endDate out when the date has neither end time nor duration, and offers out without ticket information', async () => {
    const { value } = await jsonLdOf('E-NOEND');
    expectGoogleEvent(value!);
    expect(value).not.toHaveProperty('endDate');
    expect(value).not.toHaveProperty('offers');
  });

  it('gives an online event a VirtualLocation at its page', async () => {
    const { value } = await jsonLdOf('E-ONLINE');
    expectGoogleEvent(value!);
    expect(value!['eventAttendanceMode']).toBe('https://schema.org/OnlineEventAttendanceMode');
    expect(value!.location).toEqual({ '@type': 'VirtualLocation', url: `${LINK}/e-online` });
  });

  it('marks a cancelled date cancelled and a sold-out one sold out', async () => {
    const { value } = await jsonLdOf('E-CANCELLED');
    expectGoogleEvent(value!);
    expect(value!['eventStatus']).toBe('https://schema.org/EventCancelled');
    expect(value!.offers!.map((o) => o['availability'])).toEqual(['https://schema.org/SoldOut']);
  });

  it('prices the promoted date with its own prices', async () => {
    const { value } = await jsonLdOf('E-DATE-PRICES');
    expect(value!.offers!.map((o) => o['price'])).toEqual([150]);
  });

  it('is null where Google’s required location cannot be given: an offline event without venue', async () => {
    expect((await jsonLdOf('E-NOVENUE')).text).toBeNull();
  });

  it('falls back to the other language where the chosen one has no title', async () => {
    const { value } = await jsonLdOf('E-ENGLISH', 'nb');
    expect(value!['name']).toBe('Title E-ENGLISH');
    expect(value!['description']).toBe('Only in English.');
  });

  it('can go straight into a script element: no "<" in the text, the same value parsed', async () => {
    const { text, value } = await jsonLdOf('E-HOSTILE');
    expect(text).not.toContain('<');
    expect(value!['name']).toBe('Quiz </script><script>alert(1)</script>');
    expect(value!['description']).toBe('"sitat" \\ bak');
  });

  it('is there for every node of an events page, each a valid Google event or null for the venueless one', async () => {
    const result = await run(`{ events(pageSize: 100) { data { id jsonLd } } }`);
    expect(result.errors).toBeUndefined();
    const nodes = (result.data as { events: { data: { id: string; jsonLd: string | null }[] } }).events.data;
    expect(nodes).toHaveLength(calendar.events.length);
    for (const node of nodes) {
      if (node.id === 'E-NOVENUE') expect(node.jsonLd).toBeNull();
      else expectGoogleEvent(JSON.parse(node.jsonLd!) as JsonLd);
    }
  });

  it('refuses a language other than nb or en', async () => {
    const result = await run(`{ eventByID(eventID: "E-CONCERT") { id jsonLd(lan: "de") } }`);
    expect(result.data).toBeNull();
    expect(result.errors?.[0]?.message).toBe('Query Arguments invalid');
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.extensions?.['invalidArgs']).toEqual(['lan']);
  });
});
