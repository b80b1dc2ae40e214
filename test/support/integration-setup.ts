import type { TestProject } from 'vitest/node';
import { buildBeforeTests } from './build-before-tests.js';
import { embeddedTemplate } from './embedded-template.js';

/**
 * Vitest's global setup of the integration tier: dist/ built (build-before-tests.ts) while the run's
 * migrated embedded database is made (embedded-template.ts), side by side.
 */
export default async function integrationSetup(project: TestProject): Promise<() => Promise<void>> {
  const [, removeTemplate] = await Promise.all([buildBeforeTests(), embeddedTemplate(project)]);
  return removeTemplate;
}
