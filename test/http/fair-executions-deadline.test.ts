import { describe, expect, it } from 'vitest';
import { FairExecutions, type Share } from '../../src/http/fair-executions.js';

const anonymous = (key: string): Share => ({ shareKey: key, shareClass: 'anonymous' });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves when `release` is called: an execution that holds its slot until then. */
function held(): { task: () => Promise<string>; release: () => void } {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { task: () => done.then(() => 'held'), release };
}

describe('FairExecutions: a request waits at most maxWaitMs for its turn', () => {
  it('refuses each waiting request when its own wait reaches maxWaitMs, while the slot stays taken', async () => {
    const executions = new FairExecutions({ slots: 1, maxWaitingAndRunning: 100, maxPerCaller: 100, maxWaitMs: 400 });
    const slow = held();
    const running = executions.run(anonymous('a'), slow.task);
    const started = performance.now();
    const settledAt: Record<string, number> = {};
    const wait = (name: string, key: string) =>
      executions.run(anonymous(key), () => Promise.resolve(name)).then((outcome) => ((settledAt[name] = performance.now() - started), outcome));
    const early = [wait('first', 'a'), wait('second', 'b')];
    await sleep(200);
    const late = wait('late', 'c');
    expect(await Promise.all(early)).toEqual([
      { ran: false, refusal: 'waited-too-long' },
      { ran: false, refusal: 'waited-too-long' },
    ]);
    // The early two at their deadline, not when the slot freed; the late one not yet.
    expect(settledAt['late']).toBeUndefined();
    expect(await late).toEqual({ ran: false, refusal: 'waited-too-long' });
    expect(settledAt['first']!).toBeGreaterThanOrEqual(390);
    expect(settledAt['late']! - settledAt['first']!).toBeGreaterThanOrEqual(150);
    expect(executions.load).toMatchObject({ running: 1, waiting: 0 });
    slow.release();
    expect(await running).toEqual({ ran: true, value: 'held' });
    // Nothing is left of the refused ones: the next request runs at once.
    expect(await executions.run(anonymous('d'), () => Promise.resolve('next'))).toEqual({ ran: true, value: 'next' });
    // The refused callers' turns are passed over once the loop has turned (nextAfterArrivals).
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(executions.load).toEqual({ running: 0, waiting: 0, callers: 0 });
  });

  it('runs a request whose turn comes before its deadline, and refuses none of those later', async () => {
    const executions = new FairExecutions({ slots: 1, maxWaitingAndRunning: 100, maxPerCaller: 100, maxWaitMs: 150 });
    const first = held();
    const running = executions.run(anonymous('a'), first.task);
    const waiting = Array.from({ length: 20 }, (_, i) => executions.run(anonymous(`caller ${i % 3}`), () => Promise.resolve(i)));
    await sleep(20);
    first.release();
    await running;
    expect(await Promise.all(waiting)).toEqual(Array.from({ length: 20 }, (_, i) => ({ ran: true, value: i })));
    // Past every deadline: no late refusal of what ran, and nothing waits.
    await sleep(200);
    expect(executions.load).toEqual({ running: 0, waiting: 0, callers: 0 });
  });
});
