import { describe, expect, it } from 'vitest';
import { parseServiceTimestamp } from '../../packages/client/src/index.js';

describe('parseServiceTimestamp', () => {
  it('reads the service format with a space and the offset of the date', () => {
    expect(parseServiceTimestamp('2026-12-01 19:00:00+01:00').toISOString()).toBe('2026-12-01T18:00:00.000Z');
    expect(parseServiceTimestamp('2026-06-01 19:00:00+02:00').toISOString()).toBe('2026-06-01T17:00:00.000Z');
  });

  it('reads both sides of the spring DST change (29 March 2026)', () => {
    expect(parseServiceTimestamp('2026-03-29 01:59:00+01:00').toISOString()).toBe('2026-03-29T00:59:00.000Z');
    expect(parseServiceTimestamp('2026-03-29 03:00:00+02:00').toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('keeps the two 02:30s of the autumn DST change (25 October 2026) apart', () => {
    const summer = parseServiceTimestamp('2026-10-25 02:30:00+02:00');
    const winter = parseServiceTimestamp('2026-10-25 02:30:00+01:00');
    expect(summer.toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(winter.getTime() - summer.getTime()).toBe(60 * 60_000);
  });

  it('accepts a T, Z and the short offset forms', () => {
    const expected = '2026-12-01T18:00:00.000Z';
    for (const value of ['2026-12-01T19:00:00+01:00', '2026-12-01 18:00:00Z', '2026-12-01 19:00:00+0100', '2026-12-01 19:00:00+01']) {
      expect(parseServiceTimestamp(value).toISOString()).toBe(expected);
    }
  });

  it('refuses a timestamp without an offset, which names no instant', () => {
    expect(() => parseServiceTimestamp('2026-12-01 19:00:00')).toThrow(RangeError);
    expect(() => parseServiceTimestamp('1 December 2026')).toThrow(RangeError);
    expect(() => parseServiceTimestamp('2026-13-01 19:00:00+01:00')).toThrow(RangeError);
  });
});
