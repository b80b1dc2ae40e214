import { describe, expect, it } from 'vitest';
import { whenPresetWindow, type WhenPreset } from '../../src/domain/when-preset.js';

/*
 * 2026 in Oslo: summer time starts Sunday 29 March (02:00 +01:00 → 03:00 +02:00) and ends Sunday
 * 25 October (03:00 +02:00 → 02:00 +01:00). Every expected instant is written with the offset Oslo
 * has then, so a window that is off by the DST hour fails.
 */
function expectWindow(preset: WhenPreset, now: string, from: string, until: string, validUntil: string) {
  const window = whenPresetWindow(preset, new Date(now));
  expect({ from: window.from.toISOString(), until: window.until.toISOString(), validUntil: window.validUntil.toISOString() }).toEqual({
    from: new Date(from).toISOString(),
    until: new Date(until).toISOString(),
    validUntil: new Date(validUntil).toISOString(),
  });
}

describe('when presets: TODAY', () => {
  it('runs to the next Oslo midnight, also one millisecond before it', () => {
    expectWindow('TODAY', '2026-03-25T12:00:00+01:00', '2026-03-25T00:00:00+01:00', '2026-03-26T00:00:00+01:00', '2026-03-26T00:00:00+01:00');
    expectWindow('TODAY', '2026-03-25T23:59:59.999+01:00', '2026-03-25T00:00:00+01:00', '2026-03-26T00:00:00+01:00', '2026-03-26T00:00:00+01:00');
  });

  it('is the new day from midnight on, not the UTC day', () => {
    // 00:30 in Oslo is still the previous day in UTC.
    expectWindow('TODAY', '2026-03-26T00:00:00+01:00', '2026-03-26T00:00:00+01:00', '2026-03-27T00:00:00+01:00', '2026-03-27T00:00:00+01:00');
    expectWindow('TODAY', '2026-07-01T00:30:00+02:00', '2026-07-01T00:00:00+02:00', '2026-07-02T00:00:00+02:00', '2026-07-02T00:00:00+02:00');
  });

  it('lasts 23 hours on the spring change day and 25 on the autumn one', () => {
    expectWindow('TODAY', '2026-03-29T12:00:00+02:00', '2026-03-29T00:00:00+01:00', '2026-03-30T00:00:00+02:00', '2026-03-30T00:00:00+02:00');
    expectWindow('TODAY', '2026-10-25T12:00:00+01:00', '2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00', '2026-10-26T00:00:00+01:00');
    // In the repeated hour, both passes are the same day.
    expectWindow('TODAY', '2026-10-25T02:30:00+02:00', '2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00', '2026-10-26T00:00:00+01:00');
    expectWindow('TODAY', '2026-10-25T02:30:00+01:00', '2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00', '2026-10-26T00:00:00+01:00');
  });
});

describe('when presets: TOMORROW', () => {
  it('is the next Oslo day and moves on at midnight', () => {
    expectWindow('TOMORROW', '2026-03-25T12:00:00+01:00', '2026-03-26T00:00:00+01:00', '2026-03-27T00:00:00+01:00', '2026-03-26T00:00:00+01:00');
  });

  it('spans the DST change days exactly', () => {
    expectWindow('TOMORROW', '2026-03-28T23:59:00+01:00', '2026-03-29T00:00:00+01:00', '2026-03-30T00:00:00+02:00', '2026-03-29T00:00:00+01:00');
    expectWindow('TOMORROW', '2026-10-24T08:00:00+02:00', '2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00', '2026-10-25T00:00:00+02:00');
  });
});

describe('when presets: TONIGHT', () => {
  it('is 17:00 to 05:00 the next morning, asked during the day or the evening', () => {
    expectWindow('TONIGHT', '2026-03-25T09:00:00+01:00', '2026-03-25T17:00:00+01:00', '2026-03-26T05:00:00+01:00', '2026-03-26T05:00:00+01:00');
    expectWindow('TONIGHT', '2026-03-25T05:00:00+01:00', '2026-03-25T17:00:00+01:00', '2026-03-26T05:00:00+01:00', '2026-03-26T05:00:00+01:00');
    expectWindow('TONIGHT', '2026-03-25T23:59:00+01:00', '2026-03-25T17:00:00+01:00', '2026-03-26T05:00:00+01:00', '2026-03-26T05:00:00+01:00');
  });

  it('after midnight and before 05:00 is the night under way', () => {
    expectWindow('TONIGHT', '2026-03-26T00:00:00+01:00', '2026-03-25T17:00:00+01:00', '2026-03-26T05:00:00+01:00', '2026-03-26T05:00:00+01:00');
    expectWindow('TONIGHT', '2026-03-26T04:59:59+01:00', '2026-03-25T17:00:00+01:00', '2026-03-26T05:00:00+01:00', '2026-03-26T05:00:00+01:00');
  });

  it('is an hour shorter over the spring change and an hour longer over the autumn one', () => {
    expectWindow('TONIGHT', '2026-03-28T20:00:00+01:00', '2026-03-28T17:00:00+01:00', '2026-03-29T05:00:00+02:00', '2026-03-29T05:00:00+02:00');
    expectWindow('TONIGHT', '2026-03-29T03:30:00+02:00', '2026-03-28T17:00:00+01:00', '2026-03-29T05:00:00+02:00', '2026-03-29T05:00:00+02:00');
    expectWindow('TONIGHT', '2026-10-24T20:00:00+02:00', '2026-10-24T17:00:00+02:00', '2026-10-25T05:00:00+01:00', '2026-10-25T05:00:00+01:00');
    expectWindow('TONIGHT', '2026-10-25T02:30:00+01:00', '2026-10-24T17:00:00+02:00', '2026-10-25T05:00:00+01:00', '2026-10-25T05:00:00+01:00');
  });
});

describe('when presets: THIS_WEEKEND', () => {
  const springWeekend = ['2026-03-27T17:00:00+01:00', '2026-03-30T00:00:00+02:00', '2026-03-30T00:00:00+02:00'] as const;

  it('is Friday 17:00 to Monday 00:00, the coming one from Monday to Friday', () => {
    expectWindow('THIS_WEEKEND', '2026-03-23T00:00:00+01:00', ...springWeekend);
    expectWindow('THIS_WEEKEND', '2026-03-25T12:00:00+01:00', ...springWeekend);
    expectWindow('THIS_WEEKEND', '2026-03-27T16:59:00+01:00', ...springWeekend);
  });

  it('is the current one during it, across the spring change, until Monday midnight', () => {
    expectWindow('THIS_WEEKEND', '2026-03-28T12:00:00+01:00', ...springWeekend);
    expectWindow('THIS_WEEKEND', '2026-03-29T23:59:59+02:00', ...springWeekend);
    expectWindow('THIS_WEEKEND', '2026-03-30T00:00:00+02:00', '2026-04-03T17:00:00+02:00', '2026-04-06T00:00:00+02:00', '2026-04-06T00:00:00+02:00');
  });

  it('spans the autumn change', () => {
    expectWindow('THIS_WEEKEND', '2026-10-22T10:00:00+02:00', '2026-10-23T17:00:00+02:00', '2026-10-26T00:00:00+01:00', '2026-10-26T00:00:00+01:00');
  });
});

describe('when presets: NEXT_7_DAYS', () => {
  it('is today and six more Oslo days, moving on each midnight', () => {
    expectWindow('NEXT_7_DAYS', '2026-03-25T12:00:00+01:00', '2026-03-25T00:00:00+01:00', '2026-04-01T00:00:00+02:00', '2026-03-26T00:00:00+01:00');
    expectWindow('NEXT_7_DAYS', '2026-10-20T23:00:00+02:00', '2026-10-20T00:00:00+02:00', '2026-10-27T00:00:00+01:00', '2026-10-21T00:00:00+02:00');
  });
});

describe('when presets: THIS_MONTH', () => {
  it('runs to the first midnight of next month in Oslo', () => {
    expectWindow('THIS_MONTH', '2026-03-31T23:30:00+02:00', '2026-03-01T00:00:00+01:00', '2026-04-01T00:00:00+02:00', '2026-04-01T00:00:00+02:00');
    expectWindow('THIS_MONTH', '2026-10-10T10:00:00+02:00', '2026-10-01T00:00:00+02:00', '2026-11-01T00:00:00+01:00', '2026-11-01T00:00:00+01:00');
    // The year's last half hour: next month is January of the next year.
    expectWindow('THIS_MONTH', '2026-12-31T23:30:00+01:00', '2026-12-01T00:00:00+01:00', '2027-01-01T00:00:00+01:00', '2027-01-01T00:00:00+01:00');
    // 00:30 on 1 April in Oslo is still 31 March in UTC: the month is April.
    expectWindow('THIS_MONTH', '2026-04-01T00:30:00+02:00', '2026-04-01T00:00:00+02:00', '2026-05-01T00:00:00+02:00', '2026-05-01T00:00:00+02:00');
  });
});
