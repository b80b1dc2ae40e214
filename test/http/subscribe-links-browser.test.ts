import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserTests, CHROMIUM_PATH, launchChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

let server: TestServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  if (!browserTests.run) return;
  browser = await launchChromium();
  server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on('pageerror', (error) => problems.push(error.message));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The feed a webcal:// link names, fetched over http as a calendar program does. */
async function feedOf(link: string): Promise<{ status: number; text: string }> {
  expect(link).toMatch(/^webcal:\/\//);
  const response = await fetch(link.replace(/^webcal:/, 'http:'));
  return { status: response.status, text: await response.text() };
}

describe.skipIf(!browserTests.run)(`subscribe links in Chromium (${CHROMIUM_PATH})`, () => {
  it('the widget links to the feed of the category it lists', async () => {
    await page.goto(`${server.origin}/widget`);
    await page.waitForSelector('.ecw-list[aria-busy="false"]');
    const link = page.locator('a.ecw-subscribe');
    expect(await link.innerText()).toBe('Abonner i kalenderen din');
    const all = await link.getAttribute('href');
    expect(all).toBe(`webcal://${new URL(server.origin).host}/events.ics?lan=nb`);

    const chip = page.locator('.ecw-chip[data-category]:not([data-category=""])').first();
    const category = (await chip.getAttribute('data-category'))!;
    await chip.click();
    await expect.poll(() => link.getAttribute('href')).toBe(`webcal://${new URL(server.origin).host}/events.ics?categories=${category}&lan=nb`);
    const feed = await feedOf((await link.getAttribute('href'))!);
    expect(feed.status).toBe(200);
    expect(feed.text).toContain('BEGIN:VEVENT');
    expect(problems).toEqual([]);
  });

  it('the sandbox links to the feed of the filter variable', async () => {
    const variables = JSON.stringify({ filter: { categories: ['CONCERT', 'DANCE'], onlyFeatured: false } });
    await page.goto(`${server.url}?variables=${encodeURIComponent(variables)}`, { waitUntil: 'load' });
    await page.locator('.graphiql-container').waitFor();
    const link = page.locator('#subscribe-feed');
    await expect
      .poll(() => link.getAttribute('href'))
      .toBe(`webcal://${new URL(server.origin).host}/events.ics?categories=CONCERT%2CDANCE&onlyFeatured=false`);
    expect((await feedOf((await link.getAttribute('href'))!)).status).toBe(200);
    expect(problems).toEqual([]);
  });
});
