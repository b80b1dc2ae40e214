import { sql, type RawBuilder } from 'kysely';

/*
 * A full build in segments (issue 54; docs/performance.md "A base in segments"): the events split by a
 * hash of their id, each segment a snapshot of its own, built one after another, so that what one build
 * holds at once is one segment's transients, and a compaction reads one segment again at a time
 * (read-model.ts). Below the target size the build is one segment: exactly the single snapshot of
 * before, at its costs.
 */

/**
 * Which events a read takes: all (null), those of a delta (`ids`), or those of segment `segment` of `of`
 * (a power of two): the events whose id's `hashtextextended(id, 0)` has those low bits. PostgreSQL's hash
 * keeps segments even whatever the ids look like, and one more bit splits a segment in two.
 */
export type EventSelection = { ids: readonly string[] } | { segment: number; of: number };

/** An event id column (a trusted identifier) as SQL reads it where segments are decided. */
type IdColumn = 'e.id' | 'o.event_id' | 'se.id' | 'near.id' | 'event_id';

/** The segment of the id in `column` in a build of `segmentMask` + 1 segments (0 for one segment). */
export function segmentOfId(column: IdColumn, segmentMask: number): RawBuilder<number> {
  return sql<number>`(hashtextextended(${sql.ref(column)}, 0) & ${segmentMask}::bigint)::int`;
}

/** The condition on an event id column that selects `selection`. */
export function selectedEvents(column: IdColumn, selection: EventSelection): RawBuilder<boolean> {
  if ('ids' in selection) return sql<boolean>`${sql.ref(column)} = any(${selection.ids}::text[])`;
  return sql<boolean>`${segmentOfId(column, selection.of - 1)} = ${selection.segment}`;
}

/** Segments a full build is made of: the least power of two that keeps each at `target` events or fewer (1 without a target). */
export function segmentCount(events: number, target: number | null): number {
  if (target === null || !(events > target)) return 1;
  let count = 1;
  while (events / count > target && count < MOST_SEGMENTS) count *= 2;
  return count;
}

/** More segments than this cost every request more than a compaction's memory is worth (docs/performance.md). */
export const MOST_SEGMENTS = 64;
