import { brotliCompressSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { answerBytes, LIST_WRITTEN_IN_TURNS } from '../../src/http/answer-bytes.js';
import { compressForm, LARGE_ANSWER_BYTES } from '../../src/http/answer-cache/answer-forms.js';
import { storedAnswerOfBytes } from '../../src/http/answer-cache/stored-answer.js';
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

/**
 * The bytes answerBytes gives are JSON.stringify's; the tag it computed on the way (a long answer), or
 * the one its stored answer computes when asked (a short one), is that of those bytes.
 */
async function expectStringifyBytes(data: Record<string, unknown>, tagged?: 'tagged as written') {
  const expected = Buffer.from(JSON.stringify({ data }));
  const bytes = await answerBytes(data);
  expect(bytes.body.toString()).toBe(expected.toString());
  expect(bytes.body.equals(expected)).toBe(true);
  if (tagged) expect(bytes.tag).toBe(bodyTag(expected));
  expect(storedAnswerOfBytes(bytes, { ttlMs: 60_000, operation: 'Op', cdnTags: [] }).tag).toBe(bodyTag(expected));
}

describe('answers written item by item', () => {
  it.each([0, 1, 7, 8, 9, 1000])('a page of %i events nested like events.data and changes.changed', async (count) => {
    const events = Array.from({ length: count }, (_, i) => event(i));
    await expectStringifyBytes({ events: { totalCount: count, data: events, pageInfo: { page: 1, hasNextPage: false } } });
    await expectStringifyBytes({ changes: { changed: events, removedIds: events.map((e) => e.id), cursor: 'c–1', hasMore: true } });
  });

  it('a long answer (more than 256 list items) is tagged as it is written', async () => {
    const events = Array.from({ length: 300 }, (_, i) => event(i));
    await expectStringifyBytes({ events: { totalCount: 300, data: events } }, 'tagged as written');
    await expectStringifyBytes({ a: { data: events.slice(0, 200) }, b: { data: events.slice(0, 57) } }, 'tagged as written');
  });

  it('the shapes of GraphQL results: null-prototype objects, empty ones, nulls, nested lists, lists of scalars', async () => {
    const row = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [], c: {}, d: null, e: [[1, 2], [3]], f: 'ø–å' });
    const data = Object.assign(Object.create(null) as Record<string, unknown>, {
      first: row,
      empty: {},
      none: null,
      numbers: Array.from({ length: 20 }, (_, i) => i / 3),
      words: Array.from({ length: 12 }, (_, i) => `ord ${i} – «${'æ'.repeat(i)}» \u2028`),
      deep: { a: { b: { c: { d: [row, row, row, row, row, row, row, row, row] } } } },
      lists: Array.from({ length: 10 }, (_, i) => Array.from({ length: i }, () => row)),
    });
    await expectStringifyBytes(data);
    // The same shapes written item by item (a long answer).
    await expectStringifyBytes(Object.assign(data, { padding: Array.from({ length: 300 }, (_, i) => (i % 2 ? row : i)) }), 'tagged as written');
  });

  it('writes what JSON.stringify writes for values without a JSON form, and honours toJSON', async () => {
    const list = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? () => 1 : { n: i, f: () => 1, s: Symbol('s') }));
    await expectStringifyBytes({ list, gone: undefined, fn: () => 1, kept: 1, nested: { gone: undefined, list } });
    const when = new Date('2026-11-27T10:00:00Z');
    const custom = { toJSON: () => ({ replaced: true }) };
    const listWithOwnJson = Object.assign(Array.from({ length: 10 }, (_, i) => i), { toJSON: () => 'a list of its own' });
    await expectStringifyBytes({ when, custom, nested: { custom, when, list: [when, custom, when, custom, when, custom, when, custom] }, listWithOwnJson });
  });
});

describe('answers with a long list, written a slice per turn', () => {
  it.each([0, 1, LIST_WRITTEN_IN_TURNS, LIST_WRITTEN_IN_TURNS + 1, 2_499, 2_500, 7_321])('%i events: exactly the bytes and tag of JSON.stringify', async (count) => {
    const data = {
      allUpcomingEventsInArea: Array.from({ length: count }, (_, i) => event(i)),
      categories: [{ id: 'CONCERT' }],
      nothing: null,
    };
    await expectStringifyBytes(data, count > 256 ? 'tagged as written' : undefined);
  });

  it('writes what JSON.stringify writes for values without a JSON form', async () => {
    const items: unknown[] = Array.from({ length: LIST_WRITTEN_IN_TURNS + 5 }, (_, i) => (i % 3 === 0 ? undefined : { n: i, f: () => 1 }));
    const data = { list: items, gone: undefined, kept: 1 };
    expect((await answerBytes(data)).body.toString()).toBe(JSON.stringify({ data }));
  });

  it.each([
    ['a root list', (list: unknown[]) => ({ list })],
    ['a list in a root field', (list: unknown[]) => ({ changes: { changed: list } })],
  ])('lets other work run between slices of %s', async (_name, shape) => {
    const data = shape(Array.from({ length: 5_000 }, (_, i) => event(i)));
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const writing = answerBytes(data);
    await writing;
    clearInterval(ticker);
    // 10 slices: the event loop turned between them (a timer of 0 ms ran at least once).
    expect(turns).toBeGreaterThan(0);
  });
});

describe('a large answer compressed as it is written', () => {
  it.each([
    ['br', 7_321],
    ['gzip', 2_500],
    ['zstd', 4_001],
    // Written in one go (no list of more than 1 000 items), past 256 KiB all the same.
    ['br', 1_000],
  ] as const)('%s, %i events: exactly the bytes of the form made of the whole body', async (coding, count) => {
    const data = { changes: { changed: Array.from({ length: count }, (_, i) => event(i)), cursor: 'c' } };
    const bytes = await answerBytes(data, coding);
    expect(bytes.body.length).toBeGreaterThan(LARGE_ANSWER_BYTES);
    const streamed = await bytes.formsUnderWay?.[coding];
    expect(streamed).toBeDefined();
    expect(streamed!.equals(await compressForm(bytes.body, coding))).toBe(true);
  });

  it('costs brotli 1 at most a few per cent of its ratio against the body compressed in one call', async () => {
    const bytes = await answerBytes({ allUpcomingEventsInArea: Array.from({ length: 12_000 }, (_, i) => event(i)) }, 'br');
    const streamed = (await bytes.formsUnderWay?.br)!;
    const inOneCall = brotliCompressSync(bytes.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.body.length } });
    expect(streamed.length).toBeLessThan(inOneCall.length * 1.03);
  });

  it('makes no form of an answer that stays under 256 KiB, nor in a coding nobody asked for', async () => {
    const small = await answerBytes({ list: Array.from({ length: 1_200 }, (_, i) => ({ id: i })) }, 'br');
    expect(small.body.length).toBeLessThan(LARGE_ANSWER_BYTES);
    expect(small.formsUnderWay).toBeUndefined();
    const unasked = await answerBytes({ list: Array.from({ length: 2_000 }, (_, i) => event(i)) });
    expect(unasked.body.length).toBeGreaterThan(LARGE_ANSWER_BYTES);
    expect(unasked.formsUnderWay).toBeUndefined();
  });
});
