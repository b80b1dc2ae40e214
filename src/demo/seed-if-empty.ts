import { demoCalendar } from './demo-calendar.js';
import { importCalendar, type ImportSummary, type ImportTarget } from '../import/import-calendar.js';

export interface SeedIfEmptyOptions {
  /** Number of demo events; 0 seeds nothing. */
  events: number;
  /** Dates are generated around this day. */
  today: Date;
  /** @default 1 */
  seed?: number;
}

/**
 * Seeds the demo calendar into a database without events, so a fresh start has something to show.
 * A database that holds any event is never seeded over: returns null and writes nothing.
 */
export async function seedDemoCalendarIfEmpty(target: ImportTarget, options: SeedIfEmptyOptions): Promise<ImportSummary | null> {
  if (options.events <= 0) return null;
  const existing = await target.db.selectFrom('events').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  return importCalendar(target, demoCalendar({ events: options.events, seed: options.seed ?? 1, today: options.today }));
}
