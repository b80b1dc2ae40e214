import type { TestProject } from 'vitest/node';
import { buildBeforeTests } from './build-before-tests.js';
import { embeddedTemplate } from './embedded-template.js';
import { dropRunSchemas, testRun } from './test-run-schemas.js';

/**
 * Vitest's global setup of the integration tier: dist/ built (build-before-tests.ts) while the run's
 * migrated embedded database is made (embedded-template.ts), side by side; at the end, the run's test
 * schemas left on the PostgreSQL of DATABASE_URL dropped.
 */
export default async function integrationSetup(project: TestProject): Promise<() => Promise<void>> {
  // Once per run, however many projects name this setup (they share the Vitest process).
  const first = process.env['CALENDAR_TEST_RUN'] === undefined;
  project.provide('testRun', testRun());
  const [, removeTemplate] = await Promise.all([buildBeforeTests(), embeddedTemplate(project)]);
  return async () => {
    await removeTemplate();
    // The test schemas the test processes kept for their next test (test-database.ts).
    const url = process.env['DATABASE_URL'];
    if (first && url) await dropRunSchemas(url);
  };
}
