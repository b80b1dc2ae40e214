/**
 * `npm run release -- <version> [--date YYYY-MM-DD]`: cuts a version (docs/regenerate.md#releasing).
 *
 * 1. Refuses unless `schema:check` passes (breaking changes announced, persisted documents valid), the
 *    version is semver and newer than every version in CHANGELOG.md, and "Unreleased" says something.
 * 2. Moves CHANGELOG.md's Unreleased entries under `## [<version>] - <date>` (today in Oslo unless
 *    --date), leaving an empty Unreleased section above it.
 * 3. Copies schema.graphql to schema/released.graphql: the schema later changes are compared with.
 * 4. Sets `version` in package.json and package-lock.json.
 *
 * Commits and tags nothing: it prints the commands. Run from the project's root (npm does).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkSchema, describeCheck, FILES } from './schema-changes.js';

const USAGE = 'usage: npm run release -- <version> [--date YYYY-MM-DD]   (e.g. npm run release -- 0.2.0)';
const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$/;

function fail(message: string): never {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

function argumentsOf(args: readonly string[]): { version: string; date: string } {
  const rest = [...args];
  let date: string | undefined;
  const dateAt = rest.indexOf('--date');
  if (dateAt >= 0) {
    date = rest[dateAt + 1];
    rest.splice(dateAt, 2);
    if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) fail(`--date takes YYYY-MM-DD, got ${JSON.stringify(date)}\n${USAGE}`);
  }
  if (rest.length !== 1 || !SEMVER.test(rest[0]!)) fail(`one version, major.minor.patch, is needed${rest.length ? `, got ${rest.join(' ')}` : ''}\n${USAGE}`);
  // The calendar day in Oslo, where the project's dates are.
  return { version: rest[0]!, date: date ?? new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo' }).format(new Date()) };
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b` (pre-releases by their core only). */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => SEMVER.exec(v)!.slice(1, 4).map(Number);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

/** CHANGELOG.md with the Unreleased entries under a version heading; refuses an empty Unreleased. */
function releasedChangelog(text: string, version: string, date: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^## \[?Unreleased\]?\s*$/i.test(line));
  if (start < 0) fail(`${FILES.changelog} has no "## [Unreleased]" heading`);
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  const entries = lines.slice(start + 1, end < 0 ? undefined : end);
  if (!entries.some((line) => line.trim() !== '' && !/^### /.test(line))) fail(`nothing under "## [Unreleased]" in ${FILES.changelog}: nothing to release`);
  for (const line of lines) {
    const released = /^## \[?([^\]\s]+)\]?/.exec(line)?.[1];
    if (!released || !SEMVER.test(released)) continue;
    if (compareVersions(version, released) <= 0) fail(`${version} is not newer than ${released}, already in ${FILES.changelog}`);
  }
  const body = entries.join('\n').replace(/^\n+/, '');
  return [...lines.slice(0, start + 1), '', `## [${version}] - ${date}`, '', body, ...(end < 0 ? [] : lines.slice(end))].join('\n');
}

/** package.json and package-lock.json with the new version (npm writes both as 2-space JSON with a final newline). */
function setVersion(root: string, version: string): void {
  const update = (file: string, change: (json: Record<string, unknown>) => void) => {
    const full = path.join(root, file);
    const json = JSON.parse(readFileSync(full, 'utf8')) as Record<string, unknown>;
    change(json);
    writeFileSync(full, `${JSON.stringify(json, null, 2)}\n`);
  };
  update('package.json', (json) => (json['version'] = version));
  update('package-lock.json', (json) => {
    json['version'] = version;
    const own = (json['packages'] as Record<string, Record<string, unknown>> | undefined)?.[''];
    if (own) own['version'] = version;
  });
}

const root = process.cwd();
const { version, date } = argumentsOf(process.argv.slice(2));
const check = await checkSchema(root);
if (!check.ok) {
  process.stderr.write(describeCheck(check));
  fail('schema:check fails: announce the breaking changes (or undo them) first');
}
const changelogPath = path.join(root, FILES.changelog);
const changelog = releasedChangelog(readFileSync(changelogPath, 'utf8'), version, date);
writeFileSync(changelogPath, changelog);
mkdirSync(path.dirname(path.join(root, FILES.released)), { recursive: true });
copyFileSync(path.join(root, FILES.current), path.join(root, FILES.released));
setVersion(root, version);
process.stdout.write(
  `Released ${version} (${date}): ${FILES.changelog} "Unreleased" moved under "## [${version}] - ${date}", ` +
    `${FILES.current} copied to ${FILES.released}, package.json and package-lock.json at ${version}.\n` +
    `Next: git add ${FILES.changelog} ${FILES.released} package.json package-lock.json && git commit -m "Release ${version}" && git tag v${version}\n`,
);
