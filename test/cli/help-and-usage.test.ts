import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCalendar, type Run } from './calendar-process.js';

// The embedded database would create this folder on first use: while it does not exist, nothing
// opened the database.
let dir: string;
let dataDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'calendar-help-'));
  dataDir = join(dir, 'data');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function calendar(args: string[]): Promise<Run> {
  const run = await runCalendar(args, { CALENDAR_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  expect(existsSync(dataDir), `calendar ${args.join(' ')} opened the database`).toBe(false);
  return run;
}

/** Every command and action, with the synopsis its help starts with (a whole line, but for the group). */
const commands: [words: string[], synopsis: string][] = [
  [['serve'], 'Usage: calendar serve\n'],
  [['migrate'], 'Usage: calendar migrate\n'],
  [['import'], 'Usage: calendar import FILE [--replace]\n'],
  [['export'], 'Usage: calendar export [FILE]\n'],
  [['seed'], 'Usage: calendar seed [--events N] [--seed S] [--replace]\n'],
  [['keys'], 'Usage:\n  calendar keys add --application NAME [--key hsk_...]'],
  [['keys', 'add'], 'Usage: calendar keys add --application NAME [--key hsk_...]\n'],
  [['keys', 'revoke'], 'Usage: calendar keys revoke KEY_OR_PREFIX\n'],
  [['keys', 'list'], 'Usage: calendar keys list\n'],
  [['usage'], 'Usage: calendar usage [--days N] [--callers] [--top N] [--deprecated] [--json]\n'],
];

describe('calendar --help', { timeout: 120_000 }, () => {
  it('lists every command, for --help and help alike, with status 0', async () => {
    const help = await calendar(['--help']);
    expect(help.code).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout.split('\n')[0]).toBe('Usage: calendar <command> [options]');
    const listed = help.stdout.split('\n').filter((line) => /^ {2}\w/.test(line)).map((line) => line.trim().split(/\s+/)[0]);
    expect(listed).toEqual(['serve', 'migrate', 'import', 'export', 'seed', 'keys', 'usage', 'help']);
    expect(await calendar(['help'])).toEqual(help);
    expect(await calendar(['-h'])).toEqual(help);
  });

  for (const [words, synopsis] of commands) {
    it(`answers calendar ${words.join(' ')} --help, and help ${words.join(' ')}, without opening the database`, async () => {
      const help = await calendar([...words, '--help']);
      expect(help.code).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout.startsWith(synopsis)).toBe(true);
      expect(await calendar([...words, '-h'])).toEqual(help);
      expect(await calendar(['help', ...words])).toEqual(help);
    });
  }

  it('prefers --help to the other arguments on the line', async () => {
    const help = await calendar(['seed', '--help']);
    expect(await calendar(['seed', '--events', '-5', '--bogus', '--help'])).toEqual(help);
  });
});

/** Arguments and the first line the command must print on stderr. */
const badArguments: [args: string[], message: string, usage: string][] = [
  [['seed', '--events', '-5'], 'calendar seed: --events must be a whole number from 0 to 1000000, got "-5"', 'Usage: calendar seed '],
  [['seed', '--events', '1.5'], 'calendar seed: --events must be a whole number from 0 to 1000000, got "1.5"', 'Usage: calendar seed '],
  [['seed', '--events=1000001'], 'calendar seed: --events must be a whole number from 0 to 1000000, got "1000001"', 'Usage: calendar seed '],
  [['seed', '--seed', 'x'], 'calendar seed: --seed must be a whole number from 0 to 4294967295, got "x"', 'Usage: calendar seed '],
  [['seed', '--events'], 'calendar seed: --events needs a value (N)', 'Usage: calendar seed '],
  [['seed', '--events', '--replace'], 'calendar seed: --events needs a value (N)', 'Usage: calendar seed '],
  [['seed', '--replace=yes'], 'calendar seed: --replace takes no value', 'Usage: calendar seed '],
  [['seed', '--events', '5', '--events', '6'], 'calendar seed: --events is given twice', 'Usage: calendar seed '],
  [['seed', '50'], 'calendar seed: unexpected argument "50"', 'Usage: calendar seed '],
  [['seed', '-e', '5'], 'calendar seed: unknown option -e', 'Usage: calendar seed '],
  [['migrate', '--force'], 'calendar migrate: unknown option --force', 'Usage: calendar migrate\n'],
  [['migrate', 'now'], 'calendar migrate: unexpected argument "now"', 'Usage: calendar migrate\n'],
  [['serve', '--port', '80'], 'calendar serve: unknown option --port', 'Usage: calendar serve\n'],
  [['import'], 'calendar import: missing FILE', 'Usage: calendar import FILE'],
  [['import', 'a.json', 'b.json'], 'calendar import: unexpected argument "b.json"', 'Usage: calendar import FILE'],
  [['import', 'a.json', '--dry-run'], 'calendar import: unknown option --dry-run', 'Usage: calendar import FILE'],
  [['export', 'a.json', 'b.json'], 'calendar export: unexpected argument "b.json"', 'Usage: calendar export [FILE]'],
  [['export', '--gzip'], 'calendar export: unknown option --gzip', 'Usage: calendar export [FILE]'],
  [['keys'], 'calendar keys: missing action', '  calendar keys add --application NAME'],
  [['keys', 'rotate'], 'calendar keys: unknown action "rotate"', '  calendar keys add --application NAME'],
  [['keys', 'add'], 'calendar keys add: --application NAME is required', 'Usage: calendar keys add '],
  [['keys', 'add', '--application', ''], 'calendar keys add: --application must not be empty', 'Usage: calendar keys add '],
  [['keys', 'add', '--application', 'App', '--key', 'secret'], 'calendar keys add: --key: an API key starts with "hsk_" and has no spaces', 'Usage: calendar keys add '],
  [['keys', 'revoke'], 'calendar keys revoke: missing KEY_OR_PREFIX', 'Usage: calendar keys revoke '],
  [['keys', 'list', '--all'], 'calendar keys list: unknown option --all', 'Usage: calendar keys list\n'],
  [['usage', '--days', '0'], 'calendar usage: --days must be a whole number from 1 to 3660, got "0"', 'Usage: calendar usage '],
  [['usage', '--json=1'], 'calendar usage: --json takes no value', 'Usage: calendar usage '],
  [[], 'calendar: missing command', 'Usage: calendar <command>'],
  [['frobnicate'], 'calendar: unknown command "frobnicate"', 'Usage: calendar <command>'],
  [['--verbose'], 'calendar: unknown option --verbose', 'Usage: calendar <command>'],
  [['help', 'frobnicate'], 'calendar help: unknown command "frobnicate"', 'Usage: calendar <command>'],
];

describe('calendar with a bad argument', { timeout: 120_000 }, () => {
  for (const [args, message, usage] of badArguments) {
    it(`calendar ${args.map((a) => (a === '' ? "''" : a)).join(' ')}: status 2, "${message}" and the usage`, async () => {
      const run = await calendar(args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n')[0]).toBe(message);
      expect(run.stderr).toContain(usage);
    });
  }
});
