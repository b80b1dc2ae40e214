/**
 * The service writes `YYYY-MM-DD HH:mm:ss±HH:MM`: a space, not `T`, between date and time, and the
 * offset valid in Oslo on that date (spec, Date and time rules 1–2). Strict RFC 3339 parsers,
 * `Date` included, need the `T`, so the space is replaced; the offset keeps the instant exact.
 */
const SERVICE_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** Reads a service timestamp into the instant it names. Throws a RangeError on anything else. */
export function parseServiceTimestamp(value: string): Date {
  const match = SERVICE_TIMESTAMP.exec(value.trim());
  if (!match) throw new RangeError(`Not a service timestamp (YYYY-MM-DD HH:mm:ss±HH:MM): ${JSON.stringify(value)}`);
  const [, date, time, offset] = match as unknown as [string, string, string, string];
  const instant = new Date(`${date}T${time}${normalizeOffset(offset)}`);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Not a valid date or time: ${JSON.stringify(value)}`);
  return instant;
}

/** `+01`, `+0100` and `+01:00` name the same offset; `Date` reliably reads only the last and `Z`. */
function normalizeOffset(offset: string): string {
  if (offset.toUpperCase() === 'Z') return 'Z';
  const digits = offset.slice(1).replace(':', '');
  return `${offset[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}
