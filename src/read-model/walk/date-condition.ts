import type { EventQuery } from '../../domain/event-query.js';
import { DATE_CANCELLED, DATE_SOLD_OUT, type CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import type { WordMatch } from '../search/search-matches.js';
import { allowedVenues } from './allowed-venues.js';
import { windowBounds } from './window-bounds.js';

/**
 * The date-level conditions and search words of a query, as one predicate on a date index (and its
 * event). `venues`: the allowed venues (allowedVenues of the query, the default), or a narrower set a
 * caller adds a venue condition with.
 */
export function dateCondition(
  snapshot: CalendarSnapshot,
  q: EventQuery,
  words: readonly WordMatch[],
  venues = allowedVenues(snapshot, q),
): (date: number, event: number) => boolean {
  const { notEndedAt, fromStart, until } = windowBounds(q);
  const hours = q.hoursRange;
  const startMinute = hours ? hours.startMinute : 0;
  const endMinute = hours ? hours.endMinute : 0;
  const wraps = startMinute >= endMinute;
  const excludedFlags = (q.cancelledNotIncluded ? DATE_CANCELLED : 0) | (q.soldOutNotIncluded ? DATE_SOLD_OUT : 0);
  const { dateStart, dateEnds, dateVenue, dateMinute, dateFlags } = snapshot;
  return (i, event) => {
    const start = dateStart[i]!;
    if (dateEnds[i]! <= notEndedAt || start >= until || start < fromStart) return false;
    if ((dateFlags[i]! & excludedFlags) !== 0) return false;
    if (hours) {
      const minute = dateMinute[i]!;
      if (wraps ? minute < startMinute && minute >= endMinute : minute < startMinute || minute >= endMinute) return false;
    }
    const venue = dateVenue[i]!;
    if (venues && (venue < 0 || venues[venue] !== 1)) return false;
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!;
      if (word.events[event] !== 1 && !(venue >= 0 && word.venues[venue] === 1)) return false;
    }
    return true;
  };
}
