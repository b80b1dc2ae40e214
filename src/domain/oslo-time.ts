import { DateTime, IANAZone } from 'luxon';
import { BoundedMemo } from './bounded-memo.js';

/** The calendar's time zone: every wall-clock date and time the API shows or reads is in Oslo. */
export const OSLO_ZONE_NAME = 'Europe/Oslo';

const OSLO_ZONE = IANAZone.create(OSLO_ZONE_NAME);
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Wall-clock reading of an instant in Oslo. */
export interface OsloWallClock {
  /** `YYYY-MM-DD` */
  date: string;
  /** `HH:mm` */
  time: string;
  /** Minutes since local midnight, 0..1439. */
  minuteOfDay: number;
}

const HOUR_MS = 60 * MINUTE_MS;
/**
 * Oslo's offset (minutes east of UTC) per UTC hour, for hours with one offset throughout; null for an
 * hour with a change inside. A process's answers read a few thousand hours at most.
 */
const offsetByHour = new BoundedMemo<number, number | null>(200_000);

/** Oslo's offset throughout a UTC hour, or null when it changes inside the hour. */
function hourOffsetMinutes(hour: number): number | null {
  const atStart = OSLO_ZONE.offset(hour * HOUR_MS);
  return atStart === OSLO_ZONE.offset((hour + 1) * HOUR_MS - 1) ? atStart : null;
}

/**
 * Oslo's offset at an instant. Luxon asks Intl for every instant, which costs more than the rest of
 * a response's work; the offset only changes at DST changes, which fall on a full UTC hour. So it
 * is kept per UTC hour, for every hour whose first and last millisecond share one offset (an hour
 * with a change inside, from the days of local mean time, is asked for each time).
 */
function osloOffsetMinutes(instantMs: number): number {
  return offsetByHour.remember(Math.floor(instantMs / HOUR_MS), hourOffsetMinutes) ?? OSLO_ZONE.offset(instantMs);
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * Timestamps already written, by instant. A large answer (a whole-world area: every event, each with
 * startDate and endDate) writes tens of thousands, and events mostly start and end on the hour or
 * half hour, so most are written again: one lookup instead of seven paddings and a Date (about 3 MB
 * when full).
 */
const formattedByInstant = new BoundedMemo<number, string>(40_000);

interface OsloFields {
  /** The wall-clock fields, read through the UTC getters of a Date shifted by the offset. */
  local: Date;
  offsetMinutes: number;
}

function osloFields(ms: number): OsloFields {
  // An invalid Date would otherwise surface as "NaN" in API output.
  if (Number.isNaN(ms)) throw new RangeError('Invalid Date');
  const offsetMinutes = osloOffsetMinutes(ms);
  const local = new Date(ms + offsetMinutes * MINUTE_MS);
  const year = local.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError(`Year out of range: ${year}`);
  return { local, offsetMinutes };
}

/**
 * `YYYY-MM-DD HH:mm:ss±HH:MM` in Oslo, with the offset in force at that instant
 * (+01:00 in winter, +02:00 in summer), so the string alone identifies the instant.
 */
export function formatOsloTimestamp(instant: Date): string {
  return formattedByInstant.remember(instant.getTime(), formatInstant);
}

function formatInstant(ms: number): string {
  const { local, offsetMinutes } = osloFields(ms);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = Math.abs(offsetMinutes);
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    // Whole minutes, as luxon prints the seconds of local mean time (before 1895).
    `${sign}${pad(Math.floor(offset / 60))}:${pad(Math.floor(offset % 60))}`
  );
}

/** The Oslo calendar date, clock time and minute of day of an instant. */
export function osloWallClock(instant: Date): OsloWallClock {
  const { local } = osloFields(instant.getTime());
  const hour = local.getUTCHours();
  const minute = local.getUTCMinutes();
  return {
    date: `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`,
    time: `${pad(hour)}:${pad(minute)}`,
    minuteOfDay: hour * 60 + minute,
  };
}

// Shape only; validity of the numbers is checked afterwards. Seconds are required (RFC 3339 requires
// them too). Fractions take up to 9 digits and are truncated to milliseconds, the precision of Date.
const TIMESTAMP_SHAPE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const OFFSET_SHAPE = /^([+-])(\d{2})(?::?(\d{2}))?$/;

interface LocalTimestamp {
  /** The wall-clock fields read as if they were UTC, in milliseconds; validated. */
  localMillis: number;
  /** Offset east of UTC in minutes; null when the input has none. */
  offsetMinutes: number | null;
}

function parseOffsetMinutes(offset: string): number | null {
  if (offset === 'Z') return 0;
  const match = OFFSET_SHAPE.exec(offset);
  if (!match) return null;
  const [, sign, hoursText, minutesText = '00'] = match;
  const hours = Number(hoursText);
  const minutes = Number(minutesText);
  if (hours > 14 || minutes > 59) return null;
  return (sign === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function parseLocalTimestamp(value: string): LocalTimestamp | null {
  const match = TIMESTAMP_SHAPE.exec(value);
  if (!match) return null;
  const [, yearText, monthText, dayText, hourText, minuteText, secondText, fractionText, offsetText] = match;
  const fields = {
    year: Number(yearText),
    month: Number(monthText),
    day: Number(dayText),
    hour: Number(hourText),
    minute: Number(minuteText),
    second: Number(secondText),
  };
  // Validate the fields in UTC, where every wall time exists; Oslo's spring gap is handled later.
  const utc = DateTime.fromObject(fields, { zone: 'utc' });
  if (!utc.isValid) return null;
  // Luxon rejects 2026-02-30 today; the round trip guards against any silent roll-over regardless.
  if (
    utc.year !== fields.year ||
    utc.month !== fields.month ||
    utc.day !== fields.day ||
    utc.hour !== fields.hour ||
    utc.minute !== fields.minute ||
    utc.second !== fields.second
  ) {
    return null;
  }
  let offsetMinutes: number | null = null;
  if (offsetText !== undefined) {
    offsetMinutes = parseOffsetMinutes(offsetText);
    if (offsetMinutes === null) return null;
  }
  const milliseconds = fractionText === undefined ? 0 : Number(fractionText.slice(0, 3).padEnd(3, '0'));
  return { localMillis: utc.toMillis() + milliseconds, offsetMinutes };
}

/**
 * The instant an Oslo wall-clock time denotes.
 * - Autumn overlap (02:00–02:59 happens twice): the EARLIER instant, i.e. summer time +02:00. Luxon's
 *   own choice depends on the offset in force when the code runs, so it is resolved explicitly here.
 * - Spring gap (02:00–02:59 does not exist): read with the winter offset, which shifts the time
 *   forward by the gap (02:30 → 03:30+02:00), as luxon does.
 */
function osloInstantFromWallClock(localMillis: number): number {
  // Offsets within a day either side cover any single transition.
  const before = OSLO_ZONE.offset(localMillis - DAY_MS);
  const after = OSLO_ZONE.offset(localMillis + DAY_MS);
  const matching = [before, after]
    .map((offset) => localMillis - offset * MINUTE_MS)
    .filter((instant) => OSLO_ZONE.offset(instant) * MINUTE_MS === localMillis - instant);
  if (matching.length > 0) return Math.min(...matching);
  return localMillis - before * MINUTE_MS;
}

/**
 * Reads a filter date argument: `YYYY-MM-DD HH:mm:ss` (or `T` for the space), optional fraction,
 * then an offset `Z`, `±HH:MM`, `±HHMM` or `±HH`. Without offset the time is Oslo wall-clock time.
 * Returns null for any other shape or an impossible date, time or offset.
 */
export function parseDateArgument(value: string): Date | null {
  const parsed = parseLocalTimestamp(value);
  if (!parsed) return null;
  const instant =
    parsed.offsetMinutes === null
      ? osloInstantFromWallClock(parsed.localMillis)
      : parsed.localMillis - parsed.offsetMinutes * MINUTE_MS;
  return new Date(instant);
}

/**
 * Reads an import file timestamp: ISO 8601 / RFC 3339 with an explicit offset, or the service's own
 * output form with a space. A timestamp without offset is an error in an import (ambiguous intent),
 * so it yields null like any other unreadable value.
 */
export function parseImportTimestamp(value: string): Date | null {
  const parsed = parseLocalTimestamp(value);
  if (!parsed || parsed.offsetMinutes === null) return null;
  return new Date(parsed.localMillis - parsed.offsetMinutes * MINUTE_MS);
}
