import { describe, expect, it } from 'vitest';
import { BoundedMemo } from '../../src/domain/bounded-memo.js';

describe('bounded memo', () => {
  /** A pure function that counts its calls. */
  function counted<Key, Value>(compute: (key: Key) => Value): { compute: (key: Key) => Value; calls: Key[] } {
    const calls: Key[] = [];
    return { compute: (key) => (calls.push(key), compute(key)), calls };
  }

  it('computes a key once and answers it again from memory', () => {
    const memo = new BoundedMemo<number, string>(10);
    const square = counted((n: number) => String(n * n));
    expect(memo.remember(3, square.compute)).toBe('9');
    expect(memo.remember(3, square.compute)).toBe('9');
    expect(memo.remember(4, square.compute)).toBe('16');
    expect(square.calls).toEqual([3, 4]);
    expect(memo.size).toBe(2);
  });

  it('remembers null as a value (a text that reads as no price is not read again)', () => {
    const memo = new BoundedMemo<string, number | null>(10);
    const read = counted((text: string) => (/^\d+$/.test(text) ? Number(text) : null));
    expect(memo.remember('Gratis', read.compute)).toBeNull();
    expect(memo.remember('Gratis', read.compute)).toBeNull();
    expect(read.calls).toEqual(['Gratis']);
  });

  it('keeps at most max values: when full, it is emptied before the next one is added', () => {
    const memo = new BoundedMemo<number, number>(3);
    const double = counted((n: number) => n * 2);
    for (const n of [1, 2, 3]) memo.remember(n, double.compute);
    expect(memo.size).toBe(3);
    expect(memo.remember(4, double.compute)).toBe(8);
    expect(memo.size).toBe(1);
    // 1 was forgotten with the rest: computed again; 4 is still remembered.
    memo.remember(1, double.compute);
    memo.remember(4, double.compute);
    expect(double.calls).toEqual([1, 2, 3, 4, 1]);
    expect(memo.size).toBe(2);
  });

  it('does not remember a computation that threw', () => {
    const memo = new BoundedMemo<number, string>(10);
    const failing = counted((n: number): string => {
      if (Number.isNaN(n)) throw new RangeError('Invalid Date');
      return String(n);
    });
    expect(() => memo.remember(NaN, failing.compute)).toThrow(RangeError);
    expect(() => memo.remember(NaN, failing.compute)).toThrow(RangeError);
    expect(failing.calls).toHaveLength(2);
    expect(memo.size).toBe(0);
  });

  it('forgets everything on clear', () => {
    const memo = new BoundedMemo<string, string>(10);
    const upper = counted((text: string) => text.toUpperCase());
    memo.remember('a', upper.compute);
    memo.clear();
    expect(memo.size).toBe(0);
    memo.remember('a', upper.compute);
    expect(upper.calls).toEqual(['a', 'a']);
  });
});

describe('bounded memo: text keys kept in a dictionary', () => {
  it('answers separate copies of equal text (as JSON.parse gives them) from one computation', () => {
    const memo = new BoundedMemo<string, Date | null>(10, { textKeys: true });
    const calls: string[] = [];
    const parse = (text: string) => (calls.push(text), Number.isNaN(Date.parse(text)) ? null : new Date(text));
    const copies = JSON.parse('["2026-12-01T19:00:00+01:00","2026-12-01T19:00:00+01:00","nonsense","nonsense"]') as string[];
    const values = copies.map((text) => memo.remember(text, parse));
    expect(values[0]).toBe(values[1]);
    expect(values[0]).toEqual(new Date('2026-12-01T18:00:00Z'));
    expect(values[2]).toBeNull();
    expect(calls).toEqual(['2026-12-01T19:00:00+01:00', 'nonsense']);
    expect(memo.size).toBe(2);
  });

  it('keeps no inherited property as a value ("constructor", "__proto__" are keys like any other)', () => {
    const memo = new BoundedMemo<string, string>(10, { textKeys: true });
    expect(memo.remember('constructor', (text) => `read ${text}`)).toBe('read constructor');
    expect(memo.remember('__proto__', (text) => `read ${text}`)).toBe('read __proto__');
    expect(memo.remember('__proto__', () => 'again')).toBe('read __proto__');
  });

  it('is bounded and cleared like the Map: emptied when full, forgotten on clear', () => {
    const memo = new BoundedMemo<string, string>(2, { textKeys: true });
    const calls: string[] = [];
    const upper = (text: string) => (calls.push(text), text.toUpperCase());
    memo.remember('a', upper);
    memo.remember('b', upper);
    memo.remember('c', upper);
    expect(memo.size).toBe(1);
    memo.remember('a', upper);
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
    memo.clear();
    expect(memo.size).toBe(0);
    memo.remember('c', upper);
    expect(calls).toEqual(['a', 'b', 'c', 'a', 'c']);
  });
});
