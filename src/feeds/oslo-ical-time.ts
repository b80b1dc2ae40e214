import { BoundedMemo } from '../domain/bounded-memo.js';
import { formatOsloTimestamp, OSLO_ZONE_NAME } from '../domain/oslo-time.js';

/**
 * Europe/Oslo as an RFC 5545 VTIMEZONE: CET/CEST with the EU rules in force since 1996 (summer time
 * from the last Sunday of March 02:00 to the last Sunday of October 03:00, local time). A feed
 * lists dates from now on, so the rules of earlier years are not needed. Clients that know the zone
 * by its name use their own copy; the others read this one.
 */
export const OSLO_VTIMEZONE: readonly string[] = [
  'BEGIN:VTIMEZONE',
  `TZID:${OSLO_ZONE_NAME}`,
  `X-LIC-LOCATION:${OSLO_ZONE_NAME}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

const HOUR_MS = 3_600_000;

const pad = (value: number) => String(value).padStart(2, '0');

/** `YYYYMMDDTHHMMSS` of a Date's UTC fields. */
function basicFormat(date: Date): string {
  return (
    `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`
  );
}

/** A UTC DATE-TIME (`…Z`), as DTSTAMP and LAST-MODIFIED must be written. */
export function utcDateTime(instant: Date): string {
  return `${basicFormat(instant)}Z`;
}

/** Oslo's wall clock (`YYYYMMDDTHHMMSS`) and offset (minutes east of UTC) at an instant, read from the API's own timestamp. */
function osloReading(instant: Date): { wallClock: string; offsetMinutes: number } {
  // `YYYY-MM-DD HH:mm:ss+HH:MM`: the same function writes `startDate`, so the feed cannot disagree with it.
  const t = formatOsloTimestamp(instant);
  const sign = t[19] === '-' ? -1 : 1;
  const offsetMinutes = sign * (Number(t.slice(20, 22)) * 60 + Number(t.slice(23, 25)));
  return { wallClock: `${t.slice(0, 4)}${t.slice(5, 7)}${t.slice(8, 10)}T${t.slice(11, 13)}${t.slice(14, 16)}${t.slice(17, 19)}`, offsetMinutes };
}

/** The value part of the property for each instant already written (its TZID and `:` included); a feed's dates, as oslo-time.ts's timestamps. */
const valueByInstant = new BoundedMemo<number, string>(20_000);

/**
 * A DTSTART or DTEND property for an instant: Oslo wall-clock time with `TZID=Europe/Oslo`, as
 * calendar clients show it. The one hour a year that Oslo's clocks read twice (the last Sunday of
 * October, 02:00–02:59) is ambiguous as a wall-clock time: RFC 5545 reads it as its first pass
 * (§3.3.5), but clients differ (ical.js reads the second), so both passes are written in UTC, which
 * no client can shift by an hour. Kept per instant: a feed's dates mostly start on the hour, and
 * each costs three readings of the Oslo clock.
 */
export function osloDateTimeProperty(name: 'DTSTART' | 'DTEND', instant: Date): string {
  return name + valueByInstant.remember(instant.getTime(), osloDateTimeValue);
}

function osloDateTimeValue(ms: number): string {
  const instant = new Date(ms);
  const { wallClock, offsetMinutes } = osloReading(instant);
  // The clocks go back within the hour after (first pass) or went back within the hour before (second pass).
  const repeated = osloReading(new Date(ms + HOUR_MS)).offsetMinutes < offsetMinutes || osloReading(new Date(ms - HOUR_MS)).offsetMinutes > offsetMinutes;
  if (repeated) return `:${utcDateTime(instant)}`;
  return `;TZID=${OSLO_ZONE_NAME}:${wallClock}`;
}
