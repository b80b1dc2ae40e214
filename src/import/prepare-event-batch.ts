import { sql, type RawBuilder } from 'kysely';
import { EVENT_COLUMNS, eventRows, OCCURRENCE_COLUMNS, type EventRows } from './event-rows.js';
import type { CalendarEvent } from './import-format.js';
import { insertJsonRows } from './insert-json-rows.js';

/** The statements that write one batch of events, and what they write. */
export interface PreparedBatch {
  statements: RawBuilder<unknown>[];
  events: number;
  occurrences: number;
}

/**
 * Every statement that writes one batch of events, their links and their dates; built in memory
 * only, so that it can run while the database still writes the previous batch.
 */
export function prepareEventBatch(batch: readonly { event: CalendarEvent; stored: boolean }[]): PreparedBatch {
  const rows = batch.map((e) => ({ rows: eventRows(e.event), stored: e.stored }));
  const statements: RawBuilder<unknown>[] = [];
  // New events are plainly inserted: ON CONFLICT makes PostgreSQL check each row twice, a third of
  // the cost of a large first load. Stored ones are upserted, keeping the timestamps the file leaves
  // out, so rows go in groups by which they give.
  const groups = new Map<string, { stored: boolean; rows: EventRows[] }>();
  for (const { rows: row, stored } of rows) {
    const key = `${stored}/${row.keepsCreatedAt}/${row.keepsUpdatedAt}`;
    const group = groups.get(key);
    if (group) group.rows.push(row);
    else groups.set(key, { stored, rows: [row] });
  }
  for (const { stored, rows: group } of groups.values()) {
    const first = group[0];
    if (!first) continue;
    const updated = EVENT_COLUMNS.filter(
      (c) => c !== 'id' && !(c === 'created_at' && first.keepsCreatedAt) && !(c === 'updated_at' && first.keepsUpdatedAt),
    );
    statements.push(
      ...insertJsonRows('events', EVENT_COLUMNS, group.map((r) => r.event), {
        select: {
          // Folded in SQL, so that the stored text matches the database's own unaccent used by searches.
          search_text: sql`calendar_fold(r.search_text)`,
          created_at: sql`coalesce(r.created_at, now())`,
          updated_at: sql`coalesce(r.updated_at, now())`,
        },
        ...(stored ? { onConflict: sql`on conflict (id) do update set ${sql.join(updated.map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`))}` } : {}),
      }),
    );
  }
  // An event's categories, organizers and dates are replaced as a whole.
  const stored = batch.filter((e) => e.stored).map((e) => e.event.id);
  if (stored.length > 0) {
    for (const table of ['event_categories', 'event_organizers', 'occurrences'] as const) {
      statements.push(sql`delete from ${sql.table(table)} where event_id = any(${stored}::text[])`);
    }
  }
  const categoryRows = batch.flatMap(({ event: e }) => e.categories.map((category_id, position) => ({ event_id: e.id, category_id, position })));
  statements.push(...insertJsonRows('event_categories', ['event_id', 'category_id', 'position'], categoryRows));
  const organizerRows = batch.flatMap(({ event: e }) => e.organizers.map((organizer_id, position) => ({ event_id: e.id, organizer_id, position })));
  statements.push(...insertJsonRows('event_organizers', ['event_id', 'organizer_id', 'position'], organizerRows));
  const occurrenceRows = rows.flatMap((r) => r.rows.occurrences);
  statements.push(...insertJsonRows('occurrences', OCCURRENCE_COLUMNS, occurrenceRows));
  return { statements, events: batch.length, occurrences: occurrenceRows.length };
}
