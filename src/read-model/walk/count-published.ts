import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { unpublishedCountIndexes, type CountIndexes } from '../snapshot/walk-indexes.js';

/**
 * A closed form's count over the events published at now, every count being a sum over events: every
 * event's (`countOver` the snapshot's indexes, sign 1), less the `unpublished` ones' (the first of
 * `publishedLate`, over count indexes of their own, sign -1), plus the events those indexes cover that
 * were published since they were built, counted back one by one (`countEvent`). `countOver` adds `sign`
 * times each facet's count into the request's hits; `countEvent` an event's own.
 */
export function countPublished(
  snapshot: CalendarSnapshot,
  unpublished: number,
  countOver: (indexes: CountIndexes, sign: 1 | -1) => number,
  countEvent: (event: number) => number,
): number {
  const walk = snapshot.walk;
  let count = countOver(walk, 1);
  if (unpublished > 0) {
    const { indexes, covered } = unpublishedCountIndexes(snapshot, walk, unpublished);
    count -= countOver(indexes, -1);
    for (let k = unpublished; k < covered; k++) count += countEvent(walk.publishedLate[k]!);
  }
  return count;
}
