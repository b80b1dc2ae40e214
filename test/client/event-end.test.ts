import { describe, expect, it } from 'vitest';
import { eventEnd, eventEndTime } from '../../packages/client/src/index.js';

describe('eventEnd', () => {
  it('takes endDate when it lies after startDate', () => {
    const occurrence = { startDate: '2026-12-01 19:00:00+01:00', endDate: '2026-12-01 21:30:00+01:00', duration: 60 };
    expect(eventEnd(occurrence)?.toISOString()).toBe('2026-12-01T20:30:00.000Z');
    expect(eventEndTime(occurrence)).toBe('21:30');
  });

  it('adds the duration when endDate equals startDate (no end time given)', () => {
    const occurrence = { startDate: '2026-12-01 19:00:00+01:00', endDate: '2026-12-01 19:00:00+01:00', duration: 90 };
    expect(eventEndTime(occurrence)).toBe('20:30');
  });

  it('has no end without an end date or a duration', () => {
    expect(eventEnd({ startDate: '2026-12-01 19:00:00+01:00', endDate: '2026-12-01 19:00:00+01:00', duration: null })).toBeNull();
    expect(eventEndTime({ startDate: '2026-12-01 19:00:00+01:00', duration: 0 })).toBeNull();
  });

  it('counts real minutes across the spring change: 01:30 + 60 min on 29 March 2026 ends 03:30', () => {
    const occurrence = { startDate: '2026-03-29 01:30:00+01:00', endDate: '2026-03-29 01:30:00+01:00', duration: 60 };
    expect(eventEnd(occurrence)?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(eventEndTime(occurrence)).toBe('03:30');
  });

  it('counts real minutes across the autumn change: 01:30 + 120 min on 25 October 2026 ends 02:30', () => {
    const occurrence = { startDate: '2026-10-25 01:30:00+02:00', duration: 120 };
    expect(eventEndTime(occurrence)).toBe('02:30');
    expect(eventEnd(occurrence)?.toISOString()).toBe('2026-10-25T01:30:00.000Z');
  });

  it('reads an endDate written with the winter offset on 25 October 2026', () => {
    const occurrence = { startDate: '2026-10-24 22:00:00+02:00', endDate: '2026-10-25 04:00:00+01:00' };
    expect(eventEnd(occurrence)?.toISOString()).toBe('2026-10-25T03:00:00.000Z');
    expect(eventEndTime(occurrence)).toBe('04:00');
  });
});
