import { DateTime } from 'luxon';
import type { WhenPreset } from '../../generated/schema-types.js';
import { OSLO_ZONE_NAME } from './oslo-time.js';

export type { WhenPreset };

/** Every preset `Filter.when` takes, in the schema's order. */
export const WHEN_PRESETS: readonly WhenPreset[] = ['TODAY', 'TONIGHT', 'TOMORROW', 'THIS_WEEKEND', 'NEXT_7_DAYS', 'THIS_MONTH'];

/** Oslo wall-clock hour at which an evening (TONIGHT, the Friday of THIS_WEEKEND) starts. */
export const EVENING_STARTS_AT_HOUR = 17;
/** Oslo wall-clock hour at which a night (TONIGHT) ends, the morning after. */
export const NIGHT_ENDS_AT_HOUR = 5;

/**
 * A preset resolved at one instant. `from` is read like `fromDate` (dates still going on at or after
 * it; the service's lower bound is never before now anyway), `until` like `untilDate` (dates that start
 * before it). `validUntil` is the next instant at which the same preset resolves to another window:
 * an answer for the preset must not be kept (cached) past it.
 */
export interface PresetWindow {
  from: Date;
  until: Date;
  validUntil: Date;
}

/**
 * The window of a preset at `now`, in Europe/Oslo wall-clock time. Days are calendar days of Oslo
 * (23 or 25 hours long on the DST change days), so every boundary is an Oslo midnight, 05:00 or 17:00,
 * none of which falls in a DST gap or overlap (Oslo changes at 02:00/03:00).
 */
export function whenPresetWindow(preset: WhenPreset, now: Date): PresetWindow {
  const local = DateTime.fromJSDate(now, { zone: OSLO_ZONE_NAME });
  const today = local.startOf('day');
  const dayAfter = (days: number) => today.plus({ days });
  const window = (from: DateTime, until: DateTime, validUntil: DateTime): PresetWindow => ({
    from: from.toJSDate(),
    until: until.toJSDate(),
    validUntil: validUntil.toJSDate(),
  });
  switch (preset) {
    case 'TODAY':
      return window(today, dayAfter(1), dayAfter(1));
    case 'TONIGHT': {
      // Between midnight and the night's end, "tonight" is the night already under way.
      const evening = local.hour < NIGHT_ENDS_AT_HOUR ? dayAfter(-1) : today;
      const nightEnds = evening.plus({ days: 1 }).set({ hour: NIGHT_ENDS_AT_HOUR });
      return window(evening.set({ hour: EVENING_STARTS_AT_HOUR }), nightEnds, nightEnds);
    }
    case 'TOMORROW':
      return window(dayAfter(1), dayAfter(2), dayAfter(1));
    case 'THIS_WEEKEND': {
      // ISO weeks start on Monday (luxon's weekday 1): the weekend is Friday evening to Sunday's end.
      const monday = dayAfter(1 - local.weekday);
      const nextMonday = monday.plus({ days: 7 });
      return window(monday.plus({ days: 4 }).set({ hour: EVENING_STARTS_AT_HOUR }), nextMonday, nextMonday);
    }
    case 'NEXT_7_DAYS':
      return window(today, dayAfter(7), dayAfter(1));
    case 'THIS_MONTH': {
      const month = local.startOf('month');
      const nextMonth = month.plus({ months: 1 });
      return window(month, nextMonth, nextMonth);
    }
  }
}
