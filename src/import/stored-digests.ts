import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { storedDigests } from '../db/repositories/event-changes.js';
import { earlierEventDigest, eventDigest } from './event-digest.js';
import { readImportTimestamp, type CalendarEvent } from './import-format.js';
import type { StoredDigest } from '../db/repositories/event-changes.js';
import type { WaitingEvent } from './waiting-events.js';

/**
 * A batch of listed events sorted against what the database holds, by change digest
 * (event-digest.ts): the rows of an event whose digest equals the stored one are what writing it
 * again would give, so it is not written at all. Its rows, its dates' ids and its place in the change
 * log stay as they are, and a whole feed imported again costs one digest lookup per batch plus the
 * events that differ (issue 54). A digest an earlier release stored that equals the record's digest
 * in that form is the same record too: it is rewritten in the current form, version kept. The
 * timestamps the digest leaves out are compared with the stored ones.
 */
export interface ComparedBatch {
  /** New and changed events, to be written, with their digests. */
  write: WaitingEvent[];
  digests: { id: string; hash: string }[];
  added: number;
  changed: number;
  unchanged: number;
  /** Unchanged events whose stored digest is of an earlier form: rewritten, their version kept. */
  rewritten: { id: string; hash: string }[];
}

export async function compareWithStored(trx: Transaction<Database>, batch: readonly WaitingEvent[]): Promise<ComparedBatch> {
  const compared: ComparedBatch = { write: [], digests: [], added: 0, changed: 0, unchanged: 0, rewritten: [] };
  const stored = await storedDigests(
    trx,
    batch.filter((e) => e.stored).map((e) => e.event.id),
  );
  for (const waiting of batch) {
    const hash = eventDigest(waiting.event);
    const before = stored.get(waiting.event.id);
    const same = before !== undefined && (before.hash === hash || earlierEventDigest(waiting.event, before.hash) === before.hash) && sameLeftOut(waiting.event, before);
    if (same) {
      compared.unchanged++;
      if (before.hash !== hash) compared.rewritten.push({ id: waiting.event.id, hash });
    } else {
      if (waiting.stored) compared.changed++;
      else compared.added++;
      compared.write.push(waiting);
      compared.digests.push({ id: waiting.event.id, hash });
    }
  }
  return compared;
}

/**
 * What the digest leaves out, compared with what is stored: a timestamp the file gives must be the stored
 * one (one it leaves out keeps it); the categories must be the stored list (a retirement rewrites it).
 */
function sameLeftOut(event: CalendarEvent, stored: StoredDigest): boolean {
  const same = (given: string | undefined, kept: Date) => given === undefined || readImportTimestamp(given)!.getTime() === kept.getTime();
  return (
    same(event.created_at, stored.createdAt) &&
    same(event.updated_at, stored.updatedAt) &&
    event.categories.length === stored.categories.length &&
    event.categories.every((category, i) => category === stored.categories[i])
  );
}
