import { parseServiceTimestamp } from './parse-service-timestamp.js';

/** Named formats, or any Intl options (the time zone is always Europe/Oslo). */
export type OsloFormat = 'time' | 'date' | 'shortDate' | 'dateTime' | Intl.DateTimeFormatOptions;

const PRESETS: Record<Exclude<OsloFormat, Intl.DateTimeFormatOptions>, Intl.DateTimeFormatOptions> = {
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  date: { day: 'numeric', month: 'long', year: 'numeric' },
  shortDate: { weekday: 'short', day: 'numeric', month: 'short' },
  dateTime: { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
};

// Page-wide (a cache of a pure function): building an Intl.DateTimeFormat is far slower than using one;
// a list of cards reuses a handful.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let cached = formatters.get(key);
  if (!cached) {
    // Spec, Date and time rule 3: display in Europe/Oslo, never in the reader's or server's zone.
    // The zone goes last so that no caller option can replace it.
    cached = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'Europe/Oslo' });
    formatters.set(key, cached);
  }
  return cached;
}

function toInstant(value: Date | string): Date {
  return typeof value === 'string' ? parseServiceTimestamp(value) : value;
}

/**
 * Formats an instant (or a service timestamp) as Oslo wall-clock time, in the given locale.
 * @example formatOslo('2026-03-29 19:00:00+02:00', 'time') // '19:00', wherever the reader is
 */
export function formatOslo(value: Date | string, format: OsloFormat = 'dateTime', locale = 'nb-NO'): string {
  const options = typeof format === 'string' ? PRESETS[format] : format;
  return formatter(locale, options).format(toInstant(value));
}

/** The Oslo calendar date (`YYYY-MM-DD`) and wall-clock time (`HH:mm`) of an instant: for grouping by day. */
export function osloWallClock(value: Date | string): { date: string; time: string } {
  const parts: Record<string, string> = {};
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  for (const part of formatter('en-CA', options).formatToParts(toInstant(value))) parts[part.type] = part.value;
  return { date: `${parts['year']}-${parts['month']}-${parts['day']}`, time: `${parts['hour']}:${parts['minute']}` };
}
