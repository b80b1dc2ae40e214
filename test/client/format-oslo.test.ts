import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatOslo, osloWallClock, parseServiceTimestamp } from '../../packages/client/src/index.js';

// The reader's zone must not matter: run these as a reader in New Zealand would.
const readerZone = process.env['TZ'];
beforeAll(() => {
  process.env['TZ'] = 'Pacific/Auckland';
});
afterAll(() => {
  if (readerZone === undefined) delete process.env['TZ'];
  else process.env['TZ'] = readerZone;
});

describe('formatOslo', () => {
  it('shows Oslo wall-clock time whatever the reader\'s zone', () => {
    expect(new Date('2026-12-01T18:00:00Z').getHours()).not.toBe(19);
    expect(formatOslo(new Date('2026-12-01T18:00:00Z'), 'time')).toBe('19:00');
    expect(formatOslo('2026-12-01 19:00:00+01:00', 'time')).toBe('19:00');
  });

  it('crosses the spring DST change on 29 March 2026: 01:59 is followed by 03:00', () => {
    const lastWinterMinute = parseServiceTimestamp('2026-03-29 01:59:00+01:00');
    expect(formatOslo(lastWinterMinute, 'time')).toBe('01:59');
    expect(formatOslo(new Date(lastWinterMinute.getTime() + 60_000), 'time')).toBe('03:00');
    expect(formatOslo('2026-03-29 19:00:00+02:00', 'time')).toBe('19:00');
  });

  it('shows 02:30 twice on 25 October 2026, an hour apart', () => {
    const first = parseServiceTimestamp('2026-10-25 02:30:00+02:00');
    expect(formatOslo(first, 'time')).toBe('02:30');
    expect(formatOslo(new Date(first.getTime() + 60 * 60_000), 'time')).toBe('02:30');
    expect(formatOslo('2026-10-25 12:00:00+01:00', 'time')).toBe('12:00');
  });

  it('formats dates in Norwegian by default and in other locales on request', () => {
    expect(formatOslo('2026-03-29 19:00:00+02:00', 'date')).toBe('29. mars 2026');
    expect(formatOslo('2026-03-29 19:00:00+02:00', 'shortDate')).toBe('søn. 29. mars');
    expect(formatOslo('2026-03-29 19:00:00+02:00', 'dateTime')).toBe('søn. 29. mars, 19:00');
    expect(formatOslo('2026-03-29 19:00:00+02:00', 'date', 'en-GB')).toBe('29 March 2026');
  });

  it('puts a late-evening UTC instant on the next Oslo day', () => {
    expect(formatOslo(new Date('2026-12-31T23:30:00Z'), 'date')).toBe('1. januar 2027');
  });

  it('keeps Europe/Oslo even when the caller passes another timeZone', () => {
    const options: Intl.DateTimeFormatOptions = { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
    expect(formatOslo(new Date('2026-12-01T18:00:00Z'), options)).toBe('19:00');
  });
});

describe('osloWallClock', () => {
  it('gives the Oslo date and time of an instant', () => {
    expect(osloWallClock('2026-03-29 03:00:00+02:00')).toEqual({ date: '2026-03-29', time: '03:00' });
    expect(osloWallClock(new Date('2026-10-24T23:30:00Z'))).toEqual({ date: '2026-10-25', time: '01:30' });
  });
});
