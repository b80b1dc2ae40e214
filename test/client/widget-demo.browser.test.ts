import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserTests, launchChromium } from '../support/chromium.js';
import { migratedDataDir, type MigratedDataDir } from '../support/migrated-data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

/**
 * The widget as a new user first sees it: `calendar serve` (what `npm start` runs) on an empty
 * embedded database seeds the demo calendar, nothing outside the machine is reachable, and the page
 * is read on a small phone, a large phone and a laptop. The screenshots in docs/ come from here.
 */
const DESKTOP_SCREENSHOT = fileURLToPath(new URL('../../docs/widget.png', import.meta.url));
const PHONE_SCREENSHOT = fileURLToPath(new URL('../../docs/widget-phone.png', import.meta.url));
const SEARCH_SCREENSHOT = fileURLToPath(new URL('../../docs/widget-search-phone.png', import.meta.url));
/** Where the other widths' search screenshots go, to be looked at (not kept in docs/). */
const SCREENSHOT_DIR = process.env['WIDGET_SCREENSHOT_DIR'];

const SCREENS = [
  { name: 'small phone', width: 320, height: 568, phone: true, timezoneId: 'America/Los_Angeles' },
  { name: 'phone', width: 390, height: 844, phone: true, timezoneId: 'Europe/Oslo' },
  { name: 'laptop', width: 1280, height: 800, phone: false, timezoneId: 'Europe/Oslo' },
] as const;

let service: ServiceProcess;
let dataDir: MigratedDataDir | undefined;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  if (!browserTests.run) return;
  browser = await launchChromium();
  // The defaults of `npm start` (the demo seeded into an empty database), on a throwaway database
  // (migrated already: the run's template), at a fixed "now" so screenshots repeat.
  dataDir = await migratedDataDir();
  service = startServiceProcess({ CALENDAR_DATA_DIR: dataDir.path, CALENDAR_NOW: '2026-11-25T12:00:00+01:00', LOG_LEVEL: 'warn' });
  origin = new URL(await service.listening).origin;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await dataDir?.remove();
});

interface Reader {
  context: BrowserContext;
  page: Page;
  /** Requests that left the machine: there must be none. */
  foreign: string[];
  problems: string[];
}

async function openWidget(screen: (typeof SCREENS)[number], failPicture?: (url: URL) => boolean): Promise<Reader> {
  const context = await browser.newContext({
    viewport: { width: screen.width, height: screen.height },
    deviceScaleFactor: screen.phone ? 2 : 1,
    isMobile: screen.phone,
    hasTouch: screen.phone,
    timezoneId: screen.timezoneId,
  });
  const foreign: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== origin) {
      foreign.push(url.href);
      return route.abort('internetdisconnected');
    }
    if (failPicture?.(url)) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' });
    return route.continue();
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400 && !failPicture?.(new URL(response.url()))) problems.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`${origin}/widget`);
  await page.waitForSelector('.ecw-list[aria-busy="false"] .ecw-card');
  return { context, page, foreign, problems };
}

/** Scrolls down the whole page so every lazy picture loads, then back up. */
async function loadEveryPicture(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 400) await page.evaluate((top) => window.scrollTo(0, top), y);
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Pictures shown broken (loaded, but nothing to draw): a broken-image glyph, alt text over the box. */
const brokenPictures = (page: Page) =>
  page.$$eval('img', (images) => images.filter((image) => image.complete && image.naturalWidth === 0).map((image) => image.currentSrc || image.src));

describe.skipIf(!browserTests.run)('the widget on the demo calendar of `npm start`, offline', () => {
  for (const screen of SCREENS) {
    it(`at ${screen.width} px (${screen.name}): every picture loads from the service, nothing scrolls sideways${screen.phone ? ', the first card in the upper half' : ''}`, async () => {
      const { context, page, foreign, problems } = await openWidget(screen);
      try {
        const layout = await page.evaluate(() => {
          const chips = Array.from(document.querySelectorAll('.ecw-chip'));
          const filters = document.querySelector('.ecw-filters')!;
          return {
            pageWidth: document.documentElement.scrollWidth,
            viewportWidth: document.documentElement.clientWidth,
            firstCardTop: document.querySelector('.ecw-card')!.getBoundingClientRect().top,
            chipRows: new Set(chips.map((chip) => Math.round(chip.getBoundingClientRect().top))).size,
            chips: chips.length,
            filtersScroll: filters.scrollWidth > filters.clientWidth,
            narrow: document.querySelector('.ecw')!.classList.contains('ecw--narrow'),
          };
        });
        if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/widget-${screen.width}.png` });
        expect(layout.pageWidth).toBeLessThanOrEqual(layout.viewportWidth);
        expect(layout.chips).toBeGreaterThan(15);
        if (screen.phone) {
          expect(layout.narrow).toBe(true);
          // One line of chips that scrolls inside itself, and the events on the first screen.
          expect(layout.chipRows).toBe(1);
          expect(layout.filtersScroll).toBe(true);
          expect(layout.firstCardTop).toBeLessThan(screen.height / 2);
        } else {
          expect(layout.narrow).toBe(false);
          expect(layout.chipRows).toBeGreaterThan(1);
        }

        // Times are Oslo's: only the reader whose clock differs is told so.
        expect(await page.locator('.ecw-zone').isVisible()).toBe(screen.timezoneId !== 'Europe/Oslo');

        if (screen.width === 390) await page.screenshot({ path: PHONE_SCREENSHOT });
        if (screen.width === 1280) await page.screenshot({ path: DESKTOP_SCREENSHOT, fullPage: true });

        await loadEveryPicture(page);
        const pictures = await page.$$eval('.ecw-card img', (images) => (images as HTMLImageElement[]).map((image) => new URL(image.currentSrc).pathname));
        expect(pictures.length).toBeGreaterThanOrEqual(4);
        for (const path of pictures) expect(path).toMatch(/^\/demo-pictures\//);
        expect(await brokenPictures(page)).toEqual([]);
        expect(await page.locator('.ecw-media--fallback').count()).toBe(0);
        expect(foreign).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  for (const screen of SCREENS) {
    it(`at ${screen.width} px (${screen.name}): the search box suggests with counts, inside the screen, and the taken suggestion's count is the list's`, async () => {
      const { context, page, foreign, problems } = await openWidget(screen);
      try {
        const toggle = page.getByRole('button', { name: 'Søk', exact: true });
        if (screen.phone) {
          // Narrow: the box waits behind the search button beside the heading; the button opens it and focuses the field.
          expect(await page.isVisible('.ecw-search')).toBe(false);
          await toggle.click();
          expect(await toggle.getAttribute('aria-expanded')).toBe('true');
          expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
        } else {
          expect(await toggle.isVisible()).toBe(false);
          await page.getByRole('combobox', { name: 'Søk' }).click();
        }
        await page.keyboard.type('kon');
        await page.waitForSelector('.ecw-suggestions:not([hidden]) .ecw-suggestion');
        const layout = await page.evaluate(() => {
          const list = document.querySelector('.ecw-suggestions')!.getBoundingClientRect();
          const field = document.querySelector('.ecw-search-input')!.getBoundingClientRect();
          return {
            pageWidth: document.documentElement.scrollWidth,
            viewportWidth: document.documentElement.clientWidth,
            list: { left: list.left, right: list.right, bottom: list.bottom, top: list.top },
            fieldBottom: field.bottom,
            fieldFontPx: parseFloat(getComputedStyle(document.querySelector('.ecw-search-input')!).fontSize),
            items: Array.from(document.querySelectorAll('.ecw-suggestion')).map((item) => ({
              label: item.querySelector('.ecw-suggestion-label')?.textContent ?? '',
              kind: item.querySelector('.ecw-suggestion-kind')?.textContent ?? '',
              hits: item.querySelector('.ecw-suggestion-hits [aria-hidden]')?.textContent ?? '',
              height: item.getBoundingClientRect().height,
            })),
          };
        });
        expect(layout.pageWidth).toBeLessThanOrEqual(layout.viewportWidth);
        expect(layout.list.left).toBeGreaterThanOrEqual(0);
        expect(layout.list.right).toBeLessThanOrEqual(layout.viewportWidth);
        expect(layout.list.top).toBeGreaterThanOrEqual(layout.fieldBottom);
        expect(layout.list.bottom).toBeLessThanOrEqual(screen.height);
        // 16 px: phones do not zoom into the field when it gets focus.
        expect(layout.fieldFontPx).toBeGreaterThanOrEqual(16);
        expect(layout.items.length).toBeGreaterThanOrEqual(3);
        const events = ['Arrangement', 'Arrangementer med denne tittelen'];
        expect(layout.items.filter((item) => !events.includes(item.kind)).every((item) => /^\d+$/.test(item.hits))).toBe(true);
        // Events of one title (the demo has series imported as separate events) are one row.
        const rows = layout.items.map((item) => `${item.kind} ${item.label}`);
        expect(new Set(rows).size).toBe(rows.length);
        // Touch targets of 44 px or more on phones.
        if (screen.phone) expect(Math.min(...layout.items.map((item) => item.height))).toBeGreaterThanOrEqual(44);
        if (screen.width === 390) await page.screenshot({ path: SEARCH_SCREENSHOT });
        if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/widget-search-${screen.width}.png` });

        const first = layout.items[0]!;
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        if (events.includes(first.kind)) return;
        await expect.poll(() => page.locator('.ecw-status').innerText()).toMatch(new RegExp(`^${first.hits} arrangement`));
        expect(foreign).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('shows events of one title as one suggestion, which lists the events of that title', async () => {
    const { context, page, problems } = await openWidget(SCREENS[2]);
    try {
      await page.getByRole('combobox', { name: 'Søk' }).click();
      await page.keyboard.type('kon');
      const row = page.locator('.ecw-suggestion', { hasText: 'Arrangementer med denne tittelen' }).first();
      const title = await row.locator('.ecw-suggestion-label').innerText();
      const api = `${origin}/graphQL`;
      const answer = await fetch(api, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query ($f: Filter) { events(filter: $f, pageSize: 50) { totalCount data { title_nb } } }', variables: { f: { searchTerm: title } } }),
      });
      const { data } = (await answer.json()) as { data: { events: { totalCount: number; data: { title_nb: string }[] } } };
      expect(data.events.data.filter((event) => event.title_nb === title).length).toBeGreaterThan(1);
      await row.click();
      expect(await page.getByRole('combobox', { name: 'Søk' }).inputValue()).toBe(title);
      await expect.poll(() => page.locator('.ecw-status').innerText()).toMatch(new RegExp(`^${data.events.totalCount} arrangement`));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('replaces pictures that fail to load with the placeholder, alt text kept for screen readers', async () => {
    // Every other picture is gone (a CDN half down).
    const fails = (url: URL) => /^\/demo-pictures\/[a-z_]+\/\d*[13579]-/.test(url.pathname);
    const { context, page, problems } = await openWidget(SCREENS[1], fails);
    try {
      await loadEveryPicture(page);
      const cards = await page.$$eval('.ecw-card', (items) =>
        items.map((card) => {
          const media = card.querySelector('.ecw-media')!;
          return {
            img: card.querySelector('img')?.getAttribute('src') ?? null,
            fallback: media.classList.contains('ecw-media--fallback'),
            role: media.getAttribute('role'),
            label: media.getAttribute('aria-label'),
            leafShown: (card.querySelector('.ecw-leaf') as HTMLElement).offsetHeight > 0,
          };
        }),
      );
      const failed = cards.filter((card) => card.fallback);
      expect(failed.length).toBeGreaterThan(0);
      for (const card of failed) {
        expect(card.img).toBeNull();
        expect(card.leafShown).toBe(true);
        if (card.role !== null) {
          expect(card.role).toBe('img');
          expect(card.label).toBeTruthy();
        }
      }
      expect(failed.some((card) => card.role === 'img')).toBe(true);
      expect(await brokenPictures(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on a phone, the category row works by keyboard and names itself to screen readers', async () => {
    const { context, page, problems } = await openWidget(SCREENS[1]);
    try {
      const group = page.getByRole('group', { name: 'Filtrer på kategori' });
      const all = group.getByRole('button', { name: 'Alle', pressed: true });
      await all.focus();
      for (let step = 0; step < 7; step += 1) await page.keyboard.press('ArrowRight');
      const readFocus = () =>
        page.evaluate(() => {
          const chip = document.activeElement as HTMLElement;
          const row = chip.parentElement!.getBoundingClientRect();
          const box = chip.getBoundingClientRect();
          return { id: chip.dataset['category'], inView: box.left >= row.left - 1 && box.right <= row.right + 1, index: Array.from(chip.parentElement!.children).indexOf(chip) };
        });
      const focused = await readFocus();
      expect(focused.index).toBe(7);
      // Scrolled into the row's view as it got focus.
      await expect.poll(async () => (await readFocus()).inView).toBe(true);

      const count = Number(await page.locator(`.ecw-chip[data-category="${focused.id}"] .ecw-count`).innerText());
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getAttribute(`.ecw-chip[data-category="${focused.id}"]`, 'aria-pressed')).toBe('true');
      await expect.poll(() => page.locator('.ecw-status').innerText()).toMatch(new RegExp(`^${count} arrangement`));
      expect(await page.getAttribute('.ecw-chip[data-category=""]', 'aria-pressed')).toBe('false');
      await page.keyboard.press('Home');
      expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset['category'])).toBe('');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
