import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';

/** Where a record read for several layers goes: the layer and its own number of the record there. */
export interface LayerOwner {
  snapshot: CalendarSnapshot;
  index: number;
}

/**
 * The records asked per layer (numbers in each layer), by the id a statement reads them with: one
 * statement for the layers of one version, each row handed to every layer that asked for it (one,
 * unless a caller asks a masked event's copy too).
 */
export function ownersById<Id>(byLayer: ReadonlyMap<CalendarSnapshot, readonly number[]>, idOf: (snapshot: CalendarSnapshot, index: number) => Id): Map<Id, LayerOwner[]> {
  const owners = new Map<Id, LayerOwner[]>();
  for (const [snapshot, indexes] of byLayer) {
    for (const index of indexes) {
      const id = idOf(snapshot, index);
      const own = owners.get(id);
      if (own) own.push({ snapshot, index });
      else owners.set(id, [{ snapshot, index }]);
    }
  }
  return owners;
}
