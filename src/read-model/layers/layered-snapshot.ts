import type { CalendarSnapshot, SnapshotCatalogue } from '../snapshot/calendar-snapshot.js';
import { eventIndexOf } from '../snapshot/calendar-snapshot.js';
import type { StaleInBase } from './catalogue-changes.js';
import type { SnapshotChangeLog } from '../snapshot/snapshot-change-log.js';

/**
 * One data version as layers (issue 42, docs/performance.md "Fresh at any size"): the last full build
 * (`full`, untouched, shared by every version until the next full build), a mask of its events that
 * later versions changed or removed, and a `delta`: a small CalendarSnapshot of the changed events'
 * current records, built by the same code as a full build (load-snapshot.ts, `loadLayeredSnapshot`),
 * with the full build's clock, and its catalogue numbering unless the catalogue changed since (then the
 * newest catalogue's, the layers meeting by id: catalogue-changes.ts). Every event of the version is in exactly one
 * layer: unmasked in `base`, or in `delta`.
 *
 * The mask rides the path the closed forms and walks already take for events unpublished at now:
 * `base` is a view of `full` whose masked events are published at +Infinity (unpublished at every
 * instant), with `publishedLate` listing them first, so that `countPublished` takes them off with count
 * indexes of their own (`unpublishedCountIndexes`, built once per view) and every walk's event
 * condition refuses them. Only `eventPublishing` and `publishedLate` are copied; every other column is
 * the full build's.
 */
export interface LayeredSnapshot {
  /** `calendar_state.version` of this version (the base's and the delta's `version` too). */
  version: string;
  /** The last full build, untouched. */
  full: CalendarSnapshot;
  /** `full` with the mask applied (the full build itself when nothing is masked and no delta). */
  base: CalendarSnapshot;
  /** The changed events' current records; null for a full build. */
  delta: CalendarSnapshot | null;
  /** How many of the base's events are masked. */
  masked: number;
  changeLog: SnapshotChangeLog;
  /** The version's catalogue (the delta's when it has one; the base keeps the full build's). */
  catalogue: SnapshotCatalogue;
  /**
   * When the catalogue changed since the full build (catalogue-changes.ts): the base's entries of venues,
   * organizers and categories that changed or left it, all of whose events are masked. Null: the same catalogue.
   */
  staleInBase: StaleInBase | null;
}

/** A full build as a layered snapshot of one layer. */
export function fullLayers(snapshot: CalendarSnapshot): LayeredSnapshot {
  return { version: snapshot.version, full: snapshot, base: snapshot, delta: null, masked: 0, changeLog: snapshot.changeLog, catalogue: snapshot.catalogue, staleInBase: null };
}

/**
 * `full` as the base of a newer version: the `masked` events (event numbers of `full`, ascending, each
 * once) unpublished at every instant, its version and change log the newer version's.
 */
export function maskedBase(full: CalendarSnapshot, masked: Uint32Array, version: string, changeLog: SnapshotChangeLog): CalendarSnapshot {
  const eventPublishing = full.eventPublishing.slice();
  const isMasked = new Uint8Array(full.eventIds.length);
  for (const event of masked) {
    eventPublishing[event] = Number.POSITIVE_INFINITY;
    isMasked[event] = 1;
  }
  // The latest-published first (walk-indexes.ts): the masked ones (+Infinity, ties by number), then the rest as they were.
  const before = full.walk.publishedLate;
  let kept = 0;
  for (const event of before) if (isMasked[event] === 0) kept++;
  const publishedLate = new Uint32Array(masked.length + kept);
  publishedLate.set(masked);
  let at = masked.length;
  for (const event of before) if (isMasked[event] === 0) publishedLate[at++] = event;
  return { ...full, version, changeLog, eventPublishing, walk: { ...full.walk, publishedLate } };
}

/** Where an event of the version is: the delta's when it holds it, else the base's (masked ones are unpublished there). */
export interface LayeredEvent {
  snapshot: CalendarSnapshot;
  event: number;
}

/** The layer and number of an event by id; null when neither layer holds it. */
export function layeredEventOf(layers: LayeredSnapshot, eventId: string): LayeredEvent | null {
  if (layers.delta) {
    const event = eventIndexOf(layers.delta, eventId);
    if (event >= 0) return { snapshot: layers.delta, event };
  }
  const event = eventIndexOf(layers.base, eventId);
  return event >= 0 ? { snapshot: layers.base, event } : null;
}
