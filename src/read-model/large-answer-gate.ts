import { serviceUnavailable } from '../api-error.js';

/** Releases a slot taken with `LargeAnswerGate.enter`; calling it again does nothing. */
export type ReleaseSlot = () => void;

export interface LargeAnswerGateOptions {
  /** Large answers built at once. @default 1 */
  slots?: number;
  /** Requests allowed to wait for a slot; more are answered 503 at once. @default 8 */
  maxWaiting?: number;
  /** Longest wait for a slot; past it the request is answered 503 (it would pass the request deadline anyway). @default 4000 */
  maxWaitMs?: number;
}

/**
 * Bounds how many answers of unbounded size (a whole-world `allUpcomingEventsInArea`: one record per
 * event of the calendar) are built at once in this process. Each holds every record of its answer
 * until it is written, so two at once hold twice the memory and share the CPU, and every other request
 * waits behind them: with one slot, the memory such answers take is one answer's, and the others
 * (small pages, `/health`) interleave with one builder instead of many. A second large answer waits
 * its turn in arrival order; waiting is bounded in count and time, so a flood of distinct boxes is
 * answered 503 + Retry-After at once instead of queueing without bound. Small answers never wait.
 */
export class LargeAnswerGate {
  private readonly slots: number;
  private readonly maxWaiting: number;
  private readonly maxWaitMs: number;
  private busy = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(options: LargeAnswerGateOptions = {}) {
    this.slots = options.slots ?? 1;
    this.maxWaiting = options.maxWaiting ?? 8;
    this.maxWaitMs = options.maxWaitMs ?? 4000;
  }

  /** Takes a slot, waiting for one when all are busy; rejects with a 503 SERVICE_UNAVAILABLE when it cannot. */
  enter(): Promise<ReleaseSlot> {
    if (this.busy < this.slots) {
      this.busy++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.maxWaiting) {
      return Promise.reject(serviceUnavailable(`The service is building ${this.busy} large answers already and ${this.waiting.length} wait. Retry shortly, or ask a smaller area.`));
    }
    return new Promise((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        // The slot passes from the releaser to this waiter: `busy` stays as it is.
        resolve(this.releaser());
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(serviceUnavailable(`A large answer waited ${this.maxWaitMs} ms for its turn. Retry shortly, or ask a smaller area.`));
      }, this.maxWaitMs);
      this.waiting.push(turn);
    });
  }

  private releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    };
  }
}
