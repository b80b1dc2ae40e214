import type { EventQuery } from '../../domain/event-query.js';
import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import type { WordMatch } from '../search/search-matches.js';
import { allowedVenues } from './allowed-venues.js';
import { dateCondition } from './date-condition.js';
import { eventCondition } from './event-condition.js';
import { windowBounds } from './window-bounds.js';

/**
 * How many nodes an event has under a query, telling `onNode` each node's date: none when it fails the
 * event-level conditions; else its first date that satisfies every date-level condition and search
 * word, or, grouping by day, its first such date of each Oslo day. The rule of the full walk's inner
 * loop as a function of one event (every-node.ts keeps it inline for speed, and says what it measured),
 * and what `suggest` counts its hits with (suggestions.ts): test/api/suggest.test.ts holds every hit to
 * `events`' totalCount.
 */
export type EventNodes = (event: number, onNode?: (date: number) => void) => number;

/**
 * The EventNodes of a query. `venues`: the allowed venues (allowedVenues of the query, the default), or
 * a narrower set a caller adds a venue condition with.
 */
export function eventNodes(snapshot: CalendarSnapshot, query: EventQuery, words: readonly WordMatch[], venues: Uint8Array | null = allowedVenues(snapshot, query)): EventNodes {
  const datePasses = dateCondition(snapshot, query, words, venues);
  const eventPasses = eventCondition(snapshot, query);
  const groupByDay = query.groupByDay;
  const { until } = windowBounds(query);
  const { eventDateOffsets, dateDay, dateStart } = snapshot;
  return (event, onNode) => {
    const first = eventDateOffsets[event]!;
    const end = eventDateOffsets[event + 1]!;
    if (first === end || !eventPasses(event)) return 0;
    let nodes = 0;
    let day = Number.NaN;
    for (let i = first; i < end; i++) {
      // An event's dates are stored by start: none after this one starts before `untilDate` (or a
      // `when` window's end), so a long series is not walked to its end for a window it has left.
      if (dateStart[i]! >= until) break;
      if (groupByDay && dateDay[i] === day) continue;
      if (!datePasses(i, event)) continue;
      nodes++;
      onNode?.(i);
      if (!groupByDay) break;
      day = dateDay[i]!;
    }
    return nodes;
  };
}
