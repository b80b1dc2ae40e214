import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/app.js';
import { ConfigError, readConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { generateDemoCalendar } from '../../src/demo/demo-calendar.js';
import { exportCalendar } from '../../src/export/export-calendar.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';
import { postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';

const NOW = new Date('2026-03-25T12:00:00+01:00');
const IMAGES_QUERY = `{ events(pageSize: 100) { data { id categories images { urlSmall urlLarge alt focusX focusY width height } } } }`;

interface ImageAnswer {
  urlSmall: string;
  urlLarge: string;
  alt: string | null;
  focusX: number | null;
  focusY: number | null;
  width: number | null;
  height: number | null;
}
interface EventAnswer {
  id: string;
  categories: string[];
  images: ImageAnswer[];
}

async function imagesOf(url: string): Promise<EventAnswer[]> {
  const answer = await postGraphQL(url, { query: IMAGES_QUERY });
  expect(answer.body.errors).toBeUndefined();
  return (answer.body.data as { events: { data: EventAnswer[] } }).events.data;
}

/** The SVG's intrinsic size and, when it shows people, the centre of their faces. */
function readSvg(svg: string) {
  const size = /^<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg);
  const focus = /<circle class="focus" cx="(\d+)" cy="(\d+)"/.exec(svg);
  return {
    width: Number(size?.[1]),
    height: Number(size?.[2]),
    focus: focus ? { x: Number(focus[1]), y: Number(focus[2]) } : null,
  };
}

describe(`demo pictures (${databaseLabel})`, () => {
  let server: TestServer;
  let events: EventAnswer[];

  beforeAll(async () => {
    server = await startTestServer({ calendar: generateDemoCalendar({ events: 150, seed: 7, today: NOW }), clock: () => NOW });
    events = await imagesOf(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers every demo picture as an absolute URL on the address the service listens on (port 0 included)', () => {
    const images = events.flatMap((event) => event.images);
    expect(images.length).toBeGreaterThan(30);
    for (const image of images) {
      expect(image.urlSmall.startsWith(`${server.origin}/demo-pictures/`)).toBe(true);
      expect(image.urlLarge.startsWith(`${server.origin}/demo-pictures/`)).toBe(true);
    }
  });

  it('serves each picture, of the size and with the focus point the data claims', async () => {
    const images = events.flatMap((event) => event.images);
    let sized = 0;
    let focused = 0;
    for (const image of images.slice(0, 60)) {
      const large = await fetch(image.urlLarge);
      expect(large.status).toBe(200);
      expect(large.headers.get('content-type')).toBe('image/svg+xml');
      const svg = readSvg(await large.text());
      if (image.width !== null && image.height !== null) {
        sized += 1;
        expect([svg.width, svg.height]).toEqual([image.width, image.height]);
      }
      if (image.focusX !== null && image.focusY !== null) {
        focused += 1;
        expect(svg.focus).toEqual({ x: Math.round(image.focusX * svg.width), y: Math.round(image.focusY * svg.height) });
      } else {
        // Spec: no focus point when no face was found; the demo draws nobody.
        expect(svg.focus).toBeNull();
      }
      // The small picture is the same one, halved.
      const small = readSvg(await (await fetch(image.urlSmall)).text());
      expect(small.width).toBe(Math.round(svg.width / 2));
      expect(small.height).toBe(Math.round(svg.height / 2));
    }
    expect(sized).toBeGreaterThan(10);
    expect(focused).toBeGreaterThan(10);
  });

  it('draws a picture per category, the same bytes every time, small enough for a card', async () => {
    const event = events.find((entry) => entry.images.length > 0)!;
    const url = event.images[0]!.urlLarge;
    expect(new URL(url).pathname.split('/')[2]).toBe(event.categories[0]!.toLowerCase());
    const first = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
    const body = await first.text();
    expect(await (await fetch(url, { headers: { 'Accept-Encoding': 'identity' } })).text()).toBe(body);
    expect(Buffer.byteLength(body)).toBeLessThan(4096);
    expect(body).not.toMatch(/<script|href=|xlink/i);
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');

    const again = await fetch(url, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
  });

  it('answers 404 for a path that names no picture', async () => {
    for (const path of [
      '/demo-pictures/concert/12-1600x900-50-50.png',
      '/demo-pictures/nonsense/12-1600x900.svg',
      '/demo-pictures/concert/012-1600x900.svg',
      '/demo-pictures/concert/12-1600x900-101-50.svg',
      '/demo-pictures/concert/12-9000x900.svg',
      '/demo-pictures/concert/12-1600x900-50.svg',
      '/demo-pictures/',
    ]) {
      expect((await fetch(`${server.origin}${path}`)).status, path).toBe(404);
    }
  });
});

describe(`demo pictures behind PUBLIC_BASE_URL, and imported calendars (${databaseLabel})`, () => {
  let database: DatabaseHandle;
  let service: RunningService;

  const imported = {
    categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
    venues: [{ id: 'V1', slug: 'scene', name: 'Scenen', address: 'Gata 1', postalCode: '0150', municipality: 'Oslo' }],
    organizers: [{ id: 'O1', slug: 'arr', name: 'Arrangøren' }],
    events: [
      {
        id: 'IMPORTED',
        slug: 'importert',
        title_nb: 'Importert',
        categories: ['CONCERT'],
        organizers: ['O1'],
        venue: 'V1',
        ticketsInformation: 'free',
        created_at: '2026-01-01T10:00:00+01:00',
        updated_at: '2026-01-01T10:00:00+01:00',
        images: [
          { urlSmall: 'https://cdn.example.no/a-small.jpg', urlLarge: 'https://cdn.example.no/a-large.jpg' },
          { urlSmall: 'bilder/b-small.jpg', urlLarge: '/bilder/b-large.jpg' },
        ],
        dates: [{ start: '2026-03-26T20:00:00+01:00' }],
      },
    ],
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    await importCalendar(database, generateDemoCalendar({ events: 40, seed: 2, today: NOW }));
    await importCalendar(database, imported);
    service = await startService(
      readConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'https://kalender-api.example.no/v1/' }),
      { database, seedWhenEmpty: false, clock: () => NOW },
    );
  });
  afterAll(async () => {
    await service?.close();
    await database?.close();
  });

  it('builds the demo picture URLs on PUBLIC_BASE_URL, path prefix kept, trailing slash dropped', async () => {
    const images = (await imagesOf(service.url)).filter((event) => event.id !== 'IMPORTED').flatMap((event) => event.images);
    expect(images.length).toBeGreaterThan(5);
    for (const image of images) expect(image.urlLarge).toMatch(/^https:\/\/kalender-api\.example\.no\/v1\/demo-pictures\/[a-z_]+\/\d+-\d+x\d+(-\d+-\d+)?\.svg$/);
    // A proxy that strips /v1 hands the service the plain path: it is served.
    const path = new URL(images[0]!.urlLarge).pathname.replace(/^\/v1/, '');
    expect((await fetch(new URL(path, service.url))).status).toBe(200);
  });

  it('answers the URLs of an imported calendar exactly as stored, relative ones included', async () => {
    const event = (await imagesOf(service.url)).find((entry) => entry.id === 'IMPORTED')!;
    expect(event.images.map((image) => [image.urlSmall, image.urlLarge])).toEqual([
      ['https://cdn.example.no/a-small.jpg', 'https://cdn.example.no/a-large.jpg'],
      ['bilder/b-small.jpg', '/bilder/b-large.jpg'],
    ]);
  });

  it('exports the demo pictures as stored paths, and the export imports into another service unchanged', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await exportCalendar(database.db, out);
    const file = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { events: { id: string; images?: { urlSmall: string }[] }[] };
    const exported = file.events.flatMap((event) => (event.id === 'IMPORTED' ? [] : event.images ?? []));
    expect(exported.length).toBeGreaterThan(5);
    for (const image of exported) expect(image.urlSmall).toMatch(/^\/demo-pictures\//);

    const other = await startTestServer({ calendar: file, clock: () => NOW });
    try {
      const before = await imagesOf(service.url);
      const after = await imagesOf(other.url);
      expect(after.map((event) => event.id)).toEqual(before.map((event) => event.id));
      const rebased = (url: string) => url.replace('https://kalender-api.example.no/v1', other.origin);
      expect(after.map((event) => event.images.map((image) => image.urlLarge))).toEqual(
        before.map((event) => event.images.map((image) => rebased(image.urlLarge))),
      );
      const first = after.flatMap((event) => event.images).find((image) => image.urlLarge.startsWith(other.origin))!;
      expect((await fetch(first.urlLarge)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('PUBLIC_BASE_URL setting', () => {
  it('refuses what is not an http(s) base URL, naming the variable', () => {
    for (const bad of ['kalender.example.no', 'ftp://kalender.example.no', 'https://kalender.example.no/?x=1']) {
      expect(() => readConfig({ PUBLIC_BASE_URL: bad })).toThrow(ConfigError);
      expect(() => readConfig({ PUBLIC_BASE_URL: bad })).toThrow(/PUBLIC_BASE_URL: must/);
    }
    expect(readConfig({}).PUBLIC_BASE_URL).toBeUndefined();
    expect(readConfig({ PUBLIC_BASE_URL: 'https://api.example.no/' }).PUBLIC_BASE_URL).toBe('https://api.example.no');
  });
});
