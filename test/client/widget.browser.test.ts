import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import { DateTime } from 'luxon';
import { startService, type RunningService } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { createCalendarClient, type CalendarClient } from '../../packages/client/src/index.js';
import { EventsPageDocument, type EventsPageQuery } from '../../packages/client/src/generated/documents.js';
import { browserTests, launchChromium } from '../support/chromium.js';
import { createTestDatabase } from '../support/test-database.js';
import { IMAGE_HOST, NOW, pictureSvg, widgetCalendar } from './fixtures/widget-calendar.js';

const PAGE_SIZE = 6;

let database: DatabaseHandle;
let service: RunningService;
let browser: Browser;
let page: Page;
let api: CalendarClient;
const graphqlRequests: Request[] = [];
const pageErrors: Error[] = [];

type Card = { title: string; time: string; datetime: string; objectPosition: string | null };
type PageEvent = NonNullable<EventsPageQuery['events']>['data'][number];

/** Expected from the API's own answer, converted to Oslo time independently of the widget (luxon). */
function expectedCard(event: PageEvent) {
  const start = DateTime.fromFormat(event.startDate, 'yyyy-MM-dd HH:mm:ssZZ', { setZone: true });
  return { title: event.title_nb, time: start.setZone('Europe/Oslo').toFormat('HH:mm'), datetime: start.toUTC().toISO() };
}

async function readCards(): Promise<Card[]> {
  await page.waitForSelector('.ecw-list[aria-busy="false"]');
  return page.$$eval('.ecw-card', (cards) =>
    cards.map((card) => ({
      title: card.querySelector('h3')?.textContent ?? '',
      time: card.querySelector('.ecw-time')?.textContent ?? '',
      datetime: card.querySelector('time')?.getAttribute('datetime') ?? '',
      objectPosition: card.querySelector('img')?.style.objectPosition ?? null,
    })),
  );
}

/** The JSON-LD scripts in the page's head, as written. */
async function readJsonLd(on: Page = page): Promise<string[]> {
  return on.$$eval('head script[type="application/ld+json"]', (scripts) => scripts.map((script) => script.textContent ?? ''));
}

/**
 * One JSON-LD script per card, in the cards' order: each parses, is a schema.org Event named as its
 * card, and is exactly the API's `jsonLd` of that event; and nothing else of the kind in the page.
 */
async function expectJsonLdToMatch(cards: Card[], events: readonly PageEvent[]) {
  const scripts = await readJsonLd();
  expect(scripts).toHaveLength(cards.length);
  const parsed = scripts.map((text) => JSON.parse(text) as { '@context': string; '@type': string; name: string });
  expect(parsed.map((item) => item['@type'])).toEqual(cards.map(() => 'Event'));
  expect(parsed.map((item) => item.name)).toEqual(cards.map((card) => card.title));
  expect(parsed.every((item) => item['@context'] === 'https://schema.org')).toBe(true);
  expect(scripts).toEqual(events.map((event) => event.jsonLd));
  expect(await page.locator('script[type="application/ld+json"]').count()).toBe(cards.length);
}

function expectCardsToMatch(cards: Card[], events: readonly PageEvent[]) {
  expect(cards.map((card) => card.title)).toEqual(events.map((event) => event.title_nb));
  cards.forEach((card, index) => {
    const expected = expectedCard(events[index]!);
    // The start first, then the end when there is one: `19:00–22:00`.
    expect(card.time.slice(0, 5)).toBe(expected.time);
    expect(new Date(card.datetime).toISOString()).toBe(new Date(expected.datetime!).toISOString());
  });
}

beforeAll(async () => {
  if (!browserTests.run) return;
  browser = await launchChromium();
  database = await createTestDatabase();
  await importCalendar(database, widgetCalendar);
  service = await startService(readConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), {
    database,
    seedWhenEmpty: false,
    clock: () => NOW,
  });
  api = createCalendarClient({ endpoint: service.url });
  // A reader far from Oslo, in another language: the widget must still show Oslo times.
  const context = await browser.newContext({ viewport: { width: 1180, height: 900 }, deviceScaleFactor: 1, timezoneId: 'America/Los_Angeles', locale: 'en-US' });
  await context.route(`${IMAGE_HOST}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'image/svg+xml', body: pictureSvg(new URL(route.request().url())) }),
  );
  page = await context.newPage();
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/graphQL') graphqlRequests.push(request);
  });
  page.on('pageerror', (error) => pageErrors.push(error));
});

afterEach(() => {
  expect(pageErrors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await database?.close();
});

describe.skipIf(!browserTests.run)('widget in Chromium', () => {
  it('serves the page and the bundled script', async () => {
    const base = service.url.replace(/\/graphQL$/, '');
    const html = await fetch(`${base}/widget`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const script = await fetch(`${base}/widget/widget.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('access-control-allow-origin')).toBe('*');
    const again = await fetch(`${base}/widget/widget.js`, { headers: { 'If-None-Match': script.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await fetch(`${base}/widget/nothing-here`)).status).toBe(404);
  });

  it('shows the first page as the API answers it, in Oslo time, with covers on their focus point', async () => {
    await page.goto(service.url.replace(/\/graphQL$/, '/widget'));
    await page.waitForSelector('.ecw-card');
    const cards = await readCards();
    const { events } = await api.request(EventsPageDocument, { page: 0, pageSize: PAGE_SIZE });

    expect(events!.data).toHaveLength(PAGE_SIZE);
    expectCardsToMatch(cards, events!.data);
    const withJsonLd = await api.request(EventsPageDocument, { page: 0, pageSize: PAGE_SIZE, withJsonLd: true, jsonLdLan: 'nb' });
    await expectJsonLdToMatch(cards, withJsonLd.events!.data);
    // Spring DST night: 01:30 + 120 min ends 04:30 summer time, not 03:30.
    expect(cards.find((card) => card.title === 'Nattkonsert når klokka stilles')?.time).toBe('01:30–04:30');
    expect(cards.find((card) => card.title === 'Jazz i kjelleren')?.objectPosition).toBe('78% 30%');
    expect(cards.find((card) => card.title === 'Lek og tegn for de minste')?.objectPosition).toBe('50% 50%');

    const text = await page.locator('.ecw-card', { hasText: 'Hamlet' }).innerText();
    expect(text).toContain('1\u00a0250\u00a0kr');
    expect(await page.locator('.ecw-card', { hasText: 'Jazz i kjelleren' }).innerText()).toContain('150–250\u00a0kr');
    expect(await page.locator('.ecw-card', { hasText: 'Nattkonsert' }).innerText()).toContain('Se billettinfo');
    const lek = await page.locator('.ecw-card', { hasText: 'Lek og tegn' }).innerText();
    expect(lek).toContain('Barn / familie');
    expect(lek).not.toContain('Internt'); // a hidden category stays off the card
    expect(await page.locator('.ecw-status').innerText()).toBe('8 arrangementer · Side 1 av 2');

    expect(lek).toContain('Gratis');
    // A reader in Los Angeles is told the times are Oslo's (they stay Oslo's).
    expect(await page.locator('.ecw-zone').isVisible()).toBe(true);
    expect(await page.locator('.ecw-zone').innerText()).toBe('Alle tider er norsk tid.');

    await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0));
  });

  it('shows the placeholder, not a broken picture, when a picture fails to load, keeping its alt text for screen readers', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 900 }, timezoneId: 'Europe/Oslo' });
    try {
      // The organizer deleted Hamlet's picture; the image host answers the others.
      await context.route(`${IMAGE_HOST}/**`, (route) => {
        const url = new URL(route.request().url());
        if (url.pathname.startsWith('/hamlet')) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' });
        return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: pictureSvg(url) });
      });
      const reader = await context.newPage();
      reader.on('pageerror', (error) => pageErrors.push(error));
      await reader.goto(service.url.replace(/\/graphQL$/, '/widget'));
      const hamlet = reader.locator('.ecw-card', { hasText: 'Hamlet' });
      await hamlet.locator('.ecw-media--fallback').waitFor();
      expect(await hamlet.locator('img').count()).toBe(0);
      expect(await hamlet.locator('.ecw-leaf').isVisible()).toBe(true);
      expect(await hamlet.locator('.ecw-leaf').innerText()).toMatch(/^27\.?\s+mar/i);
      // What a screen reader is told: the picture's description, on the box that replaced it.
      await expect.poll(() => hamlet.getByRole('img').getAttribute('aria-label')).toBe('Skuespiller med hodeskalle');
      // The other pictures are there, and no broken one is shown anywhere.
      await reader.waitForFunction(() => Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0));
      expect(await reader.locator('.ecw-card img').count()).toBe(4);
      // Oslo's own readers are not told the obvious.
      expect(await reader.locator('.ecw-zone').isHidden()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('asks the API by persisted GET only', () => {
    expect(graphqlRequests.length).toBeGreaterThanOrEqual(2);
    for (const request of graphqlRequests) {
      expect(request.method()).toBe('GET');
      expect(request.headers()['service-require-preflight']).toBe('true');
      expect(request.headers()['x-client-id']).toBeUndefined();
      const extensions = JSON.parse(new URL(request.url()).searchParams.get('extensions')!) as { persistedQuery: { sha256Hash: string } };
      expect(extensions.persistedQuery.sha256Hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('filters by a category chip', async () => {
    const chips = await page.locator('.ecw-chip').allInnerTexts();
    // Visible categories with upcoming events, labelled from the `categories` query; never the hidden one.
    expect(chips.map((chip) => chip.replace(/\s*\d+$/, ''))).toEqual(['Alle', 'Konsert', 'Teater / show', 'Barn / familie', 'Utstilling', 'Quiz']);

    await page.getByRole('button', { name: /^Teater \/ show/ }).click();
    await expect.poll(() => page.getAttribute('.ecw-chip[data-category="THEATER"]', 'aria-pressed')).toBe('true');
    await page.waitForFunction(() => document.querySelectorAll('.ecw-card').length === 3);
    const cards = await readCards();
    const { events } = await api.request(EventsPageDocument, { page: 0, pageSize: PAGE_SIZE, filter: { categories: ['THEATER'] } });

    expect(events!.totalCount).toBe(3);
    expectCardsToMatch(cards, events!.data);
    // The first page's scripts are replaced by the category's, not added to.
    await expect.poll(async () => (await readJsonLd()).length).toBe(3);
    const withJsonLd = await api.request(EventsPageDocument, { page: 0, pageSize: PAGE_SIZE, filter: { categories: ['THEATER'] }, withJsonLd: true, jsonLdLan: 'nb' });
    await expectJsonLdToMatch(cards, withJsonLd.events!.data);
    expect(cards.map((card) => card.title)).toEqual(['Hamlet', 'Pubquiz', 'Påskerevy']);
    expect(await page.locator('.ecw-card', { hasText: 'Pubquiz' }).innerText()).toContain('Utsolgt');
  });

  it('pages forward and back', async () => {
    await page.getByRole('button', { name: 'Alle' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.ecw-card').length === 6);
    await page.getByRole('button', { name: /Neste/ }).click();
    await page.waitForFunction(() => document.querySelector('.ecw-status')?.textContent?.includes('Side 2 av 2'));
    const cards = await readCards();
    const { events } = await api.request(EventsPageDocument, { page: 1, pageSize: PAGE_SIZE, withJsonLd: true, jsonLdLan: 'nb' });
    expectCardsToMatch(cards, events!.data);
    await expect.poll(async () => (await readJsonLd()).length).toBe(cards.length);
    await expectJsonLdToMatch(cards, events!.data);
    // Autumn DST night: 01:30 summer time + 120 min ends 02:30 winter time.
    expect(cards.find((card) => card.title === 'Høstnatt')?.time).toBe('01:30–02:30');
    expect(await page.getByRole('button', { name: /Neste/ }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: /Forrige/ }).click();
    await page.waitForFunction(() => document.querySelector('.ecw-status')?.textContent?.includes('Side 1 av 2'));
    expect((await readCards()).map((card) => card.title)[0]).toBe('Jazz i kjelleren');
  });

  it('writes no JSON-LD, and asks for none, with data-structured-data="false"', async () => {
    const base = service.url.replace(/\/graphQL$/, '');
    const context = await browser.newContext({ viewport: { width: 1180, height: 900 }, timezoneId: 'Europe/Oslo' });
    try {
      // A host page of the service's origin that turns structured data off (served by the test).
      await context.route(`${base}/host-page`, (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/html; charset=utf-8',
          body: '<!doctype html><html><head><title>Host</title></head><body><div data-calendar-widget data-structured-data="false" data-page-size="6"></div><script type="module" src="/widget/widget.js"></script></body></html>',
        }),
      );
      await context.route(`${IMAGE_HOST}/**`, (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: pictureSvg(new URL(route.request().url())) }));
      const host = await context.newPage();
      host.on('pageerror', (error) => pageErrors.push(error));
      const asked: string[] = [];
      host.on('request', (request) => {
        if (new URL(request.url()).pathname === '/graphQL') asked.push(request.url());
      });
      await host.goto(`${base}/host-page`);
      await host.waitForSelector('.ecw-list[aria-busy="false"] .ecw-card');
      expect(await host.locator('.ecw-card').count()).toBe(PAGE_SIZE);
      expect(await readJsonLd(host)).toEqual([]);
      await host.getByRole('button', { name: /^Teater \/ show/ }).click();
      await host.waitForFunction(() => document.querySelectorAll('.ecw-card').length === 3);
      expect(await host.locator('script[type="application/ld+json"]').count()).toBe(0);
      // The page of cards is asked for without jsonLd: the same request as any other page of cards.
      const variables = asked.map((url) => new URL(url).searchParams.get('variables') ?? '').filter((text) => text.includes('pageSize'));
      expect(variables.length).toBeGreaterThanOrEqual(2);
      for (const text of variables) expect(text).not.toContain('withJsonLd');
    } finally {
      await context.close();
    }
  });
});
