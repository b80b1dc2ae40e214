import { parseServiceTimestamp } from './parse-service-timestamp.js';

/**
 * A key for one occurrence: `id` plus start instant. One event keeps its `id` across all its dates,
 * and `groupRepetitionsByDay` returns the same `id` once per day, so `id` alone collides in lists
 * (spec, Date and time rule 6). The start is keyed as an instant so that equal moments written
 * differently still match.
 */
export function occurrenceKey(occurrence: { id: string; startDate: string }): string {
  return `${occurrence.id}@${parseServiceTimestamp(occurrence.startDate).toISOString()}`;
}
