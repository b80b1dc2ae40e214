import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedUrl } from '../../src/client/widget/feed-link.js';
import { MAX_FEED_OCCURRENCES } from '../../src/feeds/feed-occurrences.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { databaseLabel } from '../support/test-database.js';
import { postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';

/*
 * Seen from Tuesday 20 October 2026, noon in Oslo (+02:00): summer time ends on Sunday 25 October
 * (03:00 → 02:00, so 02:00–02:59 happens twice), and starts again on Sunday 28 March 2027.
 */
const NOW = new Date('2026-10-20T12:00:00+02:00');
let now = NOW;

const LONG_TITLE = 'Blåøyd æøå-konsert, med «sitater»; komma, semikolon og \\ skråstrek 🎻🎺 — en svært lang tittel som må brettes';

interface FixtureDate {
  start: string;
  end?: string;
  cancelled?: boolean;
  venue?: string;
}

const event = (id: string, categories: string[], dates: FixtureDate[], extra: Record<string, unknown> = {}) => ({
  id,
  slug: id.toLowerCase(),
  title_nb: `Tittel ${id}`,
  title_en: `Title ${id}`,
  categories,
  venue: 'V1',
  created_at: '2026-01-01T10:00:00+01:00',
  updated_at: '2026-09-01T10:00:00+02:00',
  dates,
  ...extra,
});

const calendar = (longTitle = LONG_TITLE) => ({
  categories: [
    { id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' },
    { id: 'DANCE', name_nb: 'Dans', name_en: 'Dance', slug_nb: 'dans', slug_en: 'dance' },
    { id: 'MARKET', name_nb: 'Marked', name_en: 'Market', slug_nb: 'marked', slug_en: 'market' },
    { id: 'THEATER', name_nb: 'Teater / show', name_en: 'Theater / show', slug_nb: 'teater-show', slug_en: 'theater-show' },
  ],
  venues: [
    { id: 'V1', slug: 'storsalen', name: 'Storsalen', address: 'Kirkegata 1', postalCode: '0153', municipality: 'Oslo', location: { latitude: 59.91, longitude: 10.75 } },
    { id: 'V2', slug: 'lillesalen', name: 'Lillesalen', address: null, location: null },
  ],
  events: [
    // A series across the autumn change: both passes of 02:30 on 25 October, and the spring change.
    event('CONCERT-SERIES', ['CONCERT'], [
      { start: '2026-10-15T19:00:00+02:00', end: '2026-10-15T21:00:00+02:00' },
      { start: '2026-10-22T19:00:00+02:00', end: '2026-10-22T21:00:00+02:00' },
      { start: '2026-10-25T02:30:00+02:00', end: '2026-10-25T02:45:00+02:00' },
      { start: '2026-10-25T02:30:00+01:00', end: '2026-10-25T02:45:00+01:00' },
      { start: '2026-10-26T19:00:00+01:00', end: '2026-10-26T21:00:00+01:00', cancelled: true },
      { start: '2027-03-28T01:30:00+01:00', end: '2027-03-28T03:30:00+02:00' },
    ]),
    // Two dates on one day (matinee and evening), special characters and a title longer than a line.
    event('DANCE-TWICE', ['DANCE'], [
      { start: '2026-10-24T14:00:00+02:00', end: '2026-10-24T16:00:00+02:00' },
      { start: '2026-10-24T19:00:00+02:00', end: '2026-10-24T21:00:00+02:00', venue: 'V2' },
    ], { title_nb: longTitle, desc_nb: '<p>Første avsnitt &amp; mer.</p><p>Andre<br>linje, med komma; og semikolon.</p>' }),
    // No end time: DTEND is left out, and the API's endDate equals its startDate.
    event('THEATER-NO-END', ['THEATER'], [{ start: '2026-10-21T18:00:00+02:00' }], { venue: 'V2' }),
    // Beyond the feed's window of 365 days.
    event('CONCERT-FAR', ['CONCERT'], [{ start: '2027-11-01T19:00:00+01:00', end: '2027-11-01T20:00:00+01:00' }]),
    // Not published yet.
    event('CONCERT-UNPUBLISHED', ['CONCERT'], [{ start: '2026-11-01T19:00:00+01:00' }], { publishingDate: '2026-10-30T00:00:00+01:00' }),
    // Three shows a day for a year: more dates than one feed holds.
    event('MARKET-DAILY', ['MARKET'], Array.from({ length: 3 * 360 }, (_, i) => {
      const start = Date.parse('2026-10-21T08:00:00Z') + Math.floor(i / 3) * 86_400_000 + (i % 3) * 3 * 3_600_000;
      return { start: new Date(start).toISOString(), end: new Date(start + 3_600_000).toISOString() };
    })),
    // The whole event cancelled.
    event('CONCERT-CANCELLED', ['CONCERT'], [{ start: '2026-11-02T19:00:00+01:00', end: '2026-11-02T20:00:00+01:00' }], { eventCancelled: true }),
  ],
});

let server: TestServer;
let feedAddress: (query: string) => string;

beforeAll(async () => {
  // Usage is written on close only: a flush timer's statement must not fall inside a test that counts them.
  server = await startTestServer({ calendar: calendar(), clock: () => now, usageFlushIntervalMs: 600_000 });
  feedAddress = (query) => `${server.origin}/events.ics${query ? `?${query}` : ''}`;
});
afterAll(async () => server?.close());

interface FeedEvent {
  uid: string;
  summary: string;
  start: number;
  end: number;
  status: string | null;
  sequence: number;
  description: string | null;
  location: string | null;
  geo: unknown;
  url: string | null;
}

/** The feed as a calendar client reads it: ical.js, with the feed's own VTIMEZONE. */
function parseFeed(text: string): { events: FeedEvent[]; calendar: ICAL.Component } {
  // One VCALENDAR: its jCal is an array.
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const e = new ICAL.Event(component);
    return {
      uid: e.uid,
      summary: e.summary,
      start: e.startDate.toJSDate().getTime(),
      end: e.endDate.toJSDate().getTime(),
      status: (component.getFirstPropertyValue('status') as string | null) ?? null,
      sequence: e.sequence,
      description: e.description,
      location: e.location,
      geo: component.getFirstPropertyValue('geo'),
      url: (component.getFirstPropertyValue('url') as string | null) ?? null,
    };
  });
  return { events, calendar };
}

async function fetchFeed(query: string, headers: Record<string, string> = {}) {
  const response = await fetch(feedAddress(query), { headers });
  return { response, text: await response.text() };
}

const instant = (timestamp: string) => Date.parse(timestamp.replace(' ', 'T'));
const uidEventId = (uid: string) => uid.replace(/-\d{8}T\d{6}Z@.*$/, '');

interface ApiDate {
  id: string;
  startDate: string;
  endDate: string;
  eventCancelled: boolean;
}

/** The API's dates of a filter: one node per event and Oslo day, with that day's later dates. */
async function apiDates(filter: Record<string, unknown>): Promise<ApiDate[]> {
  const query = `query ($filter: Filter) { events(filter: $filter, pageSize: 1000) { data {
    id startDate endDate eventCancelled repetitions { startDate endDate eventCancelled } } } }`;
  const { body } = await postGraphQL(server.url, { query, variables: { filter: { ...filter, groupRepetitionsByDay: true } } });
  expect(body.errors).toBeUndefined();
  const nodes = (body.data as { events: { data: (ApiDate & { repetitions: Omit<ApiDate, 'id'>[] })[] } }).events.data;
  return nodes.flatMap(({ repetitions, ...node }) => [node, ...repetitions.map((r) => ({ ...r, id: node.id }))]);
}

const horizon = NOW.getTime() + 365 * 86_400_000;

describe(`GET /events.ics (${databaseLabel}): the occurrences`, () => {
  it('lists every date of the filter in the window once, with the API instants', async () => {
    const { response, text } = await fetchFeed('categories=CONCERT,DANCE');
    expect(response.status).toBe(200);
    const feed = parseFeed(text).events;
    const expected = (await apiDates({ categories: ['CONCERT', 'DANCE'] })).filter((d) => instant(d.startDate) < horizon);
    const key = (id: string, start: number, end: number) => `${id} ${new Date(start).toISOString()} ${new Date(end).toISOString()}`;
    expect(feed.map((e) => key(uidEventId(e.uid), e.start, e.end)).sort()).toEqual(expected.map((d) => key(d.id, instant(d.startDate), instant(d.endDate))).sort());
    // Once each: UIDs are unique, and every date is there (the ended one and the far one are not).
    expect(new Set(feed.map((e) => e.uid)).size).toBe(feed.length);
    expect(feed.map((e) => uidEventId(e.uid))).toEqual([
      'CONCERT-SERIES', 'DANCE-TWICE', 'DANCE-TWICE', 'CONCERT-SERIES', 'CONCERT-SERIES', 'CONCERT-SERIES', 'CONCERT-CANCELLED', 'CONCERT-SERIES',
    ]);
  });

  it('keeps the instants across both DST changes, the repeated hour of October included', async () => {
    const { text } = await fetchFeed('categories=CONCERT');
    const series = parseFeed(text).events.filter((e) => uidEventId(e.uid) === 'CONCERT-SERIES');
    expect(series.map((e) => [new Date(e.start).toISOString(), new Date(e.end).toISOString()])).toEqual([
      ['2026-10-22T17:00:00.000Z', '2026-10-22T19:00:00.000Z'],
      // 02:30 summer time, then 02:30 winter time an hour later: two instants an hour apart.
      ['2026-10-25T00:30:00.000Z', '2026-10-25T00:45:00.000Z'],
      ['2026-10-25T01:30:00.000Z', '2026-10-25T01:45:00.000Z'],
      ['2026-10-26T18:00:00.000Z', '2026-10-26T20:00:00.000Z'],
      ['2027-03-28T00:30:00.000Z', '2027-03-28T01:30:00.000Z'],
    ]);
    // Wall-clock times with the Oslo zone, as calendar clients show them.
    expect(text).toContain('DTSTART;TZID=Europe/Oslo:20261022T190000\r\n');
    expect(text).toContain('DTSTART;TZID=Europe/Oslo:20261026T190000\r\n');
    expect(text).toContain('DTEND;TZID=Europe/Oslo:20270328T033000\r\n');
    // The hour Oslo's clocks read twice is written in UTC: no client can take one pass for the other.
    expect(text).toContain('DTSTART:20261025T003000Z\r\n');
    expect(text).toContain('DTSTART:20261025T013000Z\r\n');
    expect(text).toMatch(/BEGIN:VTIMEZONE\r\nTZID:Europe\/Oslo\r\n/);
  });

  it('marks cancelled dates cancelled, and only those', async () => {
    const { text } = await fetchFeed('categories=CONCERT');
    const feed = parseFeed(text).events;
    const cancelled = feed.filter((e) => e.status === 'CANCELLED').map((e) => [uidEventId(e.uid), new Date(e.start).toISOString()]);
    expect(cancelled).toEqual([
      ['CONCERT-SERIES', '2026-10-26T18:00:00.000Z'],
      ['CONCERT-CANCELLED', '2026-11-02T18:00:00.000Z'],
    ]);
    expect(feed.filter((e) => e.status !== 'CANCELLED').every((e) => e.status === 'CONFIRMED')).toBe(true);
    const api = await apiDates({ categories: ['CONCERT'] });
    expect(api.filter((d) => d.eventCancelled).map((d) => [d.id, new Date(instant(d.startDate)).toISOString()])).toEqual(cancelled);
  });

  it('judges every date by the filter, as the API judges the date it promotes (hoursRange, venueSlug)', async () => {
    const evening = parseFeed((await fetchFeed('categories=DANCE&hoursRange=18:00-23:00')).text).events;
    expect(evening.map((e) => new Date(e.start).toISOString())).toEqual(['2026-10-24T17:00:00.000Z']);
    const small = parseFeed((await fetchFeed('venueSlug=lillesalen')).text).events;
    expect(small.map((e) => [uidEventId(e.uid), new Date(e.start).toISOString()])).toEqual([
      ['THEATER-NO-END', '2026-10-21T16:00:00.000Z'],
      ['DANCE-TWICE', '2026-10-24T17:00:00.000Z'],
    ]);
  });

  it('writes a date without an end time without DTEND: it ends when it starts, as endDate says', async () => {
    const { text } = await fetchFeed('categories=THEATER');
    const [theater] = parseFeed(text).events;
    const [api] = await apiDates({ categories: ['THEATER'] });
    expect(theater!.start).toBe(instant(api!.startDate));
    expect(theater!.end).toBe(instant(api!.endDate));
    expect(text).not.toContain('DTEND');
  });

  it('escapes and folds text: every line at most 75 octets, CRLF-ended, unfolded back to the same text', async () => {
    const { text } = await fetchFeed('categories=DANCE');
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text.slice(0, -2).split('\r\n');
    for (const line of lines) {
      expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
      expect(line).not.toMatch(/[\r\n]/);
    }
    // Folds fall between characters: no line starts or ends inside a UTF-8 sequence.
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    expect(text.includes('\uFFFD')).toBe(false);
    const [matinee, evening] = parseFeed(text).events;
    expect(matinee!.summary).toBe(LONG_TITLE);
    expect(matinee!.description).toBe('Første avsnitt & mer.\n\nAndre\nlinje, med komma; og semikolon.\n\nhttps://kalender.example.no/arrangement/dance-twice');
    expect(matinee!.location).toBe('Storsalen, Kirkegata 1, 0153 Oslo');
    expect(matinee!.geo).toEqual([59.91, 10.75]);
    expect(evening!.location).toBe('Lillesalen');
    expect(evening!.geo).toBeNull();
    expect(matinee!.url).toBe('https://kalender.example.no/arrangement/dance-twice');
  });

  it('speaks the language asked for', async () => {
    const en = parseFeed((await fetchFeed('categories=THEATER&lan=en')).text);
    expect(en.events[0]!.summary).toBe('Title THEATER-NO-END');
    expect(en.calendar.getFirstPropertyValue('x-wr-calname')).toBe('Events: Theater / show');
    const nb = parseFeed((await fetchFeed('categories=THEATER')).text);
    expect(nb.events[0]!.summary).toBe('Tittel THEATER-NO-END');
  });
});

describe(`GET /events.ics (${databaseLabel}): HTTP`, () => {
  it('is text/calendar with open CORS, an entity tag and the cache lifetime of events', async () => {
    const { response } = await fetchFeed('venueSlug=storsalen');
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=(30|29|28), s-maxage=\d+, stale-while-revalidate=15, stale-if-error=86400$/);
    const etag = response.headers.get('etag')!;
    // Node's fetch asks `gzip, deflate`: the feed comes gzipped, and its tag says so.
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(etag).toMatch(/^"[\w-]{27}-gz"$/);
    const again = await fetch(feedAddress('venueSlug=storsalen'), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const head = await fetch(feedAddress('venueSlug=storsalen'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
  });

  it('gives the same feed (and tag) for the same filter written another way', async () => {
    const a = await fetchFeed('categories=DANCE,CONCERT&lan=nb');
    const b = await fetchFeed('lan=nb&categories=DANCE&categories=CONCERT');
    expect(b.text).toBe(a.text);
    expect(b.response.headers.get('etag')).toBe(a.response.headers.get('etag'));
  });

  it.each([
    ['fromDate=tomorrow', 'fromDate'],
    ['when=SOMETIME', 'when'],
    ['when=TODAY&untilDate=2026-10-21 00:00:00+02:00', 'when'],
    ['mode=hybrid', 'mode'],
    ['hoursRange=25:00-26:00', 'hoursRange'],
    ['near=59.9,10.7', 'near'],
    ['near=95,10.7,5', 'near'],
    ['onlyFeatured=yes', 'onlyFeatured'],
    ['lan=de', 'lan'],
    ['category=CONCERT', 'category'],
    ['venueSlug=a&venueSlug=b', 'venueSlug'],
    [`categories=${Array.from({ length: 101 }, (_, i) => `C${i}`).join(',')}`, 'categories'],
  ])('answers a 400 naming the parameter: %s', async (query, parameter) => {
    const { response, text } = await fetchFeed(query.replace(/ /g, '%20').replace(/\+/g, '%2B'));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text).toContain(parameter);
  });

  it('is refused for POST', async () => {
    const response = await fetch(feedAddress(''), { method: 'POST' });
    expect(response.status).toBe(405);
  });
});

describe(`GET /events.ics (${databaseLabel}): across imports`, () => {
  it('keeps every UID across a re-import, raising SEQUENCE where the event changed', async () => {
    const before = parseFeed((await fetchFeed('categories=CONCERT,DANCE,THEATER')).text).events;
    const changed = calendar(`${LONG_TITLE} (endret)`);
    changed.events = changed.events.map((e) => (e.id === 'DANCE-TWICE' ? { ...e, updated_at: '2026-10-20T11:00:00+02:00' } : e));
    await importCalendar(server.database, changed, { replace: true });
    // The next request sees the new data version (the read model polls every second).
    let after = before;
    for (let tries = 0; tries < 50; tries++) {
      after = parseFeed((await fetchFeed('categories=CONCERT,DANCE,THEATER')).text).events;
      if (after.some((e) => e.summary.endsWith('(endret)'))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(after.map((e) => e.uid)).toEqual(before.map((e) => e.uid));
    for (const [i, e] of after.entries()) {
      const old = before[i]!;
      if (uidEventId(e.uid) === 'DANCE-TWICE') {
        expect(e.summary).toBe(`${LONG_TITLE} (endret)`);
        expect(e.sequence).toBeGreaterThan(old.sequence);
      } else expect(e.sequence).toBe(old.sequence);
    }
  });
});

describe(`GET /events.ics (${databaseLabel}): bounds and caching`, () => {
  it(`holds the earliest ${MAX_FEED_OCCURRENCES} dates of the window`, async () => {
    const feed = parseFeed((await fetchFeed('categories=MARKET')).text).events;
    expect(feed).toHaveLength(MAX_FEED_OCCURRENCES);
    expect(new Date(feed[0]!.start).toISOString()).toBe('2026-10-21T08:00:00.000Z');
    const starts = feed.map((e) => e.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('answers a repeated request from the cache, without a statement', async () => {
    const first = await fetchFeed('categories=THEATER&lan=en&tag=none');
    const statements = server.queryCount();
    const second = await fetchFeed('categories=THEATER&lan=en&tag=none');
    expect(second.text).toBe(first.text);
    expect(second.response.headers.get('etag')).toBe(first.response.headers.get('etag'));
    expect(server.queryCount()).toBe(statements);
  });

  it('is not kept past the end of a when preset\'s window', async () => {
    now = new Date('2026-10-20T23:59:50+02:00');
    try {
      const { response } = await fetchFeed('when=TODAY&lan=en');
      expect(response.status).toBe(200);
      const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get('cache-control')!)![1]);
      expect(maxAge).toBeLessThanOrEqual(10);
    } finally {
      now = NOW;
    }
  });

  it('does not serve a preset\'s answer of the window before, even within its stale window', async () => {
    // TTL: the two seconds left of the Oslo day; then stale for one more second (half the TTL).
    now = new Date('2026-10-20T23:59:58+02:00');
    try {
      const before = parseFeed((await fetchFeed('when=TODAY&categories=THEATER&lan=en')).text).events;
      expect(before).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 2200));
      now = new Date('2026-10-21T00:00:01+02:00');
      const after = parseFeed((await fetchFeed('when=TODAY&categories=THEATER&lan=en')).text).events;
      expect(after.map((e) => e.summary)).toEqual(['Title THEATER-NO-END']);
    } finally {
      now = NOW;
    }
  });

  it("is what the widget's subscribe link asks for", async () => {
    const link = feedUrl(server.url, { categories: ['CONCERT'], near: { latitude: 59.9, longitude: 10.7, radiusKm: 20 }, cancelledNotIncluded: true }, 'en');
    expect(link).toMatch(/^webcal:\/\/127\.0\.0\.1:\d+\/events\.ics\?/);
    const feed = parseFeed((await fetchFeed(link.slice(link.indexOf('?') + 1))).text).events;
    const api = (await apiDates({ categories: ['CONCERT'], near: { latitude: 59.9, longitude: 10.7, radiusKm: 20 }, cancelledNotIncluded: true }))
      .filter((d) => instant(d.startDate) < horizon && !d.eventCancelled);
    expect(feed.map((e) => e.start).sort()).toEqual(api.map((d) => instant(d.startDate)).sort());
    expect(feed.every((e) => e.status === 'CONFIRMED' && e.summary.startsWith('Title'))).toBe(true);
  });
});
