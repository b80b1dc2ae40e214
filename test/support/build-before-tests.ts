import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Part of Vitest's global setup (integration-setup.ts): `npm run build` once before any test. Tests import
 * src/ directly, but those that run the `calendar` command as a process run what production runs, dist/
 * (bin/calendar.js), and the widget route serves dist/'s bundle: built here from the sources under test,
 * never stale.
 */
export async function buildBeforeTests(): Promise<void> {
  // Once per run, however many projects name this setup (they share the Vitest process).
  if (process.env['CALENDAR_TEST_BUILT']) return;
  process.env['CALENDAR_TEST_BUILT'] = '1';
  const { stderr } = await run(process.execPath, [fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url))]);
  if (stderr) process.stderr.write(stderr);
}
