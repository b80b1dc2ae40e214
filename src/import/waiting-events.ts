import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { CalendarEvent } from './import-format.js';
import { WRITE_BATCH } from './write-batch.js';

/** An event ready to be written once the end of the file is reached. */
export interface WaitingEvent {
  event: CalendarEvent;
  /** The database held an event with this id before the import. */
  stored: boolean;
}

/**
 * Events whose venue or organizer may still come later in the file wait in a temporary table
 * until the end (the foreign keys would reject them now): in the database rather than in memory,
 * however many a file that lists its events first makes wait.
 */
export class WaitingEvents {
  private parked = 0;

  constructor(private readonly trx: Transaction<Database>) {}

  async park(events: readonly WaitingEvent[]): Promise<void> {
    if (this.parked === 0) {
      // Dropped with the transaction, committed or not.
      await sql`create temporary table calendar_import_waiting (position integer primary key, stored boolean not null, event text not null) on commit drop`.execute(this.trx);
    }
    const positions = events.map((_, i) => this.parked + i);
    await sql`
      insert into calendar_import_waiting (position, stored, event)
      select * from unnest(${positions}::integer[], ${events.map((e) => e.stored)}::boolean[], ${events.map((e) => JSON.stringify(e.event))}::text[])
    `.execute(this.trx);
    this.parked += events.length;
  }

  /** The events that waited, in file order, a batch at a time. */
  async *batches(): AsyncGenerator<WaitingEvent[]> {
    for (let from = 0; from < this.parked; from += WRITE_BATCH) {
      const rows = await sql<{ stored: boolean; event: string }>`
        select stored, event from calendar_import_waiting
        where position >= ${from} and position < ${from + WRITE_BATCH} order by position
      `.execute(this.trx);
      yield rows.rows.map((r) => ({ event: JSON.parse(r.event) as CalendarEvent, stored: r.stored }));
    }
  }
}
