import { open, type FileHandle } from 'node:fs/promises';
import type { ImportProgress, ImportSummary } from '../import/import-calendar.js';
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
  const { addedEvents, changedEvents, unchangedEvents, removedEvents } = summary;
  const extra = [
    // What the import did with the events: a whole feed imported again writes only what differs.
    summary.events > 0 || removedEvents > 0
      ? `events ${addedEvents} added, ${changedEvents} changed, ${unchangedEvents} unchanged, ${removedEvents} removed${removedEvents > 0 ? ' (not in the file)' : ''}`
      : null,
    summary.retiredCategories > 0 ? `retired ${summary.retiredCategories} categories` : null,
  ].filter((p): p is string => p !== null);
  const seconds = (milliseconds / 1000).toFixed(1);
  return `Imported ${parts.join(', ')}${extra.length > 0 ? `; ${extra.join('; ')}` : ''} in ${seconds} s.\n`;
}

/**
 * Progress on stderr, once per written batch; small files finish in one batch and print none. A
 * file is read as a stream, so its number of events is only known at its end.
 */
export function progressReporter(): ImportProgress {
  return (done, total) => {
    if (total === undefined) {
      if (done > 2_000) process.stderr.write(`imported ${done} events\n`);
    } else if (total > 2_000) process.stderr.write(`imported ${done}/${total} events\n`);
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
Loads a calendar file (JSON, docs/import-format.md) in one transaction, reading it as a stream.
The whole file is checked: any problem is printed as "json.path: message", the exit status is 1
and nothing is written.`,
  options: {
    replace: { description: 'remove the events the file does not list' },
  },
  parse: (line) => {
    const [file] = exactOperands(line, ['FILE']);
    return { file: file!, replace: flag(line, 'replace') };
  },
  async run({ file, replace }) {
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      process.stderr.write(`calendar import: ${file} cannot be read (${errorMessage(error)})\n`);
      return 1;
    }
    try {
      const { importCalendarParts, ImportValidationError } = await import('../import/import-calendar.js');
      const { readCalendarFile, CalendarFileError } = await import('../import/read-calendar-file.js');
      return await withMigratedDatabase(async (database) => {
        try {
          const started = performance.now();
          const summary = await importCalendarParts(database, readCalendarFile(handle), { replace, onProgress: progressReporter() });
          process.stdout.write(formatImportSummary(summary, performance.now() - started));
          return 0;
        } catch (error) {
          // Found while streaming, possibly at the very end; the transaction was rolled back.
          if (error instanceof CalendarFileError) {
            const reason = error.reason === 'invalidJson' ? 'is not valid JSON' : 'cannot be read';
            process.stderr.write(`calendar import: ${file} ${reason} (${error.message}); the database is unchanged\n`);
            return 1;
          }
          if (!(error instanceof ImportValidationError)) throw error;
          const count = error.problems.length;
          process.stderr.write(`calendar import: ${file} was not imported, ${count} problem${count === 1 ? '' : 's'} (the database is unchanged):\n`);
          for (const problem of error.problems) process.stderr.write(`${problem}\n`);
          return 1;
        }
      });
    } finally {
      await handle.close();
    }
  },
});
