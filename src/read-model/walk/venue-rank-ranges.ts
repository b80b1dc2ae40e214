import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { startWindow } from './start-window.js';
import type { WindowBounds } from './window-bounds.js';

/**
 * Each allowed venue's positions in the listing order of its dates that start in [fromStart, until)
 * (ascending runs of `venueDateRanks`, not copied); null when they are most of the dates (over half),
 * where walking every date costs no more.
 */
export function venueRankRanges(snapshot: CalendarSnapshot, allowed: Uint8Array, bounds: WindowBounds): Uint32Array[] | null {
  const { offsets, values } = snapshot.venueDateRanks;
  const ranges: Uint32Array[] = [];
  let total = 0;
  for (let v = 0; v < allowed.length; v++) {
    if (allowed[v] !== 1) continue;
    const own = values.subarray(offsets[v], offsets[v + 1]);
    const [from, to] = startWindow(snapshot, own, bounds);
    if (to <= from) continue;
    ranges.push(own.subarray(from, to));
    total += to - from;
    if (total > snapshot.dateCount >> 1) return null;
  }
  return ranges;
}
