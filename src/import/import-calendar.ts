import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/open-database.js';
import { nextDataVersion } from '../db/repositories/event-changes.js';
import { CalendarLoader } from './calendar-loader.js';
import { calendarParts, type CalendarParts } from './calendar-parts.js';
import { CalendarWriter, type ImportSummary } from './calendar-writer.js';
import { forgetImportTimestamps } from './import-format.js';
import { readStartState } from './read-start-state.js';

export type { ImportSummary } from './calendar-writer.js';
export { ImportValidationError } from './import-problems.js';

/** Called after each batch of events is written; `total` when the source knows it ahead. */
export type ImportProgress = (done: number, total: number | undefined) => void;

/**
 * Where an import goes: the database, and the announcement of its commit to the read models of this
 * process that read it (a DatabaseHandle is one).
 */
export type ImportTarget = Pick<DatabaseHandle, 'db' | 'committedImports'>;

export interface ImportOptions {
  /** Remove the events the file does not list. @default false */
  replace?: boolean;
  /** Called after each batch of events is written; `total` is the length of the events section. */
  onProgress?: (done: number, total: number) => void;
}

export interface StreamedImportOptions {
  /** Remove the events the file does not list. @default false */
  replace?: boolean;
  /** Called after each batch of events is written; `total` only when the source knows it ahead. */
  onProgress?: ImportProgress;
}

/**
 * Validates a calendar held in memory completely (shape, references against the calendar and the
 * database, retired ids), then writes it in one transaction. Any problem: ImportValidationError,
 * nothing written. A section may be any iterable (the demo calendar's events are generated lazily).
 */
export function importCalendar(target: ImportTarget, input: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
  const { onProgress } = options;
  // An iterable without a length (none of ours) has its total counted as it goes.
  const progress: ImportProgress | undefined = onProgress && ((done, total) => onProgress(done, total ?? done));
  return importCalendarParts(target, calendarParts(input), { ...options, onProgress: progress });
}

/**
 * Loads a calendar as it streams in (`readCalendarFile`): each record is checked when it arrives
 * and written in batches, all in ONE transaction that commits only after the last part was read
 * and the whole calendar passed its checks. Any problem, an error of the source (a file cut short)
 * included: the transaction is rolled back and the database is exactly as it was.
 *
 * Imports of one schema run one after another: each takes a transaction-scoped advisory lock
 * first, so that its checks read the database as its writes will find it.
 */
export async function importCalendarParts(target: ImportTarget, parts: CalendarParts, options: StreamedImportOptions = {}): Promise<ImportSummary> {
  const replace = options.replace ?? false;
  try {
    const summary = await target.db.transaction().execute(async (trx) => {
      // An import runs as long as its file needs: the API's statement timeout is for reads.
      await sql`set local statement_timeout = 0`.execute(trx);
      // Per schema: imports into other schemas of the same database (tests, benchmarks) do not wait.
      await sql`select pg_advisory_xact_lock(hashtext('calendar import ' || current_schema()))`.execute(trx);
      const start = await readStartState(trx);
      const changeVersion = await nextDataVersion(trx);
      const { onProgress } = options;
      // The events list tells its length (when the source knows it ahead) only once it begins.
      let eventsTotal: number | undefined;
      const writer = new CalendarWriter(trx, {
        heldRows: start.heldRows,
        replace,
        changeVersion,
        onEventsWritten: onProgress && ((written) => onProgress(written, eventsTotal)),
      });
      const loader = new CalendarLoader(trx, start, writer, { replace, onEventsList: (length) => (eventsTotal = length) });
      try {
        for await (const part of parts) await loader.take(part);
        return await writer.finish(loader.end());
      } catch (error) {
        // No statement of ours may still run when the transaction rolls back.
        await writer.settle();
        throw error;
      }
    });
    // Read models of this process see the import at once (other processes by NOTIFY or their poll).
    await target.committedImports.announce();
    return summary;
  } finally {
    forgetImportTimestamps();
  }
}
