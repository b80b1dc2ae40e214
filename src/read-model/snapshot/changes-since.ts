import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * What the versions after a snapshot's changed, by the change log (`event_changes`): events written
 * with a new content (added, edited, or shown differently through a venue or organizer the import
 * changed) and events removed (tombstones). One row per event id holds its last change, so each event
 * counts once however many versions touched it.
 */
export interface ChangesSince {
  /** The snapshot's version the changes are counted from. */
  since: string;
  changedEvents: number;
  removedEvents: number;
}

/**
 * The changes after version `since`, read in `trx` (the build's own consistent view, so that they are
 * exactly what lies between the two snapshots). One range of `event_changes_version_idx`.
 */
export async function readChangesSince(trx: Transaction<Database>, since: string): Promise<ChangesSince> {
  const { rows } = await sql<{ changed: string | number; removed: string | number }>`
    select count(*) filter (where not removed) as changed, count(*) filter (where removed) as removed
    from event_changes where version > ${since}::bigint
  `.execute(trx);
  return { since, changedEvents: Number(rows[0]?.changed ?? 0), removedEvents: Number(rows[0]?.removed ?? 0) };
}
