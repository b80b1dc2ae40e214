import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startService, type RunningService } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { createCalendarClient, type CalendarClient } from '../../packages/client/src/index.js';
import { EventsPageDocument, SuggestDocument, type Filter } from '../../packages/client/src/generated/documents.js';
import { browserTests, launchChromium } from '../support/chromium.js';
import { createTestDatabase } from '../support/test-database.js';
import { IMAGE_HOST, NOW, pictureSvg, widgetCalendar } from './fixtures/widget-calendar.js';

/**
 * The widget's search box in Chromium: typeahead suggestions with counts (the combobox pattern:
 * arrow keys, Enter, Escape, `aria-activedescendant`), and the cards filtered by what is chosen.
 * Every expectation is computed from the API itself (`suggest`, `events`), not written down.
 */
const SITE = 'https://kalender.example.no';
const PAGE_SIZE = 6;

let database: DatabaseHandle;
let service: RunningService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let api: CalendarClient;
const pageErrors: Error[] = [];

beforeAll(async () => {
  if (!browserTests.run) return;
  browser = await launchChromium();
  database = await createTestDatabase();
  await importCalendar(database, widgetCalendar);
  service = await startService(readConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', PUBLIC_SITE_URL: `${SITE}/arrangement` }), {
    database,
    seedWhenEmpty: false,
    clock: () => NOW,
  });
  api = createCalendarClient({ endpoint: service.url });
}, 60_000);

beforeEach(async () => {
  if (!browserTests.run) return;
  context = await browser.newContext({ viewport: { width: 1180, height: 900 }, timezoneId: 'Europe/Oslo' });
  await context.route(`${IMAGE_HOST}/**`, (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: pictureSvg(new URL(route.request().url())) }));
  await context.route(`${SITE}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Event page</title>' }));
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error));
  await page.goto(service.url.replace(/\/graphQL$/, '/widget'));
  await page.waitForSelector('.ecw-list[aria-busy="false"] .ecw-card');
});

afterEach(async () => {
  await context?.close();
  expect(pageErrors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await database?.close();
});

const box = () => page.getByRole('combobox', { name: 'Søk' });

/** The suggestions shown: label, kind word and count (none for an event), in order. */
async function shownSuggestions(): Promise<{ id: string; label: string; kind: string; hits: string }[]> {
  await page.waitForSelector('.ecw-suggestions:not([hidden]) .ecw-suggestion');
  return page.$$eval('.ecw-suggestion', (items) =>
    items.map((item) => ({
      id: item.id,
      label: item.querySelector('.ecw-suggestion-label')?.textContent ?? '',
      kind: item.querySelector('.ecw-suggestion-kind')?.textContent ?? '',
      hits: item.querySelector('.ecw-suggestion-hits [aria-hidden]')?.textContent ?? '',
    })),
  );
}

const KIND_WORDS = { VENUE: 'Sted', ORGANIZER: 'Arrangør', CATEGORY: 'Kategori', TAG: 'Stikkord', EVENT: 'Arrangement' } as const;

/** What the service suggests for `prefix` under `filter`, as the widget must show it. */
async function expectedSuggestions(prefix: string, filter?: Filter) {
  const { suggest } = await api.request(SuggestDocument, { prefix, ...(filter ? { filter } : {}) });
  return suggest.map((suggestion) => ({
    label: suggestion.label_nb ?? suggestion.label_en ?? suggestion.value,
    kind: KIND_WORDS[suggestion.kind],
    hits: suggestion.kind === 'EVENT' ? '' : String(suggestion.hits),
  }));
}

async function cardTitles(): Promise<string[]> {
  await page.waitForSelector('.ecw-list[aria-busy="false"]');
  return page.$$eval('.ecw-card h3', (titles) => titles.map((title) => title.textContent ?? ''));
}

async function expectedTitles(filter: Filter): Promise<string[]> {
  const { events } = await api.request(EventsPageDocument, { page: 0, pageSize: PAGE_SIZE, filter });
  return events!.data.map((event) => event.title_nb ?? '');
}

describe.skipIf(!browserTests.run)('the widget’s search box in Chromium', () => {
  it('suggests what the service suggests, with counts; arrows move the active option, Enter takes it and filters the cards', async () => {
    await box().click();
    await page.keyboard.type('nat');
    const shown = await shownSuggestions();
    expect(shown.map(({ label, kind, hits }) => ({ label, kind, hits }))).toEqual(await expectedSuggestions('nat'));
    expect(shown.map((item) => item.label)).toEqual(expect.arrayContaining(['Nationaltheatret', 'Nattkonsert når klokka stilles']));
    expect(await box().getAttribute('aria-expanded')).toBe('true');
    expect(await box().getAttribute('aria-controls')).toBe(await page.getAttribute('.ecw-suggestions', 'id'));
    expect(await box().getAttribute('aria-activedescendant')).toBeNull();

    // Down from the field: the first; up from the first: the last (wrapping); down again: the first.
    await page.keyboard.press('ArrowDown');
    expect(await box().getAttribute('aria-activedescendant')).toBe(shown[0]!.id);
    expect(await page.getAttribute(`#${shown[0]!.id}`, 'aria-selected')).toBe('true');
    await page.keyboard.press('ArrowUp');
    expect(await box().getAttribute('aria-activedescendant')).toBe(shown.at(-1)!.id);
    expect(await page.getAttribute(`#${shown[0]!.id}`, 'aria-selected')).toBe('false');
    await page.keyboard.press('ArrowDown');
    expect(await box().getAttribute('aria-activedescendant')).toBe(shown[0]!.id);
    // Focus never leaves the field.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');

    const venue = shown.findIndex((item) => item.label === 'Nationaltheatret');
    for (let i = 0; i < venue; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await box().inputValue()).toBe('Nationaltheatret');
    expect(await box().getAttribute('aria-expanded')).toBe('false');
    expect(await page.isHidden('.ecw-suggestions')).toBe(true);
    const filter = { venueSlug: 'nationaltheatret' };
    await page.waitForFunction((count) => document.querySelector('.ecw-status')?.textContent?.startsWith(`${count} arrangement`), shown[venue]!.hits);
    expect(await cardTitles()).toEqual(await expectedTitles(filter));
    const { events } = await api.request(EventsPageDocument, { pageSize: PAGE_SIZE, filter });
    expect(String(events!.totalCount)).toBe(shown[venue]!.hits);

    // Escape with no list open empties the field and shows every event again.
    await page.keyboard.press('Escape');
    expect(await box().inputValue()).toBe('');
    await page.waitForFunction(() => document.querySelectorAll('.ecw-card').length === 6);
    expect(await cardTitles()).toEqual(await expectedTitles({}));
  });

  it('Escape closes the list and keeps what was typed; a second Escape empties the field', async () => {
    await box().click();
    await page.keyboard.type('kunst');
    await shownSuggestions();
    await page.keyboard.press('Escape');
    expect(await page.isHidden('.ecw-suggestions')).toBe(true);
    expect(await box().getAttribute('aria-expanded')).toBe('false');
    expect(await box().inputValue()).toBe('kunst');
    // Down opens it again.
    await page.keyboard.press('ArrowDown');
    expect(await box().getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    expect(await box().inputValue()).toBe('');
  });

  it('Enter with nothing picked searches the typed words (searchTerm)', async () => {
    await box().click();
    await page.keyboard.type('jazz');
    await shownSuggestions();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.ecw-card').length === 1);
    expect(await cardTitles()).toEqual(await expectedTitles({ searchTerm: 'jazz' }));
    expect(await cardTitles()).toEqual(['Jazz i kjelleren']);
  });

  it('a category suggestion presses its chip, ending the search before it; counts follow the chosen category', async () => {
    // A venue first: the category taken next replaces it (the field shows nothing to say it still holds).
    await box().click();
    await page.keyboard.type('kunstm');
    await page.click(`#${(await shownSuggestions())[0]!.id}`);
    await page.waitForFunction(() => document.querySelectorAll('.ecw-card').length === 2);
    // Typed over (never empty): the venue still holds until the category is taken.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('teat');
    const shown = await shownSuggestions();
    const category = shown.findIndex((item) => item.kind === 'Kategori' && item.label === 'Teater / show');
    expect(category).toBeGreaterThanOrEqual(0);
    await page.click(`#${shown[category]!.id}`);
    await expect.poll(() => page.getAttribute('.ecw-chip[data-category="THEATER"]', 'aria-pressed')).toBe('true');
    expect(await box().inputValue()).toBe('');
    await page.waitForFunction(() => document.querySelectorAll('.ecw-card').length === 3);
    expect(await cardTitles()).toEqual(await expectedTitles({ categories: ['THEATER'] }));

    // Under the Theater chip, a venue counts only its theater events.
    await box().click();
    await page.keyboard.type('nat');
    const underTheater = await shownSuggestions();
    expect(underTheater.map(({ label, kind, hits }) => ({ label, kind, hits }))).toEqual(await expectedSuggestions('nat', { categories: ['THEATER'] }));
    const venue = underTheater.find((item) => item.label === 'Nationaltheatret')!;
    const { events } = await api.request(EventsPageDocument, { pageSize: PAGE_SIZE, filter: { categories: ['THEATER'], venueSlug: 'nationaltheatret' } });
    expect(venue.hits).toBe(String(events!.totalCount));
    // Taken, both conditions hold.
    await page.click(`#${venue.id}`);
    await page.waitForFunction((count) => document.querySelector('.ecw-status')?.textContent?.startsWith(`${count} arrangement`), venue.hits);
    expect(await cardTitles()).toEqual(await expectedTitles({ categories: ['THEATER'], venueSlug: 'nationaltheatret' }));
  });

  it('an event suggestion opens the event’s own page, as its card does', async () => {
    await box().click();
    await page.keyboard.type('haml');
    const shown = await shownSuggestions();
    const hamlet = shown.findIndex((item) => item.kind === 'Arrangement' && item.label === 'Hamlet');
    expect(hamlet).toBeGreaterThanOrEqual(0);
    const cardLink = await page.locator('.ecw-card', { hasText: 'Hamlet' }).locator('h3 a').getAttribute('href');
    for (let i = 0; i <= hamlet; i++) await page.keyboard.press('ArrowDown');
    await Promise.all([page.waitForURL(`${SITE}/**`), page.keyboard.press('Enter')]);
    expect(page.url()).toBe(cardLink);
  });

  it('emptying the field by hand ends its search', async () => {
    await box().click();
    await page.keyboard.type('kunstm');
    await page.click(`#${(await shownSuggestions())[0]!.id}`);
    await page.waitForFunction(() => document.querySelectorAll('.ecw-card').length === 2);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.waitForFunction(() => document.querySelectorAll('.ecw-card').length === 6);
    expect(await cardTitles()).toEqual(await expectedTitles({}));
  });

  it('the clear button empties the field and the filter; a typo of 4+ letters still finds the venue', async () => {
    await box().click();
    await page.keyboard.type('kunstmusset');
    const shown = await shownSuggestions();
    expect(shown.map(({ label, kind, hits }) => ({ label, kind, hits }))).toEqual(await expectedSuggestions('kunstmusset'));
    expect(shown[0]!.label).toBe('Kunstmuseet');
    await page.click(`#${shown[0]!.id}`);
    await page.waitForFunction((count) => document.querySelector('.ecw-status')?.textContent?.startsWith(`${count} arrangement`), shown[0]!.hits);
    expect(await cardTitles()).toEqual(await expectedTitles({ venueSlug: 'kunstmuseet' }));
    await page.getByRole('button', { name: 'Tøm søket' }).click();
    expect(await box().inputValue()).toBe('');
    await page.waitForFunction(() => document.querySelectorAll('.ecw-card').length === 6);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
  });
});
