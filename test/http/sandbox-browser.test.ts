import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserTests, CHROMIUM_PATH, launchChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

const SCREENSHOT = fileURLToPath(new URL('../../docs/sandbox.png', import.meta.url));

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  if (!browserTests.run) return;
  browser = await launchChromium();
  server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(!browserTests.run)(`sandbox in a real browser (Chromium at ${CHROMIUM_PATH})`, () => {
  it('loads GraphiQL from our origin only, autocompletes, runs a typed query and shows the data', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const foreign: string[] = [];
    const problems: string[] = [];
    // Offline proof: anything not from our origin is refused and remembered.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(server.origin) || url.startsWith('data:')) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    try {
      await page.goto(server.url, { waitUntil: 'load' });
      await page.locator('.graphiql-container').waitFor();
      const editor = page.locator('.graphiql-query-editor .CodeMirror');
      await editor.waitFor();
      // The example query is there and runnable.
      await expect.poll(() => editor.innerText()).toContain('query UpcomingEvents');

      // The schema is loaded by introspection: the docs show the root fields.
      await page.getByLabel('Show Documentation Explorer').click();
      const docs = page.locator('.graphiql-doc-explorer');
      await docs.getByText('Query', { exact: true }).first().click();
      await docs.getByText('events', { exact: true }).first().waitFor();

      // Type a query of our own, with the autocompletion list showing along the way.
      await editor.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.type('{ categ', { delay: 20 });
      const hints = page.locator('.CodeMirror-hints');
      await hints.getByText('categories', { exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await page.keyboard.type('ories { id name_en slug_nb }', { delay: 20 });
      const typed = await page.evaluate(() => {
        const element = document.querySelector<Element & { CodeMirror?: { getValue(): string } }>('.graphiql-query-editor .CodeMirror');
        return element?.CodeMirror?.getValue() ?? '';
      });
      // The editor closes brackets as they are typed; compare without the layout.
      expect(typed.replace(/\s*([{}])\s*/g, '$1').trim()).toBe('{categories{id name_en slug_nb}}');

      // GraphiQL derives the operation name from the text on a debounce; clicking before it settles
      // sends the example's name ("UpcomingEvents") with our anonymous query, which the server
      // rightly refuses. Give the debounce time to run.
      await page.waitForTimeout(1_000);
      await page.locator('.graphiql-execute-button').click();
      const response = page.locator('.graphiql-response');
      await expect.poll(() => response.innerText(), { timeout: 15_000 }).toContain('"THEATER"');
      const shown = await response.innerText();
      expect(shown).toContain('"name_en": "Concert"');
      expect(shown).toContain('"slug_nb": "teater-show"');

      await page.screenshot({ path: SCREENSHOT });
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is usable on a phone: editor above the result, both full width, docs on their own, no sideways scrolling', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await page.goto(server.url, { waitUntil: 'load' });
      const editor = page.locator('.graphiql-query-editor .CodeMirror');
      await editor.waitFor();
      await expect.poll(() => editor.innerText()).toContain('query UpcomingEvents');
      await page.locator('.graphiql-execute-button').click();
      const response = page.locator('.graphiql-response');
      await expect.poll(() => response.innerText(), { timeout: 15_000 }).toContain('"totalCount"');

      const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
      const editors = await box('.graphiql-editors');
      const result = await box('.graphiql-response');
      // Stacked: the result below the editor, each nearly the screen's width and a good part of its height.
      expect(result.y).toBeGreaterThanOrEqual(editors.y + editors.height - 1);
      for (const pane of [editors, result]) {
        expect(pane.width).toBeGreaterThan(330);
        expect(pane.height).toBeGreaterThan(250);
      }
      // A result line is readable: the title of an event fits on one line with its key.
      expect(await response.innerText()).toMatch(/"title_nb": "[^"\n]+"/);
      // The variables pane starts closed, so the query has the room.
      const tool = (await page.locator('section.graphiql-editor-tool').boundingBox())!;
      expect(tool.x + tool.width).toBeLessThanOrEqual(0);

      await page.getByLabel('Show Documentation Explorer').click();
      const docs = page.locator('.graphiql-doc-explorer');
      await docs.getByText('Query', { exact: true }).first().waitFor();
      expect((await docs.boundingBox())!.width).toBeGreaterThan(330);
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
