import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';

/**
 * Scratch marks per snapshot for the walk in listing order and for marking the events of a few
 * venues or runs (no walk yields, so one set serves all): `walkScratch` gives them with a fresh stamp.
 */
export interface WalkScratch {
  stamp: number;
  /** Stamp of the walk that judged the event's event-level conditions; the verdict in `passes`. */
  judged: Uint32Array;
  passes: Uint8Array;
  /** Stamp of the walk that made a node of the event; that node's Oslo day in `day`. */
  noded: Uint32Array;
  day: Int32Array;
}

/** Per snapshot (keyed by it, gone with it): walks of one snapshot share its marks, other snapshots have their own. */
const scratches = new WeakMap<CalendarSnapshot, WalkScratch>();

export function walkScratch(snapshot: CalendarSnapshot): WalkScratch {
  const events = snapshot.eventIds.length;
  let scratch = scratches.get(snapshot);
  if (!scratch) {
    scratch = { stamp: 0, judged: new Uint32Array(events), passes: new Uint8Array(events), noded: new Uint32Array(events), day: new Int32Array(events) };
    scratches.set(snapshot, scratch);
  }
  if (scratch.stamp === 0xffffffff) {
    scratch.stamp = 0;
    scratch.judged.fill(0);
    scratch.noded.fill(0);
  }
  scratch.stamp++;
  return scratch;
}
