import { afterEach, describe, it, expect, vi } from 'vitest';
import { DateTime } from 'luxon';
import { formatOsloTimestamp, osloWallClock, parseDateArgument, parseImportTimestamp } from '../../src/domain/oslo-time.js';

const utc = (iso: string): Date => new Date(iso);
const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

describe('oslo time: formatting', () => {
  it('uses +01:00 in winter', () => {
    expect(formatOsloTimestamp(utc('2026-01-15T11:05:09Z'))).toBe('2026-01-15 12:05:09+01:00');
  });

  it('uses +02:00 in summer', () => {
    expect(formatOsloTimestamp(utc('2026-07-01T10:00:00Z'))).toBe('2026-07-01 12:00:00+02:00');
  });

  it('separates date and time with a space and drops milliseconds', () => {
    expect(formatOsloTimestamp(utc('2026-05-17T07:08:09.999Z'))).toBe('2026-05-17 09:08:09+02:00');
  });

  it('rolls the Oslo date over at Oslo midnight, not UTC midnight', () => {
    expect(formatOsloTimestamp(utc('2026-12-31T23:00:00Z'))).toBe('2027-01-01 00:00:00+01:00');
    expect(formatOsloTimestamp(utc('2026-06-30T22:30:00Z'))).toBe('2026-07-01 00:30:00+02:00');
  });

  it('switches to summer time at 01:00 UTC on 2026-03-29', () => {
    expect(formatOsloTimestamp(utc('2026-03-29T00:30:00Z'))).toBe('2026-03-29 01:30:00+01:00');
    expect(formatOsloTimestamp(utc('2026-03-29T00:59:59Z'))).toBe('2026-03-29 01:59:59+01:00');
    expect(formatOsloTimestamp(utc('2026-03-29T01:00:00Z'))).toBe('2026-03-29 03:00:00+02:00');
    expect(formatOsloTimestamp(utc('2026-03-29T01:30:00Z'))).toBe('2026-03-29 03:30:00+02:00');
  });

  it('shows the repeated hour twice with different offsets on 2026-10-25', () => {
    expect(formatOsloTimestamp(utc('2026-10-25T00:30:00Z'))).toBe('2026-10-25 02:30:00+02:00');
    expect(formatOsloTimestamp(utc('2026-10-25T00:59:59Z'))).toBe('2026-10-25 02:59:59+02:00');
    expect(formatOsloTimestamp(utc('2026-10-25T01:00:00Z'))).toBe('2026-10-25 02:00:00+01:00');
    expect(formatOsloTimestamp(utc('2026-10-25T01:30:00Z'))).toBe('2026-10-25 02:30:00+01:00');
  });

  it('follows the transitions of other years (last Sundays of March and October)', () => {
    expect(formatOsloTimestamp(utc('2025-03-30T00:59:59Z'))).toBe('2025-03-30 01:59:59+01:00');
    expect(formatOsloTimestamp(utc('2025-03-30T01:00:00Z'))).toBe('2025-03-30 03:00:00+02:00');
    expect(formatOsloTimestamp(utc('2025-10-26T00:30:00Z'))).toBe('2025-10-26 02:30:00+02:00');
    expect(formatOsloTimestamp(utc('2025-10-26T01:30:00Z'))).toBe('2025-10-26 02:30:00+01:00');
    expect(formatOsloTimestamp(utc('2027-03-28T01:00:00Z'))).toBe('2027-03-28 03:00:00+02:00');
    expect(formatOsloTimestamp(utc('2027-10-31T00:30:00Z'))).toBe('2027-10-31 02:30:00+02:00');
    expect(formatOsloTimestamp(utc('2027-10-31T01:30:00Z'))).toBe('2027-10-31 02:30:00+01:00');
  });

  it('rejects an invalid Date', () => {
    expect(() => formatOsloTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('oslo time: wall clock', () => {
  it('gives the Oslo date, time and minute of day', () => {
    expect(osloWallClock(utc('2026-01-15T11:05:09Z'))).toEqual({ date: '2026-01-15', time: '12:05', minuteOfDay: 725 });
  });

  it('starts the day at minute 0 and ends it at minute 1439', () => {
    expect(osloWallClock(utc('2026-07-31T22:00:00Z'))).toEqual({ date: '2026-08-01', time: '00:00', minuteOfDay: 0 });
    expect(osloWallClock(utc('2026-12-31T22:59:59Z'))).toEqual({ date: '2026-12-31', time: '23:59', minuteOfDay: 1439 });
  });

  it('skips from 01:59 to 03:00 when summer time starts', () => {
    expect(osloWallClock(utc('2026-03-29T00:59:00Z'))).toEqual({ date: '2026-03-29', time: '01:59', minuteOfDay: 119 });
    expect(osloWallClock(utc('2026-03-29T01:00:00Z'))).toEqual({ date: '2026-03-29', time: '03:00', minuteOfDay: 180 });
  });

  it('reads the repeated hour as the same wall clock when summer time ends', () => {
    const summer = osloWallClock(utc('2026-10-25T00:30:00Z'));
    const winter = osloWallClock(utc('2026-10-25T01:30:00Z'));
    expect(summer).toEqual({ date: '2026-10-25', time: '02:30', minuteOfDay: 150 });
    expect(winter).toEqual(summer);
  });

  it('rejects an invalid Date', () => {
    expect(() => osloWallClock(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('oslo time: date arguments with an offset', () => {
  it('reads the service output form with a space', () => {
    expect(iso(parseDateArgument('2026-12-01 19:00:00+01:00'))).toBe('2026-12-01T18:00:00.000Z');
  });

  it('tolerates a T instead of the space', () => {
    expect(iso(parseDateArgument('2026-12-01T19:00:00+01:00'))).toBe('2026-12-01T18:00:00.000Z');
  });

  it('reads Z as UTC', () => {
    expect(iso(parseDateArgument('2026-12-01T19:00:00Z'))).toBe('2026-12-01T19:00:00.000Z');
    expect(iso(parseDateArgument('2026-12-01 19:00:00Z'))).toBe('2026-12-01T19:00:00.000Z');
  });

  it('reads negative offsets', () => {
    expect(iso(parseDateArgument('2026-12-01 19:00:00-05:30'))).toBe('2026-12-02T00:30:00.000Z');
  });

  it('reads offsets without colon and hour-only offsets', () => {
    expect(iso(parseDateArgument('2026-12-01 19:00:00+0100'))).toBe('2026-12-01T18:00:00.000Z');
    expect(iso(parseDateArgument('2026-12-01 19:00:00-0230'))).toBe('2026-12-01T21:30:00.000Z');
    expect(iso(parseDateArgument('2026-12-01 19:00:00+02'))).toBe('2026-12-01T17:00:00.000Z');
    expect(iso(parseDateArgument('2026-12-01 19:00:00-03'))).toBe('2026-12-01T22:00:00.000Z');
  });

  it('accepts the extreme offsets +14:00, -14:00 and 14 hours with 59 minutes', () => {
    expect(iso(parseDateArgument('2026-12-01 19:00:00+14:00'))).toBe('2026-12-01T05:00:00.000Z');
    expect(iso(parseDateArgument('2026-12-01 19:00:00-14:00'))).toBe('2026-12-02T09:00:00.000Z');
    expect(iso(parseDateArgument('2026-12-01 19:00:00+14:59'))).toBe('2026-12-01T04:01:00.000Z');
    expect(iso(parseDateArgument('2026-12-01 19:00:00+00:00'))).toBe('2026-12-01T19:00:00.000Z');
    expect(iso(parseDateArgument('2026-12-01 19:00:00-00:00'))).toBe('2026-12-01T19:00:00.000Z');
  });

  it('keeps fractional seconds to the millisecond and truncates the rest', () => {
    expect(iso(parseDateArgument('2026-12-01 19:00:00.123+01:00'))).toBe('2026-12-01T18:00:00.123Z');
    expect(iso(parseDateArgument('2026-12-01T19:00:00.5Z'))).toBe('2026-12-01T19:00:00.500Z');
    expect(iso(parseDateArgument('2026-12-01T19:00:00.123456789Z'))).toBe('2026-12-01T19:00:00.123Z');
  });

  it('ignores the Oslo rules when an offset is given', () => {
    // 02:30 does not exist in Oslo on this day, but +01:00 makes the instant unambiguous.
    expect(iso(parseDateArgument('2026-03-29 02:30:00+01:00'))).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(parseDateArgument('2026-10-25 02:30:00+02:00'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(parseDateArgument('2026-10-25 02:30:00+01:00'))).toBe('2026-10-25T01:30:00.000Z');
  });

  it('accepts a leap day and the last second of the day', () => {
    expect(iso(parseDateArgument('2028-02-29 23:59:59+01:00'))).toBe('2028-02-29T22:59:59.000Z');
  });

  it('round-trips the formatted form', () => {
    for (const instant of ['2026-03-29T00:30:00Z', '2026-03-29T01:30:00Z', '2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z']) {
      expect(iso(parseDateArgument(formatOsloTimestamp(utc(instant))))).toBe(new Date(instant).toISOString());
    }
  });
});

describe('oslo time: date arguments without an offset are Oslo wall-clock time', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads winter times with +01:00', () => {
    expect(iso(parseDateArgument('2026-01-15 12:00:00'))).toBe('2026-01-15T11:00:00.000Z');
  });

  it('reads summer times with +02:00, with a T or a space', () => {
    expect(iso(parseDateArgument('2025-09-12T15:00:00'))).toBe('2025-09-12T13:00:00.000Z');
    expect(iso(parseDateArgument('2025-09-12 15:00:00'))).toBe('2025-09-12T13:00:00.000Z');
  });

  it('accepts fractional seconds', () => {
    expect(iso(parseDateArgument('2025-09-12 15:00:00.250'))).toBe('2025-09-12T13:00:00.250Z');
  });

  it('reads the hours around the spring change', () => {
    expect(iso(parseDateArgument('2026-03-29 01:59:59'))).toBe('2026-03-29T00:59:59.000Z');
    expect(iso(parseDateArgument('2026-03-29 03:00:00'))).toBe('2026-03-29T01:00:00.000Z');
  });

  it('shifts a wall time in the spring gap forward by the gap', () => {
    expect(iso(parseDateArgument('2026-03-29 02:00:00'))).toBe('2026-03-29T01:00:00.000Z');
    expect(iso(parseDateArgument('2026-03-29 02:30:00'))).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(parseDateArgument('2026-03-29 02:59:59'))).toBe('2026-03-29T01:59:59.000Z');
    expect(iso(parseDateArgument('2025-03-30 02:30:00'))).toBe('2025-03-30T01:30:00.000Z');
  });

  it('takes the earlier, summer-time instant for the repeated autumn hour', () => {
    expect(iso(parseDateArgument('2026-10-25 02:00:00'))).toBe('2026-10-25T00:00:00.000Z');
    expect(iso(parseDateArgument('2026-10-25 02:30:00'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(parseDateArgument('2026-10-25 02:59:59'))).toBe('2026-10-25T00:59:59.000Z');
    expect(iso(parseDateArgument('2025-10-26T02:30:00'))).toBe('2025-10-26T00:30:00.000Z');
    expect(iso(parseDateArgument('2027-10-31 02:30:00'))).toBe('2027-10-31T00:30:00.000Z');
  });

  it('resolves the repeated hour the same way whether the process runs in summer or winter', () => {
    for (const now of ['2026-01-15T12:00:00Z', '2026-07-15T12:00:00Z']) {
      vi.useFakeTimers({ now: new Date(now) });
      expect(iso(parseDateArgument('2026-10-25 02:30:00'))).toBe('2026-10-25T00:30:00.000Z');
      expect(iso(parseDateArgument('2026-03-29 02:30:00'))).toBe('2026-03-29T01:30:00.000Z');
      vi.useRealTimers();
    }
  });

  it('reads the hours around the autumn change', () => {
    expect(iso(parseDateArgument('2026-10-25 01:59:59'))).toBe('2026-10-24T23:59:59.000Z');
    expect(iso(parseDateArgument('2026-10-25 03:00:00'))).toBe('2026-10-25T02:00:00.000Z');
  });
});

describe('oslo time: rejected date arguments', () => {
  it.each([
    ['an empty string', ''],
    ['whitespace', ' '],
    ['a date only', '2026-12-01'],
    ['a time without seconds', '2026-12-01 19:00'],
    ['a time without seconds, with offset', '2026-12-01T19:00+01:00'],
    ['leading whitespace', ' 2026-12-01 19:00:00+01:00'],
    ['trailing whitespace', '2026-12-01 19:00:00+01:00 '],
    ['trailing garbage', '2026-12-01 19:00:00+01:00abc'],
    ['a zone name', '2026-12-01 19:00:00 Europe/Oslo'],
    ['a space before the offset', '2026-12-01 19:00:00 +01:00'],
    ['two spaces between date and time', '2026-12-01  19:00:00'],
    ['a lowercase t', '2026-12-01t19:00:00Z'],
    ['a lowercase z', '2026-12-01T19:00:00z'],
    ['single-digit fields', '2026-1-1 9:00:00'],
    ['a two-digit year', '26-12-01 19:00:00'],
    ['slashes', '2026/12/01 19:00:00'],
    ['a Norwegian date', '01.12.2026 19:00'],
    ['February 30', '2026-02-30 12:00:00+01:00'],
    ['February 29 outside a leap year', '2026-02-29 12:00:00'],
    ['April 31', '2026-04-31 12:00:00Z'],
    ['month 13', '2026-13-01 12:00:00Z'],
    ['month 00', '2026-00-10 12:00:00Z'],
    ['day 00', '2026-12-00 12:00:00Z'],
    ['day 32', '2026-12-32 12:00:00Z'],
    ['hour 24', '2026-12-01 24:00:00Z'],
    ['minute 60', '2026-12-01 19:60:00Z'],
    ['second 60', '2026-12-01 19:00:60Z'],
    ['offset hours above 14', '2026-12-01 19:00:00+15:00'],
    ['offset +25:00', '2026-12-01 19:00:00+25:00'],
    ['offset minutes above 59', '2026-12-01 19:00:00+05:75'],
    ['offset -25:00', '2026-12-01 19:00:00-25:00'],
    ['a one-digit offset', '2026-12-01 19:00:00+1'],
    ['a three-digit offset', '2026-12-01 19:00:00+010'],
    ['an offset with seconds', '2026-12-01 19:00:00+01:00:00'],
    ['an offset after Z', '2026-12-01 19:00:00Z+01:00'],
    ['a fraction without digits', '2026-12-01 19:00:00.+01:00'],
    ['a fraction with a comma', '2026-12-01 19:00:00,5+01:00'],
    ['a fraction longer than nanoseconds', '2026-12-01 19:00:00.1234567890Z'],
    ['a timestamp number', '1764615600'],
    ['text', 'tomorrow'],
  ])('rejects %s', (_, value) => {
    expect(parseDateArgument(value)).toBeNull();
  });
});

describe('oslo time: import timestamps', () => {
  it('reads RFC 3339 with an offset', () => {
    expect(iso(parseImportTimestamp('2026-12-01T19:00:00+01:00'))).toBe('2026-12-01T18:00:00.000Z');
    expect(iso(parseImportTimestamp('2026-07-01T19:00:00+02:00'))).toBe('2026-07-01T17:00:00.000Z');
    expect(iso(parseImportTimestamp('2026-12-01T19:00:00-08:00'))).toBe('2026-12-02T03:00:00.000Z');
  });

  it('reads Z as UTC', () => {
    expect(iso(parseImportTimestamp('2026-12-01T19:00:00Z'))).toBe('2026-12-01T19:00:00.000Z');
  });

  it('reads fractional seconds', () => {
    expect(iso(parseImportTimestamp('2026-12-01T19:00:00.123Z'))).toBe('2026-12-01T19:00:00.123Z');
    expect(iso(parseImportTimestamp('2026-12-01T19:00:00.1+01:00'))).toBe('2026-12-01T18:00:00.100Z');
    expect(iso(parseImportTimestamp('2026-12-01T19:00:00.999999Z'))).toBe('2026-12-01T19:00:00.999Z');
  });

  it('reads ISO 8601 basic and hour-only offsets', () => {
    expect(iso(parseImportTimestamp('2026-12-01T19:00:00+0100'))).toBe('2026-12-01T18:00:00.000Z');
    expect(iso(parseImportTimestamp('2026-12-01T19:00:00+01'))).toBe('2026-12-01T18:00:00.000Z');
  });

  it("reads the service's own output form with a space", () => {
    expect(iso(parseImportTimestamp('2026-12-01 19:00:00+01:00'))).toBe('2026-12-01T18:00:00.000Z');
    expect(iso(parseImportTimestamp(formatOsloTimestamp(utc('2026-10-25T01:30:00Z'))))).toBe('2026-10-25T01:30:00.000Z');
    expect(iso(parseImportTimestamp(formatOsloTimestamp(utc('2026-10-25T00:30:00Z'))))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('distinguishes both readings of the repeated autumn hour by their offsets', () => {
    expect(iso(parseImportTimestamp('2026-10-25T02:30:00+02:00'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(parseImportTimestamp('2026-10-25T02:30:00+01:00'))).toBe('2026-10-25T01:30:00.000Z');
  });

  it.each([
    ['a timestamp without offset', '2026-12-01T19:00:00'],
    ['a timestamp without offset, with a space', '2026-12-01 19:00:00'],
    ['a timestamp without offset, with fraction', '2026-12-01T19:00:00.000'],
    ['a date only', '2026-12-01'],
    ['an empty string', ''],
    ['a time without seconds', '2026-12-01T19:00+01:00'],
    ['trailing garbage', '2026-12-01T19:00:00+01:00Z'],
    ['February 30', '2026-02-30T19:00:00+01:00'],
    ['month 13', '2026-13-01T19:00:00+01:00'],
    ['hour 24', '2026-12-01T24:00:00Z'],
    ['minute 60', '2026-12-01T19:60:00Z'],
    ['offset +25:00', '2026-12-01T19:00:00+25:00'],
    ['offset +05:75', '2026-12-01T19:00:00+05:75'],
    ['a week date', '2026-W49-2T19:00:00Z'],
    ['an ordinal date', '2026-335T19:00:00Z'],
  ])('rejects %s', (_, value) => {
    expect(parseImportTimestamp(value)).toBeNull();
  });
});

describe('oslo time: the kept per-hour offsets agree with the time zone database', () => {
  const viaLuxon = (ms: number) => DateTime.fromMillis(ms, { zone: 'Europe/Oslo' }).toFormat('yyyy-MM-dd HH:mm:ssZZ');

  it('formats like luxon from 1890 to 2100, and on either side of every offset change', () => {
    const start = Date.UTC(1890, 0, 1);
    const end = Date.UTC(2100, 0, 1);
    const step = 55 * 3_600_000 + 13 * 60_000 + 7_000;
    let changes = 0;
    let previous = viaLuxon(start).slice(-6);
    for (let ms = start; ms < end; ms += step) {
      expect(formatOsloTimestamp(new Date(ms))).toBe(viaLuxon(ms));
      const offset = viaLuxon(ms).slice(-6);
      if (offset === previous) continue;
      previous = offset;
      // Find the change to the millisecond, then check both sides of it.
      let low = ms - step;
      let high = ms;
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (viaLuxon(middle).slice(-6) === offset) high = middle;
        else low = middle;
      }
      changes++;
      for (const at of [low - 1000, low, high, high + 1000]) expect(formatOsloTimestamp(new Date(at))).toBe(viaLuxon(at));
    }
    // Local mean time to CET, wartime and summer times, then two changes a year since 1980.
    expect(changes).toBeGreaterThan(250);
  });
});
