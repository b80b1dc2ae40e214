import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest's global setup: `npm run build` once before any test. Tests import src/ directly, but those
 * that run the `calendar` command as a process run what production runs, dist/ (bin/calendar.js), and
 * the widget route serves dist/'s bundle: built here from the sources under test, never stale.
 */
export default function buildBeforeTests(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url))], { stdio: ['ignore', 'ignore', 'inherit'] });
}
