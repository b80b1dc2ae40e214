import { defineCommand } from './command.js';
import { exactOperands, flag, optionText, wholeNumber } from './command-line.js';
import { formatImportSummary, progressReporter } from './import.js';
import { withMigratedDatabase } from './with-migrated-database.js';
import { DEFAULT_DEMO_EVENTS, MAX_DEMO_EVENTS } from '../demo/demo-size.js';

const MAX_SEED = 0xffffffff;

/** `calendar seed`: generates the demo calendar around today and streams it through the import. */
export const seedCommand = defineCommand({
  name: 'seed',
  summary: 'generate the demo calendar around today and import it',
  description: `
Generates the deterministic demo calendar relative to today (CALENDAR_NOW when set) and imports
it like a calendar file.`,
  options: {
    events: { value: 'N', description: `number of demo events, 0 to ${MAX_DEMO_EVENTS} (default ${DEFAULT_DEMO_EVENTS})` },
    seed: { value: 'S', description: `random seed, 0 to ${MAX_SEED}; the same seed on the same day gives the same calendar (default 1)` },
    replace: { description: 'remove the events the demo calendar does not list' },
  },
  parse: (line) => {
    exactOperands(line, []);
    return {
      events: wholeNumber('events', optionText(line, 'events', String(DEFAULT_DEMO_EVENTS)), 0, MAX_DEMO_EVENTS),
      seed: wholeNumber('seed', optionText(line, 'seed', '1'), 0, MAX_SEED),
      replace: flag(line, 'replace'),
    };
  },
  async run({ events, seed, replace }) {
    const { clockFrom } = await import('../config.js');
    const { demoCalendar } = await import('../demo/demo-calendar.js');
    const { importCalendar, ImportValidationError } = await import('../import/import-calendar.js');
    return withMigratedDatabase(async (database, config) => {
      // CALENDAR_NOW fixes "today" too, so a seeded database matches a fixed service clock.
      const today = clockFrom(config)();
      const started = performance.now();
      const calendar = demoCalendar({ events, seed, today });
      // The events are generated while they are loaded, one at a time: the time spent generating is
      // measured around each one, and the rest is the import's.
      const generating = timed(calendar.events);
      const generated = (): string => `Generated ${events} demo events (seed ${seed}) in ${(generating.milliseconds / 1000).toFixed(1)} s.\n`;
      try {
        const summary = await importCalendar(database, { ...calendar, events: generating }, { replace, onProgress: progressReporter() });
        process.stdout.write(generated());
        process.stdout.write(formatImportSummary(summary, performance.now() - started - generating.milliseconds));
        process.stdout.write(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
        return 0;
      } catch (error) {
        // The demo calendar can clash with stored data, e.g. a venue slug another venue already has.
        if (!(error instanceof ImportValidationError)) throw error;
        process.stdout.write(generated());
        process.stderr.write(`calendar seed: the demo calendar was not imported (the database is unchanged):\n`);
        for (const problem of error.problems) process.stderr.write(`${problem}\n`);
        return 1;
      }
    });
  },
});

/** An iterable that adds up the time spent producing its items; keeps `length` for progress. */
function timed<T>(items: Iterable<T> & { readonly length: number }): Iterable<T> & { readonly length: number; readonly milliseconds: number } {
  let milliseconds = 0;
  return {
    length: items.length,
    get milliseconds() {
      return milliseconds;
    },
    *[Symbol.iterator]() {
      const iterator = items[Symbol.iterator]();
      for (;;) {
        const before = performance.now();
        const next = iterator.next();
        milliseconds += performance.now() - before;
        if (next.done) return;
        yield next.value;
      }
    },
  };
}
