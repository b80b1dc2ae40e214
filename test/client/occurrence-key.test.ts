import { describe, expect, it } from 'vitest';
import { occurrenceKey } from '../../packages/client/src/index.js';

describe('occurrenceKey', () => {
  it('tells two dates of one event apart', () => {
    const first = occurrenceKey({ id: 'E1', startDate: '2026-03-28 14:00:00+01:00' });
    const second = occurrenceKey({ id: 'E1', startDate: '2026-03-29 14:00:00+02:00' });
    expect(first).toBe('E1@2026-03-28T13:00:00.000Z');
    expect(second).toBe('E1@2026-03-29T12:00:00.000Z');
  });

  it('keeps the two 02:30s of 25 October 2026 apart', () => {
    expect(occurrenceKey({ id: 'E1', startDate: '2026-10-25 02:30:00+02:00' })).not.toBe(
      occurrenceKey({ id: 'E1', startDate: '2026-10-25 02:30:00+01:00' }),
    );
  });

  it('is stable for the same moment however it is written', () => {
    expect(occurrenceKey({ id: 'E1', startDate: '2026-12-01 19:00:00+01:00' })).toBe(
      occurrenceKey({ id: 'E1', startDate: '2026-12-01T18:00:00Z' }),
    );
  });
});
