import type { NodeOptions } from '../read-model/calendar-reader.js';
import { dateColumnsFor } from '../read-model/records/date-columns.js';
import { eventColumnsFor } from '../read-model/records/event-columns.js';

/**
 * How to read the nodes of a field whose Event selection is `fields` (the names selected directly
 * on the events, through fragments): their later dates only when `repetitions` is selected, and
 * only the columns the selected fields read (of the dates, only what the snapshot lacks). A page
 * of 1,000 events otherwise reads and parses every description, JSON document and timestamp of
 * each, for fields few operations select (docs/performance.md, "Only the columns the fields read").
 */
export function nodeOptionsFor(fields: ReadonlySet<string>): NodeOptions {
  const event = eventColumnsFor(fields);
  const date = dateColumnsFor(fields);
  return { repetitions: fields.has('repetitions'), columns: event && date ? { event, date } : null };
}
