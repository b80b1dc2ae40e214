import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { readConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/open-database.js';
import { importCalendar, ImportValidationError, type ImportSummary } from '../import/import-calendar.js';

const USAGE = 'Usage: calendar import FILE [--replace]\n  --replace  remove the events the file does not list\n';

/** `Imported …` line of `calendar import` and `calendar seed`. */
export function formatImportSummary(summary: ImportSummary, milliseconds: number): string {
  const parts = [
    `${summary.categories} categories`,
    `${summary.venues} venues`,
    `${summary.organizers} organizers`,
    `${summary.events} events (${summary.occurrences} dates)`,
    `${summary.apiKeys} API keys`,
  ];
  const extra = [
    summary.removedEvents > 0 ? `removed ${summary.removedEvents} events not in the file` : null,
    summary.retiredCategories > 0 ? `retired ${summary.retiredCategories} categories` : null,
  ].filter((p): p is string => p !== null);
  const seconds = (milliseconds / 1000).toFixed(1);
  return `Imported ${parts.join(', ')}${extra.length > 0 ? `; ${extra.join('; ')}` : ''} in ${seconds} s.\n`;
}

/** Progress on stderr, once per written batch; small files finish in one batch and print none. */
export function progressReporter(): (done: number, total: number) => void {
  return (done, total) => {
    if (total > 2_000) process.stderr.write(`imported ${done}/${total} events\n`);
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `calendar import FILE [--replace]`: validates the whole file, then loads it in one transaction. */
export async function runImport(args: string[]): Promise<number> {
  let replace: boolean;
  let file: string;
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { replace: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
      allowPositionals: true,
    });
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const [first, ...rest] = positionals;
    if (first === undefined || rest.length > 0) throw new Error(first === undefined ? 'missing FILE' : `unexpected argument "${rest[0]}"`);
    file = first;
    replace = values.replace;
  } catch (error) {
    process.stderr.write(`calendar import: ${errorMessage(error)}\n${USAGE}`);
    return 2;
  }

  let input: unknown;
  try {
    input = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `cannot be read (${errorMessage(error)})`;
    process.stderr.write(`calendar import: ${file} ${reason}\n`);
    return 1;
  }

  const config = readConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.CALENDAR_DATA_DIR, schema: config.DATABASE_SCHEMA });
  try {
    await migrateToLatest(database.db);
    const started = performance.now();
    const summary = await importCalendar(database.db, input, { replace, onProgress: progressReporter() });
    process.stdout.write(formatImportSummary(summary, performance.now() - started));
    return 0;
  } catch (error) {
    if (!(error instanceof ImportValidationError)) throw error;
    const count = error.problems.length;
    process.stderr.write(`calendar import: ${file} was not imported, ${count} problem${count === 1 ? '' : 's'} (the database is unchanged):\n`);
    for (const problem of error.problems) process.stderr.write(`${problem}\n`);
    return 1;
  } finally {
    await database.close();
  }
}
