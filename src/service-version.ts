import { readFileSync } from 'node:fs';

/**
 * This release's version (package.json's `version`), for the start-up line: which release a node runs.
 * The same path from src/ (tests) and dist/ (production): package.json sits one level up from both.
 */
export const SERVICE_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
