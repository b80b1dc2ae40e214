import type { EventQuery } from '../../domain/event-query.js';

/** A query's window in ms, each bound open where the query gives none. */
export interface WindowBounds {
  /** The later of `fromDate` and now: a date counts while it has not ended then (a date that has ended is never listed). */
  notEndedAt: number;
  /** `fromStartDate`: a date counts when it starts then or later (-Infinity without). */
  fromStart: number;
  /** `untilDate` or a `when` preset's end: a date counts when it starts before (+Infinity without). */
  until: number;
}

export function windowBounds(q: EventQuery): WindowBounds {
  return {
    notEndedAt: Math.max(q.from.getTime(), q.now.getTime()),
    fromStart: q.fromStart ? q.fromStart.getTime() : Number.NEGATIVE_INFINITY,
    until: q.until ? q.until.getTime() : Number.POSITIVE_INFINITY,
  };
}
