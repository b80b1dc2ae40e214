/**
 * `npm run schema:check` (CI runs it after the codegen freshness check): every change from
 * schema/released.graphql to schema.graphql as breaking, dangerous or safe; fails on a breaking change
 * that CHANGELOG.md's Unreleased section does not name under `### Breaking`, and on a persisted
 * document in queries/ that no longer validates. Run from the project's root (npm does). docs/regenerate.md.
 */
import { checkSchema, describeCheck } from './schema-changes.js';

try {
  const check = await checkSchema(process.cwd());
  process.stdout.write(describeCheck(check));
  process.exitCode = check.ok ? 0 : 1;
} catch (error) {
  process.stderr.write(`schema:check: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
