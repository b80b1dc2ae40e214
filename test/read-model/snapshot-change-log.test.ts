import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/demo/seeded-random.js';
import { changesInLog, compareCodePoints, type SnapshotChangeLog } from '../../src/read-model/snapshot/snapshot-change-log.js';

/** PostgreSQL's `collate "C"`: the bytes of the UTF-8. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const sign = (n: number) => Math.sign(n);

/** A deterministic generator, so that a failure can be replayed. */
const random = mulberry32;

// ASCII, Latin-1, the private-use and specials block (U+E000–U+FFFF), and code points above U+FFFF.
const ALPHABET = ['a', 'b', 'Z', '-', '0', 'ø', 'Å', '\uE000', '\uFFFD', '😀', '𝄞', '\u{10FFFF}'];

function randomId(next: () => number): string {
  let id = 'E';
  const length = 1 + Math.floor(next() * 4);
  for (let i = 0; i < length; i++) id += ALPHABET[Math.floor(next() * ALPHABET.length)]!;
  return id;
}

describe('the change log of a snapshot', () => {
  it('compares ids as PostgreSQL collate "C" does (code points, not UTF-16 units)', () => {
    const next = random(7);
    expect(sign(compareCodePoints('E😀', 'E\uFFFD'))).toBe(1);
    expect('E😀' < 'E\uFFFD').toBe(true); // what plain `<` gets wrong
    for (let i = 0; i < 5000; i++) {
      const a = randomId(next);
      const b = next() < 0.2 ? a + randomId(next).slice(1) : randomId(next);
      expect(sign(compareCodePoints(a, b)), `${a} vs ${b}`).toBe(sign(byteOrder(a, b)));
    }
  });

  it('lists a round as the SQL keyset did: (from, to], after the position, tombstones left out when live', () => {
    const next = random(11);
    for (let trial = 0; trial < 200; trial++) {
      const rows = new Map<string, { version: number; removed: boolean }>();
      const size = Math.floor(next() * 60);
      while (rows.size < size) rows.set(randomId(next), { version: 1 + Math.floor(next() * 6), removed: next() < 0.25 });
      const ordered = [...rows].sort(([a, x], [b, y]) => x.version - y.version || byteOrder(a, b));
      const log: SnapshotChangeLog = {
        ids: ordered.map(([id]) => id),
        versions: Float64Array.from(ordered.map(([, r]) => r.version)),
        removed: Uint8Array.from(ordered.map(([, r]) => (r.removed ? 1 : 0))),
      };
      const from = Math.floor(next() * 4);
      const to = from + Math.floor(next() * 4);
      const live = next() < 0.5;
      const limit = 1 + Math.floor(next() * 10);
      const positioned = ordered.length > 0 && next() < 0.6 ? ordered[Math.floor(next() * ordered.length)]! : null;
      const after = positioned ? { version: positioned[1].version, id: positioned[0] } : null;
      // The statement it replaces: where version > from and version <= to and (version, id) > after [and not removed] order by version, id limit.
      const expected = ordered
        .filter(([, r]) => r.version > from && r.version <= to)
        .filter(([id, r]) => !after || r.version > after.version || (r.version === after.version && byteOrder(id, after.id) > 0))
        .filter(([, r]) => !live || !r.removed)
        .slice(0, limit)
        .map(([id, r]) => ({ id, version: r.version }));
      expect(changesInLog(log, { from, to, after, live, limit })).toEqual(expected);
    }
  });
});
