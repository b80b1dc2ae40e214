/** A daily time-of-day window in minutes since midnight; start inclusive, end exclusive. */
export interface HoursRange {
  /** 0..1439 */
  startMinute: number;
  /** 0..1440; 1440 (`24:00`) is the end of the day. Below `startMinute` when the window wraps past midnight. */
  endMinute: number;
}

// Strict two-digit `HH:mm-HH:mm`; `24:00` only as the end, meaning the end of the day.
const HOURS_RANGE_SHAPE = /^([01]\d|2[0-3]):([0-5]\d)-(?:([01]\d|2[0-3]):([0-5]\d)|(24):00)$/;

/**
 * Reads `HH:mm-HH:mm`. A start after the end wraps past midnight (`22:00-02:00`).
 * A start equal to the end gives null: it would be either empty or the whole day, and neither is
 * a useful filter (the whole day is spelled `00:00-24:00`).
 */
export function parseHoursRange(value: string): HoursRange | null {
  const match = HOURS_RANGE_SHAPE.exec(value);
  if (!match) return null;
  const [, startHour, startMinute, endHour, endMinute, endOfDay] = match;
  const start = Number(startHour) * 60 + Number(startMinute);
  const end = endOfDay !== undefined ? 24 * 60 : Number(endHour) * 60 + Number(endMinute);
  if (start === end) return null;
  return { startMinute: start, endMinute: end };
}

/** Whether a minute of the day falls inside the window; wrapping windows span midnight. */
export function minuteInHoursRange(minuteOfDay: number, range: HoursRange): boolean {
  if (range.startMinute < range.endMinute) {
    return minuteOfDay >= range.startMinute && minuteOfDay < range.endMinute;
  }
  return minuteOfDay >= range.startMinute || minuteOfDay < range.endMinute;
}
