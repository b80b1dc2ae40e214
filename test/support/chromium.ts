import { existsSync } from 'node:fs';
import { chromium as playwright, type Browser, type LaunchOptions } from 'playwright-core';
import { timedPhase } from './phase-timings.js';

/**
 * Chromium for the browser tests: Debian's build (`apt-get install chromium`), never a downloaded
 * one. CHROMIUM_PATH points at another executable.
 */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';

const ci = process.env['CI'] !== undefined && !['', '0', 'false'].includes(process.env['CI'].toLowerCase());
const found = existsSync(CHROMIUM_PATH);

/**
 * Whether the browser tests run. A machine without Chromium skips them, with one line saying how to
 * get them; in CI (CI=true) they always run, so a missing browser fails them loudly instead of
 * passing unseen.
 */
export const browserTests = { run: found || ci };

// One line per skipped file, under the file's name in Vitest's output (its summary names no skipped test).
if (!browserTests.run) console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM_PATH}. To run them: apt-get install chromium (or set CHROMIUM_PATH).`);

/** Starts headless Chromium; throws a message naming the path and the fix when it is missing. */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  if (!found) {
    throw new Error(`Chromium is required${ci ? ' in CI (CI is set)' : ''} but ${CHROMIUM_PATH} does not exist: apt-get install chromium, or set CHROMIUM_PATH`);
  }
  return timedPhase('browser', () =>
    playwright.launch({
      executablePath: CHROMIUM_PATH,
      // Without the background-networking flags Chromium keeps trying hosts this closed network refuses.
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      ...options,
    }),
  );
}
