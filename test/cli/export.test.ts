import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unpackTemplate } from '../support/migrated-data-dir.js';
import { TEST_NODE_FLAGS } from '../support/node-flags.js';
import { BIN, cliEnv, runCalendar, type Run } from './calendar-process.js';

const calendarFile = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [{ id: 'V-BLAA', slug: 'blaa', name: 'Blå', municipality: 'Oslo' }],
  events: [
    {
      id: 'E-2',
      slug: 'jazz-pa-blaa',
      title_nb: 'Jazz på Blå',
      categories: ['CONCERT'],
      venue: 'V-BLAA',
      created_at: '2026-10-01T09:00:00+02:00',
      updated_at: '2026-10-01T09:00:00+02:00',
      dates: [{ start: '2026-12-01T20:00:00+01:00' }, { start: '2026-12-02T20:00:00+01:00', soldOut: true }],
    },
    {
      id: 'E-1',
      slug: 'quiz',
      title_nb: 'Quiz',
      created_at: '2026-10-01T09:00:00+02:00',
      updated_at: '2026-10-01T09:00:00+02:00',
      dates: [{ start: '2026-12-03T19:00:00+01:00' }],
    },
  ],
  apiKeys: [{ key: 'hsk_cli_export_test_0001', application: 'Widget' }],
};

/** The export of `calendarFile`, byte for byte: what the file format's canonical layout demands. */
const expectedExport = `{
  "categories": [
    {"id":"CONCERT","name_nb":"Konsert","name_en":"Concert","slug_nb":"konsert","slug_en":"concert"}
  ],
  "retiredCategories": [],
  "venues": [
    {"id":"V-BLAA","slug":"blaa","name":"Blå","municipality":"Oslo"}
  ],
  "organizers": [],
  "events": [
    {"id":"E-1","slug":"quiz","title_nb":"Quiz","dates":[{"start":"2026-12-03T19:00:00+01:00"}],"created_at":"2026-10-01T09:00:00+02:00","updated_at":"2026-10-01T09:00:00+02:00"},
    {"id":"E-2","slug":"jazz-pa-blaa","title_nb":"Jazz på Blå","categories":["CONCERT"],"venue":"V-BLAA","dates":[{"start":"2026-12-01T20:00:00+01:00"},{"start":"2026-12-02T20:00:00+01:00","soldOut":true}],"created_at":"2026-10-01T09:00:00+02:00","updated_at":"2026-10-01T09:00:00+02:00"}
  ]
}
`;

const SUMMARY = /^Exported 1 categories, 0 retired categories, 1 venues, 0 organizers, 2 events \(3 dates\) in \d+\.\d s\.\n$/;
const KEYS_NOTE = 'calendar export: 1 API keys are not in the file (only their hashes are stored); register them again with "calendar keys add --key".\n';

// Process starts are slow on a busy machine (each opens and migrates the embedded database).
describe('calendar export (the CLI as a process)', { timeout: 180_000 }, () => {
  let dir: string;
  let dataDir: string;
  const calendar = (args: string[], data = dataDir): Promise<Run> => runCalendar(args, { CALENDAR_DATA_DIR: data, LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'calendar-export-'));
    // Migrated already (the run's template): the import is what is tested, not a first start (the
    // round trip below imports into another empty one; cli.test.ts imports into an empty folder).
    dataDir = await unpackTemplate(join(dir, 'data'));
    await writeFile(join(dir, 'calendar.json'), JSON.stringify(calendarFile));
    const imported = await calendar(['import', join(dir, 'calendar.json')]);
    expect(imported.code, imported.stderr).toBe(0);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes FILE with the summary on stdout, and says the keys are left out', async () => {
    const file = join(dir, 'export.json');
    const run = await calendar(['export', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(SUMMARY);
    expect(run.stderr).toBe(KEYS_NOTE);
    expect(await readFile(file, 'utf8')).toBe(expectedExport);
    // The partial file it wrote first was renamed into place.
    expect((await readdir(dir)).filter((name) => name.includes('.partial-'))).toEqual([]);
  });

  it('writes to stdout without FILE or with "-", the summary then on stderr', async () => {
    for (const args of [['export'], ['export', '-']]) {
      const run = await calendar(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(expectedExport);
      expect(run.stderr.replace(KEYS_NOTE, '')).toMatch(SUMMARY);
    }
  });

  it('round-trips through the CLI: import the file into an empty database, export the same bytes', async () => {
    const file = join(dir, 'export.json');
    const other = await unpackTemplate(join(dir, 'other-data'));
    const imported = await calendar(['import', file], other);
    expect(imported.code, imported.stderr).toBe(0);
    const again = await calendar(['export'], other);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(await readFile(file, 'utf8'));
    // No keys there: no note either.
    expect(again.stderr).toMatch(SUMMARY);
  });

  it('fails with status 1 and one line when FILE cannot be written, touching nothing', async () => {
    const target = join(dir, 'missing-folder', 'export.json');
    const run = await calendar(['export', target]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^calendar export: cannot write ${target.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(ENOENT: [^\\n]+\\)\\n$`));
  });

  it('stops with status 1 and says the export is incomplete when its reader goes away', async () => {
    const seeded = await unpackTemplate(join(dir, 'seeded'));
    const seed = await calendar(['seed', '--events', '3000'], seeded);
    expect(seed.code, seed.stderr).toBe(0);
    const child = spawn(process.execPath, [...TEST_NODE_FLAGS, BIN, 'export'], { env: cliEnv({ CALENDAR_DATA_DIR: seeded, LOG_LEVEL: 'silent' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let received = 0;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Like `calendar export | head -c 1000`: read a little, then close the pipe.
    child.stdout.once('data', (chunk: Buffer) => {
      received = chunk.length;
      child.stdout.destroy();
    });
    // 'close': the process has exited and its stderr has been read to the end.
    const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
    expect(received).toBeGreaterThan(0);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^calendar export: writing stdout failed \((write )?EPIPE[^\n]*\); the export is incomplete\.\n$/);
  });
});
