import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const copies: string[] = [];

/**
 * A copy of what the scripts read (and the release writes), never the repository itself. `released`:
 * the repository's released schema, or the current one (so a test sees only the change it makes).
 */
function projectCopy(released: 'repository' | 'current' = 'current'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'schema-check-'));
  copies.push(dir);
  for (const file of ['schema.graphql', 'schema', 'CHANGELOG.md', 'queries', 'package.json', 'package-lock.json']) {
    cpSync(path.join(repoRoot, file), path.join(dir, file), { recursive: true });
  }
  if (released === 'current') cpSync(path.join(dir, 'schema.graphql'), path.join(dir, 'schema/released.graphql'));
  return dir;
}
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function edit(dir: string, file: string, change: (text: string) => string): void {
  const full = path.join(dir, file);
  const before = readFileSync(full, 'utf8');
  const after = change(before);
  // A test whose edit matched nothing would prove nothing.
  expect(after).not.toBe(before);
  writeFileSync(full, after);
}

/** `npm run <script>` as npm runs it: tsx, from the project's root (here the copy). */
function runScript(dir: string, script: 'schema-check' | 'release' = 'schema-check', args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [tsx, path.join(repoRoot, 'scripts', `${script}.ts`), ...args], { cwd: dir, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const announceBreaking = (names: string) => (changelog: string) =>
  changelog.replace('## [Unreleased]\n', `## [Unreleased]\n\n### Breaking\n- ${names} removed: it had no effect; leave it out of \`Filter\`.\n`);

describe('npm run schema:check', () => {
  it("passes the repository as it is, listing what changed since 0.1.0 as safe", async () => {
    const result = await runScript(projectCopy('repository'));
    expect(result.stdout).toMatch(/^Schema changes since the last release \(schema\/released\.graphql → schema\.graphql\): 0 breaking, 0 dangerous, \d+ safe$/m);
    expect(result.stdout).toMatch(/^ {2}safe +Query\.changes +Field 'changes' was added to object type 'Query'$/m);
    expect(result.stdout).toMatch(/^Persisted documents \(queries\/\*\.graphql\): \d+ operations, all valid against schema\.graphql$/m);
    expect(result.code).toBe(0);
  });

  it('fails on a removed field, naming it', async () => {
    const dir = projectCopy();
    edit(dir, 'schema.graphql', (s) => s.replace('  "Payment method for registration, or null."\n  paymentMethod: String\n', ''));
    const result = await runScript(dir);
    expect(result.stdout).toMatch(/^ {2}BREAKING +Event\.paymentMethod +Field 'paymentMethod' was removed from object type 'Event'/m);
    expect(result.stdout).toContain('✗ not announced: name `Event.paymentMethod` under "### Breaking" in CHANGELOG.md\'s Unreleased section');
    expect(result.stdout).toMatch(/^schema:check failed: 1 breaking change\(s\) not announced in CHANGELOG\.md/m);
    expect(result.code).toBe(1);
  });

  it('fails on an argument made required, naming it', async () => {
    const dir = projectCopy();
    edit(dir, 'schema.graphql', (s) => s.replace('    minLatitude: Float\n', '    minLatitude: Float!\n'));
    const result = await runScript(dir);
    expect(result.stdout).toMatch(
      /^ {2}BREAKING +Query\.allUpcomingEventsInArea\.minLatitude +Type for argument 'minLatitude' on field 'Query\.allUpcomingEventsInArea' changed from 'Float' to 'Float!'/m,
    );
    // The trusted documents already send it as Float!: only the schema change fails.
    expect(result.stdout).toMatch(/all valid against schema\.graphql$/m);
    expect(result.code).toBe(1);
  });

  it('passes a nullable field added, listed as safe', async () => {
    const dir = projectCopy();
    edit(dir, 'schema.graphql', (s) => s.replace('  location: Location\n}', '  location: Location\n  "A link to the venue on a map."\n  mapUrl: String\n}'));
    const result = await runScript(dir);
    expect(result.stdout).toMatch(/^ {2}safe +Venue\.mapUrl +Field 'mapUrl' was added to object type 'Venue'$/m);
    expect(result.stdout).not.toMatch(/BREAKING|DANGEROUS {2}/);
    expect(result.code).toBe(0);
  });

  it('reports a deprecation as safe', async () => {
    const dir = projectCopy();
    edit(dir, 'schema.graphql', (s) => s.replace('  location: Location\n}', '  location: Location @deprecated(reason: "Use `coordinates`.")\n}'));
    const result = await runScript(dir);
    expect(result.stdout).toMatch(/^ {2}safe +Venue\.location\.@deprecated +Field 'Venue\.location' is deprecated$/m);
    expect(result.stdout).toMatch(/: 0 breaking, 0 dangerous, \d+ safe$/m);
    expect(result.code).toBe(0);
  });

  it('prints a dangerous change and passes', async () => {
    const dir = projectCopy();
    edit(dir, 'schema.graphql', (s) => s.replace('  THIS_MONTH\n', '  THIS_MONTH\n  "From now until the year ends."\n  THIS_YEAR\n'));
    const result = await runScript(dir);
    expect(result.stdout).toMatch(/^ {2}DANGEROUS +WhenPreset\.THIS_YEAR +Enum value 'THIS_YEAR' was added to enum 'WhenPreset' \(Adding an enum value may break/m);
    expect(result.code).toBe(0);
  });

  it("passes a breaking change named under ### Breaking in CHANGELOG's Unreleased section, and only there", async () => {
    const dir = projectCopy();
    edit(dir, 'schema.graphql', (s) =>
      s.replace('  "Has no effect: results are always chronological."\n  sortBy: String @deprecated(reason: "Results are always chronological; this field is ignored.")\n', ''),
    );
    // Named, but under another heading: not an announcement of a breaking change.
    edit(dir, 'CHANGELOG.md', (s) => s.replace('## [Unreleased]\n\n### Added\n', '## [Unreleased]\n\n### Added\n- `Filter.sortBy` is gone.\n'));
    const elsewhere = await runScript(dir);
    expect(elsewhere.stdout).toMatch(/^ {2}BREAKING +Filter\.sortBy +Input field 'sortBy' \(deprecated\) was removed from input object type 'Filter'/m);
    expect(elsewhere.code).toBe(1);

    edit(dir, 'CHANGELOG.md', announceBreaking('`Filter.sortBy`'));
    const announced = await runScript(dir);
    expect(announced.stdout).toContain('✓ announced under "### Breaking" in CHANGELOG.md');
    expect(announced.stdout).toMatch(/^schema:check passed$/m);
    expect(announced.code).toBe(0);
  });

  it('accepts an argument named as a schema coordinate under ### Breaking', async () => {
    const dir = projectCopy();
    edit(dir, 'schema.graphql', (s) => s.replace('    minLatitude: Float\n', '    minLatitude: Float!\n'));
    edit(dir, 'CHANGELOG.md', announceBreaking('`Query.allUpcomingEventsInArea(minLatitude:)`'));
    expect((await runScript(dir)).code).toBe(0);
  });

  it('fails on a persisted document that no longer validates, naming the file, line and operation', async () => {
    const dir = projectCopy();
    writeFileSync(path.join(dir, 'queries/broken.graphql'), 'query Broken {\n  events {\n    nope\n  }\n}\n');
    const result = await runScript(dir);
    expect(result.stdout).toMatch(/^Persisted documents \(queries\/\*\.graphql\): 1 problems;/m);
    expect(result.stdout).toMatch(/^ {2}queries\/broken\.graphql:3:5 {2}query Broken: Cannot query field "nope" on type "EventConnection"\.$/m);
    expect(result.stdout).toMatch(/^schema:check failed: 1 persisted-document problem\(s\)/m);
    expect(result.code).toBe(1);
  });

  it('fails when a field a trusted document selects is removed, through a fragment of another file', async () => {
    const dir = projectCopy();
    edit(dir, 'CHANGELOG.md', announceBreaking('`Event.ticketsURL`'));
    edit(dir, 'schema.graphql', (s) => s.replace(/\n {2}"[^"\n]*"\n {2}ticketsURL: String\n/, '\n'));
    const result = await runScript(dir);
    // queries/changes.graphql spreads EventDetailFields of queries/event-detail.graphql.
    expect(result.stdout).toMatch(/^ {2}queries\/event-detail\.graphql:\d+:\d+ {2}query Changes: Cannot query field "ticketsURL" on type "Event"\.$/m);
    expect(result.stdout).toMatch(/^ {2}queries\/event-detail\.graphql:\d+:\d+ {2}query EventDetail: Cannot query field "ticketsURL" on type "Event"\.$/m);
    expect(result.code).toBe(1);
  });
});

describe('npm run release', () => {
  it('moves Unreleased under the version with its date, copies the schema as released, and sets the version', async () => {
    const dir = projectCopy('repository');
    const unreleased = readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8').split('## [Unreleased]\n')[1]!.split('\n## [0.1.0]')[0]!;
    const result = await runScript(dir, 'release', ['0.2.0', '--date', '2026-12-01']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const changelog = readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(`## [Unreleased]\n\n## [0.2.0] - 2026-12-01\n${unreleased}\n## [0.1.0] - 2026-11-25\n`);
    expect(readFileSync(path.join(dir, 'schema/released.graphql'), 'utf8')).toBe(readFileSync(path.join(dir, 'schema.graphql'), 'utf8'));
    expect((JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version).toBe('0.2.0');
    const lock = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as { version: string; packages: Record<string, { version?: string }> };
    expect([lock.version, lock.packages['']?.version]).toEqual(['0.2.0', '0.2.0']);

    // The released schema is now the baseline: nothing changed since.
    const check = await runScript(dir);
    expect(check.stdout).toMatch(/\): none$/m);
    expect(check.code).toBe(0);
    // Nothing left to release.
    const again = await runScript(dir, 'release', ['0.2.1', '--date', '2026-12-02']);
    expect(again.stderr).toMatch(/nothing under "## \[Unreleased\]" in CHANGELOG\.md: nothing to release/);
    expect(again.code).toBe(1);
  });

  it('refuses a version that is not newer, not semver, or a schema with an unannounced breaking change, changing nothing', async () => {
    const dir = projectCopy();
    const before = readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8');
    expect((await runScript(dir, 'release', ['0.1.0'])).stderr).toMatch(/0\.1\.0 is not newer than 0\.1\.0/);
    expect((await runScript(dir, 'release', ['next'])).stderr).toMatch(/one version, major\.minor\.patch, is needed, got next/);
    edit(dir, 'schema.graphql', (s) => s.replace('  "Payment method for registration, or null."\n  paymentMethod: String\n', ''));
    const breaking = await runScript(dir, 'release', ['0.2.0']);
    expect(breaking.stderr).toMatch(/BREAKING +Event\.paymentMethod/);
    expect(breaking.stderr).toMatch(/release: schema:check fails/);
    expect(breaking.code).toBe(1);
    expect(readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8')).toBe(before);
    expect(readFileSync(path.join(dir, 'schema/released.graphql'), 'utf8')).not.toBe(readFileSync(path.join(dir, 'schema.graphql'), 'utf8'));
  });
});
