import { parseArgs } from 'node:util';
import { clockFrom, readConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/open-database.js';
import { generateDemoCalendar } from '../import/demo-calendar.js';
import { importCalendar, ImportValidationError } from '../import/import-calendar.js';
import { formatImportSummary, progressReporter } from './import.js';

const USAGE =
  'Usage: calendar seed [--events N] [--seed S] [--replace]\n' +
  '  --events N  number of demo events (default 2000)\n' +
  '  --seed S    random seed; the same seed on the same day gives the same calendar (default 1)\n' +
  '  --replace   remove the events the demo calendar does not list\n';

function wholeNumber(name: string, value: string, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) > max) throw new Error(`--${name} must be a whole number from 0 to ${max}, got "${value}"`);
  return Number(value);
}

/** `calendar seed`: generates the demo calendar around today and loads it through the import. */
export async function runSeed(args: string[]): Promise<number> {
  let events: number;
  let seed: number;
  let replace: boolean;
  try {
    const { values } = parseArgs({
      args,
      options: {
        events: { type: 'string', default: '2000' },
        seed: { type: 'string', default: '1' },
        replace: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    });
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    events = wholeNumber('events', values.events, 1_000_000);
    seed = wholeNumber('seed', values.seed, 0xffffffff);
    replace = values.replace;
  } catch (error) {
    process.stderr.write(`calendar seed: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }

  const config = readConfig();
  // CALENDAR_NOW fixes "today" too, so a seeded database matches a fixed service clock.
  const today = clockFrom(config)();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.CALENDAR_DATA_DIR, schema: config.DATABASE_SCHEMA });
  try {
    await migrateToLatest(database.db);
    const started = performance.now();
    const calendar = generateDemoCalendar({ events, seed, today });
    const generated = performance.now();
    process.stdout.write(`Generated ${events} demo events (seed ${seed}) in ${((generated - started) / 1000).toFixed(1)} s.\n`);
    const summary = await importCalendar(database.db, calendar, { replace, onProgress: progressReporter() });
    process.stdout.write(formatImportSummary(summary, performance.now() - generated));
    process.stdout.write(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
    return 0;
  } catch (error) {
    // The demo calendar can clash with stored data, e.g. a venue slug another venue already has.
    if (!(error instanceof ImportValidationError)) throw error;
    process.stderr.write(`calendar seed: the demo calendar was not imported (the database is unchanged):\n`);
    for (const problem of error.problems) process.stderr.write(`${problem}\n`);
    return 1;
  } finally {
    await database.close();
  }
}
