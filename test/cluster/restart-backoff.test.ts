import { describe, expect, it } from 'vitest';
import { RestartBackoff } from '../../src/cluster/restart-backoff.js';

describe('restarting dead workers: no restart storm', () => {
  it('replaces a worker at once, then pauses longer after each quick death, up to the cap', () => {
    const backoff = new RestartBackoff({ firstPauseMs: 1000, maxMs: 8000, stableMs: 30_000 });
    expect([100, 100, 100, 100, 100, 100].map((lived) => backoff.next(lived))).toEqual([0, 1000, 2000, 4000, 8000, 8000]);
  });

  it('starts over after a worker that ran for a while (a crash, not a start-up loop)', () => {
    const backoff = new RestartBackoff({ firstPauseMs: 1000, maxMs: 8000, stableMs: 30_000 });
    backoff.next(100);
    backoff.next(100);
    expect(backoff.next(100)).toBe(2000);
    expect(backoff.next(60_000)).toBe(0);
    expect(backoff.next(100)).toBe(1000);
  });
});
