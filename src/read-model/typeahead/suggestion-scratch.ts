import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';

/**
 * Per snapshot (keyed by it, gone with it), marks over its label ranks for the matching of several
 * words, and over its events for remembering an event's nodes within one request. Stamped, never
 * cleared between requests: a request uses them without yielding (suggest is synchronous once its
 * search words are read).
 */
export interface Scratch {
  stamp: number;
  mark: Uint32Array;
  inner: Uint8Array;
  countedAt: Uint32Array;
  counted: Uint32Array;
}

const scratches = new WeakMap<CalendarSnapshot, Scratch>();

export function scratchFor(snapshot: CalendarSnapshot): Scratch {
  let scratch = scratches.get(snapshot);
  if (!scratch) {
    const events = snapshot.eventIds.length;
    const ranks = snapshot.suggestions.eventOfRank.length;
    scratch = {
      stamp: 0,
      mark: new Uint32Array(ranks),
      inner: new Uint8Array(ranks),
      countedAt: new Uint32Array(events),
      counted: new Uint32Array(events),
    };
    scratches.set(snapshot, scratch);
  }
  return scratch;
}

/** `count` fresh stamps, the first returned. */
export function stamps(scratch: Scratch, count: number): number {
  if (scratch.stamp + count >= 0xffffffff) {
    scratch.stamp = 0;
    scratch.mark.fill(0);
    scratch.countedAt.fill(0);
  }
  const first = scratch.stamp + 1;
  scratch.stamp += count;
  return first;
}
