import type { EventQuery } from '../../domain/event-query.js';
import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { firstStartingAt, startWindow } from './start-window.js';
import { windowBounds } from './window-bounds.js';

/**
 * The positions [from, to) of the listing order a walk of the query's window reads: the dates starting
 * in [fromStartDate, untilDate), and under category and organizer conditions no earlier than the first
 * date starting at the lower bound less the longest date of the events those conditions allow
 * (walk-indexes.ts, `categoryLongestDate`): every date before has ended. `to` may be below `from`:
 * nothing to read.
 */
export function listingWindow(snapshot: CalendarSnapshot, q: EventQuery): { from: number; to: number } {
  const bounds = windowBounds(q);
  const [first, to] = startWindow(snapshot, null, bounds);
  const longest = longestAllowedDate(snapshot, q);
  // +Infinity: no such condition; -Infinity: no event allowed, nothing to walk.
  if (longest === Number.POSITIVE_INFINITY) return { from: first, to };
  if (longest === Number.NEGATIVE_INFINITY) return { from: snapshot.dateCount, to };
  return { from: Math.max(first, firstStartingAt(snapshot, null, bounds.notEndedAt - longest)), to };
}

/**
 * The longest date of the events the query's category and organizer conditions allow, as far as the
 * walk indexes tell (per condition, the longest of its entities'; the shortest of the conditions'):
 * +Infinity without such a condition, -Infinity when it allows no event.
 */
function longestAllowedDate(snapshot: CalendarSnapshot, q: EventQuery): number {
  const { categoryLongestDate, organizerLongestDate } = snapshot.walk;
  let longest = Number.POSITIVE_INFINITY;
  if (q.categories) {
    let under = Number.NEGATIVE_INFINITY;
    for (const key of q.categories) {
      const category = snapshot.categoryByKey.get(key);
      if (category !== undefined) under = Math.max(under, categoryLongestDate[category]!);
    }
    longest = Math.min(longest, under);
  }
  for (const slugs of q.organizerSlugSets) {
    let under = Number.NEGATIVE_INFINITY;
    for (const slug of slugs) {
      const organizer = snapshot.organizerBySlug.get(slug);
      if (organizer !== undefined) under = Math.max(under, organizerLongestDate[organizer]!);
    }
    longest = Math.min(longest, under);
  }
  return longest;
}
