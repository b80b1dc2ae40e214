import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCalendar, type Run } from './calendar-process.js';

/**
 * The CLI as a process, on an embedded database in `dataDir`. Each start costs a few seconds
 * (PGlite boots and migrates), so the steps share one data directory and run in order.
 */
function calendar(dataDir: string, args: string[]): Promise<Run> {
  return runCalendar(args, { CALENDAR_DATA_DIR: dataDir });
}

const goodFile = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [{ id: 'V-BLAA', slug: 'kjelleren-pa-blaa', name: 'Kjelleren på Blå', municipality: 'Oslo' }],
  events: [{ id: 'E-1', slug: 'jazz-pa-blaa', title_nb: 'Jazz på Blå', categories: ['CONCERT'], venue: 'V-BLAA', dates: [{ start: '2026-12-01T20:00:00+01:00' }] }],
};

const badFile = {
  ...goodFile,
  colour: 'red',
  events: [{ ...goodFile.events[0], venue: 'V-NOWHERE', dates: [{ start: '2026-12-01T20:00:00' }] }],
};

// Process starts are slow on a busy machine: a generous timeout per step.
describe('calendar CLI', { timeout: 180_000 }, () => {
  let dir: string;
  let dataDir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'calendar-cli-'));
    dataDir = join(dir, 'data');
    await writeFile(join(dir, 'good.json'), JSON.stringify(goodFile));
    await writeFile(join(dir, 'bad.json'), JSON.stringify(badFile));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('rejects a bad file with exit 1 and one line per problem on stderr', async () => {
    const run = await calendar(dataDir, ['import', join(dir, 'bad.json')]);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines.slice(1)).toEqual([
      'colour: unknown key',
      'events[0].dates[0].start: timestamp needs an explicit offset',
      'events[0].venue: unknown venue "V-NOWHERE"',
    ]);
    expect(lines[0]).toContain('the database is unchanged');
  });

  it('reports a file it cannot read or parse with exit 1', async () => {
    await writeFile(join(dir, 'broken.json'), '{"events": [');
    const run = await calendar(dataDir, ['import', join(dir, 'broken.json')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('broken.json is not valid JSON');
  });

  it('imports a good file with exit 0 and a summary', async () => {
    const run = await calendar(dataDir, ['import', join(dir, 'good.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Imported 1 categories, 1 venues, 0 organizers, 1 events \(1 dates\), 0 API keys; events 1 added, 0 changed, 0 unchanged, 0 removed in \d+\.\d s\.\n$/);
  });

  it('says what an import did with the events: the same file again is all unchanged, an edit is one changed', async () => {
    const again = await calendar(dataDir, ['import', join(dir, 'good.json')]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('1 events (1 dates), 0 API keys; events 0 added, 0 changed, 1 unchanged, 0 removed in ');
    const good = JSON.parse(await readFile(join(dir, 'good.json'), 'utf8')) as { events: { title_nb: string }[] };
    good.events[0]!.title_nb = 'Endret tittel';
    await writeFile(join(dir, 'edited.json'), JSON.stringify(good));
    const edited = await calendar(dataDir, ['import', join(dir, 'edited.json')]);
    expect(edited.stdout).toContain('; events 0 added, 1 changed, 0 unchanged, 0 removed in ');
  });

  it('migrates: nothing left to apply on a database the import already migrated', async () => {
    const run = await calendar(dataDir, ['migrate']);
    expect(run).toEqual({ code: 0, signal: null, stdout: 'The schema is up to date.\n', stderr: '' });
  });

  it('seeds the demo calendar', async () => {
    const run = await calendar(dataDir, ['seed', '--events', '50']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Generated 50 demo events (seed 1)');
    expect(run.stdout).toContain(', 50 events (');
  });

  it('adds, lists and revokes a key, showing the key once', async () => {
    const added = await calendar(dataDir, ['keys', 'add', '--application', 'Bølgen widget']);
    expect(added.code).toBe(0);
    const key = added.stdout.trim();
    expect(key).toMatch(/^hsk_[A-Za-z0-9_-]{32}$/);

    const revoked = await calendar(dataDir, ['keys', 'revoke', key.slice(0, 8)]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`Revoked key ${key.slice(0, 8)}… of "Bølgen widget".\n`);

    const listed = await calendar(dataDir, ['keys', 'list']);
    expect(listed.code).toBe(0);
    const [header, row, ...rest] = listed.stdout.trim().split('\n');
    expect(header?.split(/\s{2,}/)).toEqual(['PREFIX', 'APPLICATION', 'REVOKED', 'CREATED']);
    expect(row?.split(/\s{2,}/).slice(0, 3)).toEqual([key.slice(0, 8), 'Bølgen widget', 'yes']);
    expect(rest).toEqual([]);
    expect(listed.stdout).not.toContain(key);
  });
});
