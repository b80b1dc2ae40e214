import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/open-database.js';

/** Every table an import writes. */
export const CALENDAR_TABLES = ['categories', 'retired_categories', 'venues', 'organizers', 'events', 'event_categories', 'event_organizers', 'occurrences', 'api_keys'] as const;

/** Every row of every calendar table, in a stable order; occurrence ids (a sequence) left out. */
export async function dumpCalendarTables(handle: DatabaseHandle): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of CALENDAR_TABLES) {
    const result = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(handle.db);
    out[table] = result.rows
      .map(({ id, ...row }) => (table === 'occurrences' ? row : { id, ...row }))
      .map((row) => JSON.stringify(row))
      .sort();
  }
  return out;
}
