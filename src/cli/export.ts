import { open, rename, rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type { ExportSummary } from '../export/export-calendar.js';
import { defineCommand } from './command.js';
import { UsageError } from './command-line.js';
import { withMigratedDatabase } from './with-migrated-database.js';

/** Progress lines are printed for calendars of at least this many events, at every multiple of it. */
const PROGRESS_STEP = 10_000;

function formatExportSummary(summary: ExportSummary, milliseconds: number): string {
  const parts = [
    `${summary.categories} categories`,
    `${summary.retiredCategories} retired categories`,
    `${summary.venues} venues`,
    `${summary.organizers} organizers`,
    `${summary.events} events (${summary.dates} dates)`,
  ];
  return `Exported ${parts.join(', ')} in ${(milliseconds / 1000).toFixed(1)} s.\n`;
}

function progressReporter(): (done: number, total: number) => void {
  let reported = 0;
  return (done, total) => {
    if (total < PROGRESS_STEP) return;
    const step = Math.floor(done / PROGRESS_STEP);
    if (step > reported || done === total) {
      reported = step;
      process.stderr.write(`exported ${done}/${total} events\n`);
    }
  };
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `calendar export [FILE]`: the stored calendar as an import file, on stdout or into FILE. */
export const exportCommand = defineCommand({
  name: 'export',
  summary: 'write the stored calendar as an import file (stdout or FILE)',
  operands: '[FILE]',
  description: `
Writes the whole calendar in the import format (docs/import-format.md): categories, retired
categories, venues, organizers and every event with all its dates, one record per line, read in
one consistent snapshot. Without FILE (or with "-") the file goes to stdout and the summary to
stderr; with FILE it is written beside FILE and renamed into place when complete, so FILE is
never left half written. Importing the file into an empty database and exporting again gives the
same bytes.

API keys are not exported: only their hashes are stored, and the import format carries keys in
clear. Register them again where the file is imported ("calendar keys add --key").`,
  options: {},
  parse: (line) => {
    const extra = line.operands[1];
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    const file = line.operands[0];
    return { file: file === undefined || file === '-' ? undefined : file };
  },
  async run({ file }) {
    const { exportCalendar } = await import('../export/export-calendar.js');
    // Into FILE through a partial file beside it, renamed when complete.
    const partial = file === undefined ? undefined : `${file}.partial-${process.pid}`;
    let out: Writable = process.stdout;
    if (partial !== undefined) {
      try {
        out = (await open(partial, 'wx')).createWriteStream({ flush: true });
      } catch (error) {
        process.stderr.write(`calendar export: cannot write ${file} (${reason(error)})\n`);
        return 1;
      }
    }
    // A write failure (a full disk, a reader that went away: `calendar export | head`) is reported
    // by the stream's 'error' event; with a listener it fails the export instead of the process.
    let writeError: Error | undefined;
    const onError = (error: Error) => (writeError ??= error);
    out.on('error', onError);
    try {
      const summary = await withMigratedDatabase(async ({ db }) => {
        const started = performance.now();
        const summary = await exportCalendar(db, out, { onProgress: progressReporter() });
        return { summary, milliseconds: performance.now() - started };
      });
      if (partial !== undefined) {
        out.end();
        await finished(out);
        await rename(partial, file!);
      }
      if (writeError) throw writeError;
      // stdout holds the file: the summary goes with the progress, to stderr.
      (file === undefined ? process.stderr : process.stdout).write(formatExportSummary(summary.summary, summary.milliseconds));
      if (summary.summary.apiKeysLeftOut > 0) {
        process.stderr.write(
          `calendar export: ${summary.summary.apiKeysLeftOut} API keys are not in the file (only their hashes are stored); register them again with "calendar keys add --key".\n`,
        );
      }
      return 0;
    } catch (error) {
      const cause = writeError ?? error;
      if ((cause as NodeJS.ErrnoException).syscall !== 'write') throw error;
      const target = file ?? 'stdout';
      process.stderr.write(`calendar export: writing ${target} failed (${reason(cause)}); the export is incomplete.\n`);
      return 1;
    } finally {
      out.off('error', onError);
      if (partial !== undefined) {
        out.destroy();
        await rm(partial, { force: true });
      }
    }
  },
});
