import { describe, it, expect } from 'vitest';
import { minuteInHoursRange, parseHoursRange } from '../../src/domain/hours-range.js';

const at = (time: string): number => {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
};

describe('hours range: parsing', () => {
  it('reads a daytime window in minutes since midnight', () => {
    expect(parseHoursRange('09:30-17:00')).toEqual({ startMinute: 570, endMinute: 1020 });
  });

  it('reads the first and last minute of the day', () => {
    expect(parseHoursRange('00:00-23:59')).toEqual({ startMinute: 0, endMinute: 1439 });
    expect(parseHoursRange('23:59-00:00')).toEqual({ startMinute: 1439, endMinute: 0 });
  });

  it('reads 24:00 as the end of the day', () => {
    expect(parseHoursRange('18:00-24:00')).toEqual({ startMinute: 1080, endMinute: 1440 });
    expect(parseHoursRange('00:00-24:00')).toEqual({ startMinute: 0, endMinute: 1440 });
  });

  it('keeps a window that wraps past midnight as start after end', () => {
    expect(parseHoursRange('22:00-02:00')).toEqual({ startMinute: 1320, endMinute: 120 });
  });

  it.each([
    ['an empty window', '10:00-10:00'],
    ['an empty window at midnight', '00:00-00:00'],
    ['an empty string', ''],
    ['a single time', '10:00'],
    ['single-digit hours', '9:00-17:00'],
    ['single-digit minutes', '09:0-17:00'],
    ['hours without minutes', '09-17'],
    ['hour 24 with minutes', '22:00-24:30'],
    ['24:00 as the start', '24:00-02:00'],
    ['hour 25', '22:00-25:00'],
    ['minute 60', '09:60-17:00'],
    ['seconds', '09:00:00-17:00:00'],
    ['spaces around the dash', '09:00 - 17:00'],
    ['leading whitespace', ' 09:00-17:00'],
    ['trailing whitespace', '09:00-17:00 '],
    ['an en dash', '09:00–17:00'],
    ['a dot instead of a colon', '09.00-17.00'],
    ['a third time', '09:00-12:00-17:00'],
    ['negative numbers', '-09:00-17:00'],
  ])('rejects %s', (_, value) => {
    expect(parseHoursRange(value)).toBeNull();
  });
});

describe('hours range: membership', () => {
  const daytime = { startMinute: at('09:30'), endMinute: at('17:00') };
  const night = { startMinute: at('22:00'), endMinute: at('02:00') };

  it('includes the start minute', () => {
    expect(minuteInHoursRange(at('09:30'), daytime)).toBe(true);
  });

  it('excludes the end minute', () => {
    expect(minuteInHoursRange(at('16:59'), daytime)).toBe(true);
    expect(minuteInHoursRange(at('17:00'), daytime)).toBe(false);
  });

  it('excludes minutes before the start', () => {
    expect(minuteInHoursRange(at('09:29'), daytime)).toBe(false);
    expect(minuteInHoursRange(at('00:00'), daytime)).toBe(false);
    expect(minuteInHoursRange(at('23:59'), daytime)).toBe(false);
  });

  it('wraps past midnight when the start is after the end', () => {
    expect(minuteInHoursRange(at('22:00'), night)).toBe(true);
    expect(minuteInHoursRange(at('23:30'), night)).toBe(true);
    expect(minuteInHoursRange(at('00:00'), night)).toBe(true);
    expect(minuteInHoursRange(at('01:00'), night)).toBe(true);
    expect(minuteInHoursRange(at('01:59'), night)).toBe(true);
    expect(minuteInHoursRange(at('02:00'), night)).toBe(false);
    expect(minuteInHoursRange(at('12:00'), night)).toBe(false);
    expect(minuteInHoursRange(at('21:59'), night)).toBe(false);
  });

  it('covers the last minute of the day when the window ends at 24:00', () => {
    const evening = parseHoursRange('18:00-24:00');
    expect(evening).not.toBeNull();
    if (!evening) return;
    expect(minuteInHoursRange(at('23:59'), evening)).toBe(true);
    expect(minuteInHoursRange(at('00:00'), evening)).toBe(false);
    expect(minuteInHoursRange(at('17:59'), evening)).toBe(false);
  });

  it('ends at midnight when the window ends at 00:00', () => {
    const evening = parseHoursRange('22:00-00:00');
    expect(evening).not.toBeNull();
    if (!evening) return;
    expect(minuteInHoursRange(at('23:59'), evening)).toBe(true);
    expect(minuteInHoursRange(at('00:00'), evening)).toBe(false);
    expect(minuteInHoursRange(at('21:59'), evening)).toBe(false);
  });

  it('covers every minute with 00:00-24:00', () => {
    const wholeDay = parseHoursRange('00:00-24:00');
    expect(wholeDay).not.toBeNull();
    if (!wholeDay) return;
    for (let minute = 0; minute < 1440; minute++) expect(minuteInHoursRange(minute, wholeDay)).toBe(true);
  });
});
