import { describe, expect, it } from 'vitest';
import { LargeAnswerGate } from '../../src/read-model/large-answer-gate.js';
import { listInTurns } from '../../src/read-model/list-in-turns.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('listInTurns: a long list handed out a chunk per turn of the event loop', () => {
  it('resolves every item, in order', async () => {
    const items = Array.from({ length: 1_003 }, (_, i) => i);
    const { list, done } = listInTurns(items, 100);
    expect(await Promise.all(list)).toEqual(items);
    await done;
  });

  it('lets other work run between chunks', async () => {
    const { list } = listInTurns(Array.from({ length: 10 }, (_, i) => i), 2);
    await list[0];
    // Scheduled after the first chunk: runs before the last chunk is released.
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    expect(ranBetween).toBe(false);
    await list[9];
    expect(ranBetween).toBe(true);
  });
});

describe('LargeAnswerGate: large answers built one at a time', () => {
  it('lets the second caller wait for the first, in arrival order', async () => {
    const gate = new LargeAnswerGate({ slots: 1 });
    const order: string[] = [];
    const first = await gate.enter();
    const second = gate.enter().then((release) => (order.push('second'), release));
    const third = gate.enter().then((release) => (order.push('third'), release));
    await turn();
    expect(order).toEqual([]);
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(['second', 'third']);
    // Every slot is free again.
    (await gate.enter())();
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After at once when too many wait', async () => {
    const gate = new LargeAnswerGate({ slots: 1, maxWaiting: 1 });
    const first = await gate.enter();
    const waiting = gate.enter();
    await expect(gate.enter()).rejects.toMatchObject({ extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503, headers: { 'Retry-After': '5' } } } });
    first();
    (await waiting)();
  });

  it('answers 503 to a caller that waited too long, and forgets it', async () => {
    const gate = new LargeAnswerGate({ slots: 1, maxWaitMs: 20 });
    const first = await gate.enter();
    await expect(gate.enter()).rejects.toMatchObject({ extensions: { code: 'SERVICE_UNAVAILABLE' } });
    first();
    // The slot was not handed to the caller that gave up.
    const next = await gate.enter();
    next();
  });

  it('ignores a second release of the same slot', async () => {
    const gate = new LargeAnswerGate({ slots: 1, maxWaiting: 0 });
    const first = await gate.enter();
    first();
    first();
    const again = await gate.enter();
    await expect(gate.enter()).rejects.toMatchObject({ extensions: { code: 'SERVICE_UNAVAILABLE' } });
    again();
  });
});
