import { formatOslo } from './format-oslo.js';
import { parseServiceTimestamp } from './parse-service-timestamp.js';

/** The fields of an event or repetition that say when it ends. */
export interface TimedOccurrence {
  startDate: string;
  endDate?: string | null | undefined;
  duration?: number | null | undefined;
}

/**
 * When an occurrence ends, or null when it has no end time. The spec has no `endTime`: "derive it
 * from `endDate` ... or from `startTime + duration`" (Date and time rule 4). An `endDate` equal to
 * `startDate` means "no end time", so the duration is tried next. Adding minutes to the start
 * instant, not to the wall clock, stays right on DST nights (01:30 + 60 min on 29 March is 03:30).
 */
export function eventEnd(occurrence: TimedOccurrence): Date | null {
  const start = parseServiceTimestamp(occurrence.startDate);
  if (occurrence.endDate) {
    const end = parseServiceTimestamp(occurrence.endDate);
    if (end.getTime() > start.getTime()) return end;
  }
  const minutes = occurrence.duration;
  if (minutes != null && Number.isFinite(minutes) && minutes > 0) return new Date(start.getTime() + minutes * 60_000);
  return null;
}

/** The end as Oslo wall-clock `HH:mm`, or null without an end time. */
export function eventEndTime(occurrence: TimedOccurrence): string | null {
  const end = eventEnd(occurrence);
  return end ? formatOslo(end, 'time') : null;
}
