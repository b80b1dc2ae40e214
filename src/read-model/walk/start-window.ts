import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { firstWhere } from '../first-where.js';
import type { WindowBounds } from './window-bounds.js';

/**
 * The positions [from, to) of the dates starting in [fromStart, until) among `ranks`, positions of the
 * listing order ascending (a venue's run of it), or, without, among the listing order itself.
 */
export function startWindow(snapshot: CalendarSnapshot, ranks: Uint32Array | null, { fromStart, until }: Pick<WindowBounds, 'fromStart' | 'until'>): [number, number] {
  const length = ranks ? ranks.length : snapshot.dateCount;
  return [fromStart === Number.NEGATIVE_INFINITY ? 0 : firstStartingAt(snapshot, ranks, fromStart), until === Number.POSITIVE_INFINITY ? length : firstStartingAt(snapshot, ranks, until)];
}

/** The first of those positions whose date starts at or after `t` (their number when none does). */
export function firstStartingAt(snapshot: CalendarSnapshot, ranks: Uint32Array | null, t: number): number {
  const { dateOrder, dateStart } = snapshot;
  if (!ranks) return firstWhere(0, dateOrder.length, (rank) => !(dateStart[dateOrder[rank]!]! < t));
  return firstWhere(0, ranks.length, (p) => !(dateStart[dateOrder[ranks[p]!]!]! < t));
}
