import type { CalendarSnapshot, SnapshotCatalogue } from '../snapshot/calendar-snapshot.js';
import { eventIndexOf } from '../snapshot/calendar-snapshot.js';
import type { StaleInBase } from './catalogue-changes.js';
import type { SnapshotChangeLog } from '../snapshot/snapshot-change-log.js';

/**
 * A full build: the calendar read whole, as one snapshot per segment (segments/event-segments.ts: the
 * events split by a hash of their id; one segment below the target size); every event is in exactly
 * one of them. Read in one view, the segments share one version; a compaction then rebuilds them one at
 * a time (read-model.ts, `compactSegments`), each at the version of its own rebuild: each segment's
 * `version`, `occurrencesUpTo`, catalogue and clock (`suggestions.publishingHorizon`) are its own.
 */
export interface FullBuild {
  /** The newest version a segment was read at. */
  version: string;
  segments: readonly CalendarSnapshot[];
  /** The change log as of `logVersion` (every row of `event_changes` at that version). */
  changeLog: SnapshotChangeLog;
  logVersion: string;
  /** The newest segment's catalogue. */
  catalogue: SnapshotCatalogue;
}

/**
 * One data version as layers (issue 42, docs/performance.md "Fresh at any size"): the last full build
 * (`full`, untouched, shared by every version until the next full build), a mask of its events that
 * later versions changed or removed, and a `delta`: a small CalendarSnapshot of the changed events'
 * current records, built by the same code as a full build (load-snapshot.ts, `loadLayeredSnapshot`),
 * with the full build's clock, and its catalogue numbering unless the catalogue changed since (then the
 * newest catalogue's, the layers meeting by id: catalogue-changes.ts). Every event of the version is in exactly one
 * layer: unmasked in one of the `bases`, or in `delta`.
 *
 * The mask rides the path the closed forms and walks already take for events unpublished at now:
 * a base is a view of a segment whose masked events are published at +Infinity (unpublished at every
 * instant), with `publishedLate` listing them first, so that `countPublished` takes them off with count
 * indexes of their own (`unpublishedCountIndexes`, built once per view) and every walk's event
 * condition refuses them. Only `eventPublishing` and `publishedLate` are copied; every other column is
 * the segment's.
 */
export interface LayeredSnapshot {
  /** `calendar_state.version` of this version (the bases' and the delta's `version` too). */
  version: string;
  /** The last full build, untouched. */
  full: FullBuild;
  /** Each segment of `full` with its mask applied (the segments themselves for a full build), in the segments' order. */
  bases: readonly CalendarSnapshot[];
  /** How many events of each base are masked: the first ones of its `walk.publishedLate`. */
  maskedIn: readonly number[];
  /** The changed events' current records; null for a full build. */
  delta: CalendarSnapshot | null;
  /** How many of the bases' events are masked, in all. */
  masked: number;
  changeLog: SnapshotChangeLog;
  /** The version's catalogue (the delta's when it has one; the bases keep the full build's). */
  catalogue: SnapshotCatalogue;
  /**
   * Per base, when the catalogue changed since its segment was read (catalogue-changes.ts): the segment's entries of
   * venues, organizers and categories that changed or left it, all of whose events are masked. Null: the same catalogue.
   */
  staleInBases: readonly (StaleInBase | null)[];
}

/** The segments of one data version read whole, as a full build (`segments` non-empty, of that version). */
export function fullBuildOf(segments: readonly CalendarSnapshot[]): FullBuild {
  const first = segments[0]!;
  return { version: first.version, segments, changeLog: first.changeLog, logVersion: first.version, catalogue: first.catalogue };
}

/**
 * `full` with segment `index` rebuilt (`segment`, read at the newest version) and the change log as of that
 * version, which every segment then refers to: a segment kept with the log of its own build would hold that
 * log (~17 MB at 1 000 000 events) for as long as it serves.
 */
export function withSegmentRebuilt(full: FullBuild, index: number, segment: CalendarSnapshot, changeLog: SnapshotChangeLog): FullBuild {
  const segments = full.segments.map((kept, i) => (i === index ? segment : { ...kept, changeLog }));
  return { version: segment.version, segments, changeLog, logVersion: segment.version, catalogue: segment.catalogue };
}

/** The oldest version a segment of the build was read at (the build's version when it was read whole). */
export function oldestSegmentVersion(full: FullBuild): string {
  return full.segments.reduce((oldest, segment) => (BigInt(segment.version) < BigInt(oldest) ? segment.version : oldest), full.version);
}

/**
 * A full build as a layered snapshot: its segments as they are, nothing masked. Of a build whose segments
 * were read at different versions, the oldest: only layering the newest version on it (loadLayeredSnapshot)
 * brings the older segments' events up to date.
 */
export function fullLayers(full: FullBuild): LayeredSnapshot {
  return {
    version: oldestSegmentVersion(full),
    full,
    bases: full.segments,
    maskedIn: full.segments.map(() => 0),
    delta: null,
    masked: 0,
    changeLog: full.changeLog,
    catalogue: full.catalogue,
    staleInBases: full.segments.map(() => null),
  };
}

/** One snapshot read whole (one segment) as a layered snapshot. */
export function singleSnapshotLayers(snapshot: CalendarSnapshot): LayeredSnapshot {
  return fullLayers(fullBuildOf([snapshot]));
}

/** Events of the full build, in all its segments. */
export function fullBuildEvents(full: FullBuild): number {
  return full.segments.reduce((events, segment) => events + segment.eventIds.length, 0);
}

/** Dates of the full build, in all its segments. */
export function fullBuildDates(full: FullBuild): number {
  return full.segments.reduce((dates, segment) => dates + segment.dateCount, 0);
}

/** Whether the layers are a full build as it was built (no delta, nothing masked). */
export function isFullBuild(layers: LayeredSnapshot): boolean {
  return layers.bases === layers.full.segments;
}

/**
 * A segment as a base of a newer version: the `masked` events (event numbers of `segment`, ascending, each
 * once) unpublished at every instant, its version and change log the newer version's.
 */
export function maskedBase(segment: CalendarSnapshot, masked: Uint32Array, version: string, changeLog: SnapshotChangeLog): CalendarSnapshot {
  // Nothing masked: the segment's columns as they are (only the version and its log are the newer version's).
  if (masked.length === 0) return { ...segment, version, changeLog };
  const eventPublishing = segment.eventPublishing.slice();
  const isMasked = new Uint8Array(segment.eventIds.length);
  for (const event of masked) {
    eventPublishing[event] = Number.POSITIVE_INFINITY;
    isMasked[event] = 1;
  }
  // The latest-published first (walk-indexes.ts): the masked ones (+Infinity, ties by number), then the rest as they were.
  const before = segment.walk.publishedLate;
  let kept = 0;
  for (const event of before) if (isMasked[event] === 0) kept++;
  const publishedLate = new Uint32Array(masked.length + kept);
  publishedLate.set(masked);
  let at = masked.length;
  for (const event of before) if (isMasked[event] === 0) publishedLate[at++] = event;
  return { ...segment, version, changeLog, eventPublishing, walk: { ...segment.walk, publishedLate } };
}

/** Where an event of the version is: the delta's when it holds it, else its segment's base (masked ones are unpublished there). */
export interface LayeredEvent {
  snapshot: CalendarSnapshot;
  event: number;
}

/** The layer and number of an event by id; null when no layer holds it. */
export function layeredEventOf(layers: LayeredSnapshot, eventId: string): LayeredEvent | null {
  if (layers.delta) {
    const event = eventIndexOf(layers.delta, eventId);
    if (event >= 0) return { snapshot: layers.delta, event };
  }
  for (const base of layers.bases) {
    const event = eventIndexOf(base, eventId);
    if (event >= 0) return { snapshot: base, event };
  }
  return null;
}

/** Every layer of the version: the bases, then the delta when there is one. */
export function layersOf(layers: LayeredSnapshot): CalendarSnapshot[] {
  return layers.delta ? [...layers.bases, layers.delta] : [...layers.bases];
}
