import { describe, expect, it } from 'vitest';
import { answerBytesInTurns, hasLongList, LIST_WRITTEN_IN_TURNS } from '../../src/http/answer-bytes.js';
import { bodyTag } from '../../src/http/caching-headers.js';

/** Events like a whole-world area answer's: nested objects, lists, nulls, text of every width. */
function event(i: number) {
  return {
    id: `E-${i}`,
    title_nb: i % 7 === 0 ? null : `Konsert «${i}» på Tøyen 🎻 \u2028 "sitat" \\ ${'x'.repeat(i % 50)}`,
    startDate: '2026-11-25 19:00:00+01:00',
    venue: i % 5 === 0 ? null : { name: 'Operaen', location: { latitude: 59.9 + i / 1e6, longitude: 10.75 } },
    organizers: i % 3 === 0 ? [] : [{ name: 'Arrangør' }],
    prices: [{ type: 'REGULAR', price: i % 4 === 0 ? null : i }],
    distanceKm: i % 2 === 0 ? 1.25 : null,
  };
}

describe('answers with a long list, written a slice per turn', () => {
  it.each([0, 1, LIST_WRITTEN_IN_TURNS, LIST_WRITTEN_IN_TURNS + 1, 2_499, 2_500, 7_321])('%i events: exactly the bytes and tag of JSON.stringify', async (count) => {
    const data = {
      allUpcomingEventsInArea: Array.from({ length: count }, (_, i) => event(i)),
      categories: [{ id: 'CONCERT' }],
      nothing: null,
    };
    const expected = Buffer.from(JSON.stringify({ data }));
    const { body, tag } = await answerBytesInTurns(data);
    expect(body.equals(expected)).toBe(true);
    expect(tag).toBe(bodyTag(expected));
    expect(hasLongList(data)).toBe(count > LIST_WRITTEN_IN_TURNS);
  });

  it('writes what JSON.stringify writes for values without a JSON form', async () => {
    const items: unknown[] = Array.from({ length: LIST_WRITTEN_IN_TURNS + 5 }, (_, i) => (i % 3 === 0 ? undefined : { n: i, f: () => 1 }));
    const data = { list: items, gone: undefined, kept: 1 };
    expect((await answerBytesInTurns(data)).body.toString()).toBe(JSON.stringify({ data }));
  });

  it('lets other work run between slices', async () => {
    const data = { list: Array.from({ length: 5_000 }, (_, i) => event(i)) };
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const writing = answerBytesInTurns(data);
    await writing;
    clearInterval(ticker);
    // 10 slices: the event loop turned between them (a timer of 0 ms ran at least once).
    expect(turns).toBeGreaterThan(0);
  });
});
