import { readFile } from 'node:fs/promises';
import type { ImportSummary } from '../import/import-calendar.js';
import { defineCommand } from './command.js';
import { exactOperands, flag } from './command-line.js';
import { withMigratedDatabase } from './with-migrated-database.js';

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
export const importCommand = defineCommand({
  name: 'import',
  summary: 'load a calendar file (see docs/import-format.md)',
  operands: 'FILE',
  description: `
Loads a calendar file (JSON, docs/import-format.md) in one transaction. The whole file is
checked first: any problem is printed as "json.path: message", the exit status is 1 and nothing
is written.`,
  options: {
    replace: { description: 'remove the events the file does not list' },
  },
  parse: (line) => {
    const [file] = exactOperands(line, ['FILE']);
    return { file: file!, replace: flag(line, 'replace') };
  },
  async run({ file, replace }) {
    let input: unknown;
    try {
      input = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      const reason = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `cannot be read (${errorMessage(error)})`;
      process.stderr.write(`calendar import: ${file} ${reason}\n`);
      return 1;
    }
    const { importCalendar, ImportValidationError } = await import('../import/import-calendar.js');
    return withMigratedDatabase(async (db) => {
      try {
        const started = performance.now();
        const summary = await importCalendar(db, input, { replace, onProgress: progressReporter() });
        process.stdout.write(formatImportSummary(summary, performance.now() - started));
        return 0;
      } catch (error) {
        if (!(error instanceof ImportValidationError)) throw error;
        const count = error.problems.length;
        process.stderr.write(`calendar import: ${file} was not imported, ${count} problem${count === 1 ? '' : 's'} (the database is unchanged):\n`);
        for (const problem of error.problems) process.stderr.write(`${problem}\n`);
        return 1;
      }
    });
  },
});
