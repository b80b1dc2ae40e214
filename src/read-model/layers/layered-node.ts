import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import type { FacetCount } from '../walk/result-page.js';

/** A node of a layered answer: an event and its promoted date, numbered in the layer holding them. */
export interface LayeredNode {
  snapshot: CalendarSnapshot;
  event: number;
  date: number;
}

/** Listing order across layers: by start, then event id (code-unit order, as event numbers follow), then date id. */
export function listedBefore(a: CalendarSnapshot, aEvent: number, aDate: number, b: CalendarSnapshot, bEvent: number, bDate: number): boolean {
  const aStart = a.dateStart[aDate]!;
  const bStart = b.dateStart[bDate]!;
  if (aStart !== bStart) return aStart < bStart;
  const aId = a.eventIds[aEvent]!;
  const bId = b.eventIds[bEvent]!;
  if (aId !== bId) return aId < bId;
  return a.dateId[aDate]! < b.dateId[bDate]!;
}

/** Ranked facet lists (one per layer) as one: hits added by id, most first, ties by id; ranked once. */
export function mergedFacet(...lists: readonly (readonly FacetCount[])[]): FacetCount[] {
  const hits = new Map<string, number>();
  for (const list of lists) for (const { id, hits: n } of list) hits.set(id, (hits.get(id) ?? 0) + n);
  const merged: FacetCount[] = [];
  for (const [id, n] of hits) if (n > 0) merged.push({ id, hits: n });
  return merged.sort((x, y) => y.hits - x.hits || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}
