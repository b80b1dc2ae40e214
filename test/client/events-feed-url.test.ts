import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsFeedUrl, eventsFeedWebcalUrl, type Language } from '../../packages/client/src/index.js';
import type { Filter } from '../../packages/client/src/generated/documents.js';
import { postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';

/*
 * The client's feed addresses against the running service: every address it writes is accepted
 * (200, text/calendar) and holds the dates docs/feeds.md promises for its filter, which are those of
 * the events the API itself answers for the same filter. Seen from Tuesday 20 October 2026, noon in Oslo.
 */
const NOW = new Date('2026-10-20T12:00:00+02:00');

const event = (id: string, categories: string[], venue: string, dates: Array<{ start: string; end?: string; cancelled?: boolean }>, extra: Record<string, unknown> = {}) => ({
  id,
  slug: id.toLowerCase(),
  title_nb: `Tittel ${id}`,
  title_en: `Title ${id}`,
  categories,
  venue,
  created_at: '2026-01-01T10:00:00+01:00',
  updated_at: '2026-09-01T10:00:00+02:00',
  dates,
  ...extra,
});

const calendar = {
  categories: [
    { id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' },
    { id: 'DANCE', name_nb: 'Dans', name_en: 'Dance', slug_nb: 'dans', slug_en: 'dance' },
    { id: 'THEATER', name_nb: 'Teater / show', name_en: 'Theater / show', slug_nb: 'teater-show', slug_en: 'theater-show' },
    { id: 'MARKET', name_nb: 'Marked', name_en: 'Market', slug_nb: 'marked', slug_en: 'market' },
  ],
  venues: [
    { id: 'V-OSLO', slug: 'storsalen', name: 'Storsalen', address: 'Kirkegata 1', postalCode: '0153', municipality: 'Oslo', location: { latitude: 59.91, longitude: 10.75 } },
    { id: 'V-BERGEN', slug: 'grieghallen', name: 'Grieghallen', address: 'Edvard Griegs plass 1', postalCode: '5015', municipality: 'Bergen', location: { latitude: 60.39, longitude: 5.33 } },
  ],
  events: [
    event('C-JAZZ', ['CONCERT'], 'V-OSLO', [
      { start: '2026-10-21T19:00:00+02:00', end: '2026-10-21T21:00:00+02:00' },
      { start: '2026-10-28T19:00:00+01:00', end: '2026-10-28T21:00:00+01:00' },
    ]),
    event('D-BALLET', ['DANCE'], 'V-BERGEN', [{ start: '2026-10-22T19:00:00+02:00', end: '2026-10-22T21:00:00+02:00' }]),
    event('T-HAMLET', ['THEATER'], 'V-OSLO', [
      { start: '2026-10-23T18:00:00+02:00', end: '2026-10-23T21:00:00+02:00', cancelled: true },
      { start: '2026-10-30T18:00:00+01:00', end: '2026-10-30T21:00:00+01:00' },
    ]),
    event('M-MARKET', ['MARKET'], 'V-BERGEN', [{ start: '2026-10-24T10:00:00+02:00', end: '2026-10-24T15:00:00+02:00' }]),
    // Characters a URL must encode: space, &, +, æøå.
    event('S-SPECIAL', ['CONCERT'], 'V-OSLO', [{ start: '2026-10-25T20:00:00+01:00', end: '2026-10-25T22:00:00+01:00' }], { title_nb: 'Blåbær & fløte + 1', title_en: null }),
  ],
};

let server: TestServer;
let asked = 0;

beforeAll(async () => {
  server = await startTestServer({ calendar, clock: () => NOW });
});
afterAll(async () => server?.close());

interface FeedDate {
  /** `<event id>@<start, ISO>`. */
  key: string;
  eventId: string;
  summary: string;
  status: string | null;
}

/** Fetches a feed address as a calendar program would, and reads it with ical.js. */
async function readFeed(url: string): Promise<FeedDate[]> {
  const response = await fetch(url);
  const text = await response.text();
  expect(response.status, `${url}: ${text}`).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  // One VCALENDAR: its jCal is an array.
  const feed = new ICAL.Component(ICAL.parse(text) as unknown[]);
  for (const zone of feed.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return feed.getAllSubcomponents('vevent').map((component) => {
    const entry = new ICAL.Event(component);
    const eventId = entry.uid.replace(/-\d{8}T\d{6}Z@.*$/, '');
    return {
      key: `${eventId}@${entry.startDate.toJSDate().toISOString()}`,
      eventId,
      summary: entry.summary,
      status: (component.getFirstPropertyValue('status') as string | null) ?? null,
    };
  });
}

/** The ids of the events the API answers for the same filter. */
async function apiEventIds(filter: Filter): Promise<string[]> {
  const { body } = await postGraphQL(server.url, {
    query: `query FeedCheck${asked++}($filter: Filter) { events(filter: $filter, pageSize: 100) { data { id } } }`,
    variables: { filter },
  });
  expect(body.errors).toBeUndefined();
  // A set: with groupRepetitionsByDay an event has a node per Oslo day.
  return [...new Set((body.data!['events'] as { data: { id: string }[] }).data.map((node) => node.id))].sort();
}

const at = (iso: string) => new Date(iso).toISOString();

const cases: Array<{ name: string; filter: Filter; lan?: Language; dates: string[] }> = [
  {
    name: 'no filter, in English',
    filter: {},
    lan: 'en',
    dates: [
      `C-JAZZ@${at('2026-10-21T19:00:00+02:00')}`,
      `C-JAZZ@${at('2026-10-28T19:00:00+01:00')}`,
      `D-BALLET@${at('2026-10-22T19:00:00+02:00')}`,
      `M-MARKET@${at('2026-10-24T10:00:00+02:00')}`,
      `S-SPECIAL@${at('2026-10-25T20:00:00+01:00')}`,
      `T-HAMLET@${at('2026-10-23T18:00:00+02:00')}`,
      `T-HAMLET@${at('2026-10-30T18:00:00+01:00')}`,
    ],
  },
  {
    name: 'a list of categories, empty lists and nulls among the fields',
    filter: { categories: ['CONCERT', 'DANCE'], notCategories: [], venues: null, organizerSlug: null },
    dates: [
      `C-JAZZ@${at('2026-10-21T19:00:00+02:00')}`,
      `C-JAZZ@${at('2026-10-28T19:00:00+01:00')}`,
      `D-BALLET@${at('2026-10-22T19:00:00+02:00')}`,
      `S-SPECIAL@${at('2026-10-25T20:00:00+01:00')}`,
    ],
  },
  {
    name: 'near a point, with a preset',
    filter: { near: { latitude: 59.91, longitude: 10.75, radiusKm: 5 }, when: 'NEXT_7_DAYS' },
    dates: [`C-JAZZ@${at('2026-10-21T19:00:00+02:00')}`, `S-SPECIAL@${at('2026-10-25T20:00:00+01:00')}`, `T-HAMLET@${at('2026-10-23T18:00:00+02:00')}`],
  },
  {
    name: 'a venue, without cancelled dates',
    filter: { venueSlug: 'storsalen', cancelledNotIncluded: true, soldOutNotIncluded: false },
    dates: [
      `C-JAZZ@${at('2026-10-21T19:00:00+02:00')}`,
      `C-JAZZ@${at('2026-10-28T19:00:00+01:00')}`,
      `S-SPECIAL@${at('2026-10-25T20:00:00+01:00')}`,
      `T-HAMLET@${at('2026-10-30T18:00:00+01:00')}`,
    ],
  },
  {
    name: 'search words that need encoding, and a date with a space and a plus',
    filter: { searchTerm: 'Blåbær & fløte + 1', fromDate: '2026-10-22 00:00:00+02:00' },
    dates: [`S-SPECIAL@${at('2026-10-25T20:00:00+01:00')}`],
  },
  {
    name: 'an hours range, with fields that change nothing in a feed',
    filter: { hoursRange: '18:00-23:59', notCategories: ['THEATER'], groupRepetitionsByDay: true, sortBy: 'startDate' },
    dates: [
      `C-JAZZ@${at('2026-10-21T19:00:00+02:00')}`,
      `C-JAZZ@${at('2026-10-28T19:00:00+01:00')}`,
      `D-BALLET@${at('2026-10-22T19:00:00+02:00')}`,
      `S-SPECIAL@${at('2026-10-25T20:00:00+01:00')}`,
    ],
  },
];

describe('client: eventsFeedUrl', () => {
  it('writes the parameters as docs/feeds.md does', () => {
    const base = 'https://api.example.no/graphQL';
    expect(eventsFeedUrl(base)).toBe('https://api.example.no/events.ics');
    expect(eventsFeedUrl('https://api.example.no', null, { lan: 'nb' })).toBe('https://api.example.no/events.ics?lan=nb');
    expect(eventsFeedUrl(base, { categories: ['CONCERT', 'DANCE'] }, { lan: 'en' })).toBe('https://api.example.no/events.ics?categories=CONCERT,DANCE&lan=en');
    expect(eventsFeedUrl(base, { near: { latitude: 59.91, longitude: 10.75, radiusKm: 5 }, when: 'THIS_WEEKEND' })).toBe(
      'https://api.example.no/events.ics?near=59.91,10.75,5&when=THIS_WEEKEND',
    );
    expect(eventsFeedUrl(base, { fromDate: '2026-12-24 18:00:00+01:00', onlyFeatured: false })).toBe(
      'https://api.example.no/events.ics?fromDate=2026-12-24%2018:00:00%2B01:00&onlyFeatured=false',
    );
    expect(eventsFeedUrl(base, { searchTerm: 'rock & rull', categories: [null, ''], sortBy: 'x', groupRepetitionsByDay: true })).toBe(
      'https://api.example.no/events.ics?searchTerm=rock%20%26%20rull',
    );
    // No exponent, which the service would not read as a number.
    expect(eventsFeedUrl(base, { near: { latitude: 1e-7, longitude: -0.0000005, radiusKm: 1 } })).toBe('https://api.example.no/events.ics?near=0.0000001,-0.0000005,1');
    expect(eventsFeedWebcalUrl('https://api.example.no/graphQL', { venueSlug: 'operaen' }, { lan: 'nb' })).toBe('webcal://api.example.no/events.ics?venueSlug=operaen&lan=nb');
    expect(eventsFeedWebcalUrl('http://127.0.0.1:4000/graphQL')).toBe('webcal://127.0.0.1:4000/events.ics');
  });

  it.each(cases)('is accepted by the service and holds the filter\'s dates: $name', async ({ filter, lan, dates }) => {
    const url = eventsFeedUrl(server.url, filter, lan ? { lan } : {});
    expect(url.startsWith(`${server.origin}/events.ics`)).toBe(true);
    const feed = await readFeed(url);
    expect(feed.map((entry) => entry.key).sort()).toEqual([...dates].sort());
    // The same events as the API's answer for the filter (the feed lists each of their dates).
    expect([...new Set(feed.map((entry) => entry.eventId))].sort()).toEqual(await apiEventIds(filter));
    if (lan === 'en') expect(feed.filter((entry) => entry.eventId !== 'S-SPECIAL').every((entry) => entry.summary.includes('Title'))).toBe(true);
    // Hamlet's cancelled date, where the filter keeps it, is a cancelled entry; the others are not.
    for (const entry of feed) expect(entry.status).toBe(entry.key === `T-HAMLET@${at('2026-10-23T18:00:00+02:00')}` ? 'CANCELLED' : 'CONFIRMED');
  });

  it('gives the same feed as a webcal: address, once its scheme is http again', async () => {
    const filter: Filter = { categories: ['THEATER'] };
    const webcal = eventsFeedWebcalUrl(server.url, filter, { lan: 'en' });
    expect(webcal).toMatch(/^webcal:\/\/127\.0\.0\.1:\d+\/events\.ics\?categories=THEATER&lan=en$/);
    const feed = await readFeed(webcal.replace(/^webcal:/, 'http:'));
    expect(feed.map((entry) => entry.summary).sort()).toEqual(['CANCELLED: Title T-HAMLET', 'Title T-HAMLET']);
  });
});
