import { DateTime } from 'luxon';
import { OSLO_ZONE_NAME } from '../domain/oslo-time.js';

/** Oslo wall-clock times of days counted from today → timestamps with the offset in force (+01:00 winter, +02:00 summer). */
export class OsloDays {
  private readonly first: DateTime;
  private readonly days = new Map<number, { date: string; offset: string | null }>();
  private readonly hours = new Map<number, string>();

  constructor(today: Date) {
    this.first = DateTime.fromJSDate(today, { zone: OSLO_ZONE_NAME }).startOf('day');
  }

  /** `day` counts from today; `minute` is the wall-clock minute of that day and may run past midnight. */
  stamp(day: number, minute: number): string {
    const dayIndex = day + Math.floor(minute / 1440);
    const minuteOfDay = ((minute % 1440) + 1440) % 1440;
    const hour = Math.floor(minuteOfDay / 60);
    const reading = this.day(dayIndex);
    // The offset only changes on the two transition days a year; only those are read hour by hour.
    const offset = reading.offset ?? this.hourOffset(dayIndex, hour);
    const hh = String(hour).padStart(2, '0');
    const mm = String(minuteOfDay % 60).padStart(2, '0');
    return `${reading.date}T${hh}:${mm}:00${offset}`;
  }

  /** `YYYY-MM-DD` of a day counted from today. */
  date(day: number): string {
    return this.day(day).date;
  }

  private day(dayIndex: number): { date: string; offset: string | null } {
    let reading = this.days.get(dayIndex);
    if (!reading) {
      const start = this.first.plus({ days: dayIndex });
      const startOffset = start.toFormat('ZZ');
      const endOffset = start.endOf('day').toFormat('ZZ');
      reading = { date: start.toFormat('yyyy-MM-dd'), offset: startOffset === endOffset ? startOffset : null };
      this.days.set(dayIndex, reading);
    }
    return reading;
  }

  private hourOffset(dayIndex: number, hour: number): string {
    const key = dayIndex * 24 + hour;
    let offset = this.hours.get(key);
    if (offset === undefined) {
      offset = this.first.plus({ days: dayIndex }).set({ hour }).toFormat('ZZ');
      this.hours.set(key, offset);
    }
    return offset;
  }
}

/** `HH:MM` of a wall-clock minute of the day (minutes past midnight wrap round to the next day's). */
export function wallClockTime(minute: number): string {
  const m = ((minute % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** The wall-clock minute of `hour:minute`; a short name, because the demo's tables write dozens of them. */
export const h = (hour: number, minute = 0): number => hour * 60 + minute;
