import type { GraphQLError } from 'graphql';
import { rateLimited, serviceUnavailable } from '../api-error.js';
import { countExecutionRefused, observeExecutionStart, type ShareClass } from '../telemetry/metrics.js';

/** Whose share a request draws on (RequestCaller has both). */
export interface Share {
  shareKey: string;
  shareClass: ShareClass;
}

/**
 * Fair shares of execution (issue 29): requests that must execute (cache misses) run at most
 * `slots` at once; the rest wait in one queue per caller (RequestCaller.shareKey), and a free slot
 * goes to the callers in turn (round robin), each caller's requests in the order they came. A
 * caller with 64 requests waiting delays another caller's single request by at most one execution
 * per slot; a single caller's requests are served in arrival order (no tail of requests overtaken
 * again and again). Cache hits never come here.
 *
 * Bounds: `maxWaitingAndRunning` in all (more are refused at once: load shedding, 503), and at most
 * `maxPerCaller` of one caller (more are refused: 429, that caller's share is taken). A request
 * that waited longer than `maxWaitMs`, or whose client left meanwhile, is not run.
 */
export interface FairExecutionsOptions {
  /** Executions at once (EXECUTION_SLOTS; config.ts's DEFAULT_EXECUTION_SLOTS). */
  slots: number;
  /** Executions running and waiting, of every caller (MAX_IN_FLIGHT_REQUESTS). */
  maxWaitingAndRunning: number;
  /** Executions running and waiting of one caller. */
  maxPerCaller: number;
  /** Longest a request waits for a slot before it is answered 503 instead. */
  maxWaitMs: number;
}

/** Why a request was not run. */
export type Refusal =
  /** The service is full (every caller): 503. */
  | 'busy'
  /** This caller has its most executions running or waiting already: 429. */
  | 'caller-busy'
  /** It waited longer than maxWaitMs: 503. */
  | 'waited-too-long'
  /** Its client left while it waited: nothing to answer. */
  | 'gone';

const REFUSAL_LABELS = { busy: 'busy', 'caller-busy': 'caller_busy', 'waited-too-long': 'waited_too_long', gone: 'gone' } as const;

export type Executed<T> = { ran: true; value: T } | { ran: false; refusal: Refusal };

const NEVER_GONE = () => false;

interface Waiting {
  /** Settles the wait: undefined to run, else why not. */
  resolve: (refusal: Refusal | undefined) => void;
  gone: () => boolean;
  /** Started, or refused already (it waited maxWaitMs): skipped when its turn comes, or its deadline. */
  done: boolean;
  /** When it is refused for having waited too long (performance.now() time). */
  deadline: number;
  queue: CallerQueue;
}

/** One caller's requests: how many run, and those waiting in arrival order. */
interface CallerQueue {
  running: number;
  /** Waiting and not refused yet (the array may still hold some that timed out). */
  live: number;
  waiting: Waiting[];
  /** Index of the next waiting one (a queue without shifting the array each time). */
  head: number;
}

export class FairExecutions {
  private running = 0;
  private waitingCount = 0;
  private readonly callers = new Map<string, CallerQueue>();
  /** Callers with requests waiting, in the order they get the next free slots. */
  private readonly turns: string[] = [];
  private turnsHead = 0;
  /**
   * Every waiting request in arrival order, which is also the order of their deadlines (one maxWaitMs
   * for all): one timer, for the oldest one's deadline, instead of a timer per waiting request.
   */
  private readonly byDeadline: Waiting[] = [];
  private byDeadlineHead = 0;
  private deadlineTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: FairExecutionsOptions) {}

  get maxPerCaller(): number {
    return this.options.maxPerCaller;
  }

  get maxWaitingAndRunning(): number {
    return this.options.maxWaitingAndRunning;
  }

  /** Executions running and waiting now (for metrics and tests). */
  get load(): { running: number; waiting: number; callers: number } {
    return { running: this.running, waiting: this.waitingCount, callers: this.callers.size };
  }

  /**
   * Runs `task` in `caller`'s turn: at once when a slot is free and nobody waits, else when its turn
   * comes, telling it how long it waited (a request's time limit counts its wait). `gone` tells
   * whether the client has left (its request is then dropped, not run).
   */
  async run<T>(share: Share, task: (waitedMs: number) => Promise<T>, gone: () => boolean = NEVER_GONE): Promise<Executed<T>> {
    const { options } = this;
    const caller = share.shareKey;
    if (this.running + this.waitingCount >= options.maxWaitingAndRunning) return this.refused(share, 'busy');
    let queue = this.callers.get(caller);
    if (queue && queue.running + queue.live >= options.maxPerCaller) return this.refused(share, 'caller-busy');
    if (!queue) this.callers.set(caller, (queue = { running: 0, live: 0, waiting: [], head: 0 }));

    let waitedMs = 0;
    if (this.running < options.slots && this.waitingCount === 0) {
      this.running += 1;
      queue.running += 1;
      observeExecutionStart(share.shareClass, 0);
    } else {
      const since = performance.now();
      const admitted = await new Promise<Refusal | undefined>((resolve) => {
        if (queue.waiting.length === queue.head) this.turns.push(caller);
        const waiting: Waiting = { resolve, gone, done: false, deadline: since + options.maxWaitMs, queue };
        queue.waiting.push(waiting);
        queue.live += 1;
        this.waitingCount += 1;
        // Answered 503 when its wait reaches maxWaitMs, not only when a slot frees (a stuck database holds every slot).
        this.byDeadline.push(waiting);
        this.deadlineTimer ??= setTimeout(() => this.refuseOverdue(), options.maxWaitMs);
      });
      if (admitted !== undefined) return this.refused(share, admitted);
      waitedMs = performance.now() - since;
      observeExecutionStart(share.shareClass, waitedMs / 1000);
    }
    try {
      return { ran: true, value: await task(waitedMs) };
    } finally {
      this.running -= 1;
      queue.running -= 1;
      if (queue.running === 0 && queue.waiting.length === queue.head) this.callers.delete(caller);
      this.nextAfterArrivals();
    }
  }

  /**
   * Hands the freed slot on once the event loop has read what arrived meanwhile (setImmediate runs
   * after its I/O phase). Executions that need no I/O (every record read from the read model's
   * memory) would otherwise pass the slot from one waiting request to the next without the loop ever
   * reading a socket: one caller's queue would drain whole before another's request is even seen.
   */
  private nextAfterArrivals(): void {
    if (this.turnsHead === this.turns.length || this.nextScheduled) return;
    this.nextScheduled = true;
    setImmediate(() => {
      this.nextScheduled = false;
      this.next();
    });
  }
  private nextScheduled = false;

  /** Refuses the requests whose wait reached maxWaitMs, then sets the timer for the next deadline. */
  private refuseOverdue(): void {
    this.deadlineTimer = undefined;
    const now = performance.now();
    const list = this.byDeadline;
    while (this.byDeadlineHead < list.length) {
      const waiting = list[this.byDeadlineHead]!;
      if (!waiting.done && waiting.deadline > now) break;
      list[this.byDeadlineHead++] = undefined as unknown as Waiting;
      if (waiting.done) continue;
      waiting.done = true;
      waiting.queue.live -= 1;
      this.waitingCount -= 1;
      waiting.resolve('waited-too-long');
    }
    this.compactDeadlines();
    if (this.byDeadlineHead < list.length) this.deadlineTimer = setTimeout(() => this.refuseOverdue(), Math.max(1, list[this.byDeadlineHead]!.deadline - now));
  }

  /** Drops the oldest entries that started already; compacts now and then (the list only grows at its end). */
  private compactDeadlines(): void {
    const list = this.byDeadline;
    while (this.byDeadlineHead < list.length && list[this.byDeadlineHead]!.done) list[this.byDeadlineHead++] = undefined as unknown as Waiting;
    if (this.byDeadlineHead === list.length) {
      list.length = 0;
      this.byDeadlineHead = 0;
      clearTimeout(this.deadlineTimer);
      this.deadlineTimer = undefined;
    } else if (this.byDeadlineHead > 1024 && this.byDeadlineHead * 2 > list.length) {
      list.splice(0, this.byDeadlineHead);
      this.byDeadlineHead = 0;
    }
  }

  private refused(share: Share, refusal: Refusal): Executed<never> {
    countExecutionRefused(share.shareClass, REFUSAL_LABELS[refusal]);
    return { ran: false, refusal };
  }

  /** Gives free slots to the callers in turn; drops requests that waited too long or whose client left. */
  private next(): void {
    while (this.running < this.options.slots && this.turnsHead < this.turns.length) {
      const caller = this.turns[this.turnsHead++]!;
      const queue = this.callers.get(caller)!;
      const waiting = queue.waiting[queue.head]!;
      queue.waiting[queue.head++] = undefined as unknown as Waiting;
      const more = queue.head < queue.waiting.length;
      if (more) this.turns.push(caller);
      else {
        queue.waiting.length = 0;
        queue.head = 0;
      }
      if (waiting.done) {
        // Timed out while waiting (already answered): the turn passes on.
        if (queue.running === 0 && !more) this.callers.delete(caller);
        continue;
      }
      waiting.done = true;
      queue.live -= 1;
      this.waitingCount -= 1;
      if (waiting.gone()) {
        if (queue.running === 0 && !more) this.callers.delete(caller);
        waiting.resolve('gone');
        continue;
      }
      this.running += 1;
      queue.running += 1;
      waiting.resolve(undefined);
    }
    this.compactDeadlines();
    if (this.turnsHead === this.turns.length) {
      this.turns.length = 0;
      this.turnsHead = 0;
    } else if (this.turnsHead > 1024 && this.turnsHead * 2 > this.turns.length) {
      // Compact now and then: the ring only ever grows at its end.
      this.turns.splice(0, this.turnsHead);
      this.turnsHead = 0;
    }
  }
}

/** What a request the fair shares did not run is answered (GraphQL and the feed alike). */
export function refusalError(refusal: Refusal, executions: FairExecutions): GraphQLError {
  switch (refusal) {
    case 'caller-busy':
      return rateLimited(
        `This caller has ${executions.maxPerCaller} requests running or waiting already; others are served meanwhile. Send fewer at once, or retry shortly.`,
        1,
      );
    case 'busy':
      return serviceUnavailable(`The service is answering ${executions.maxWaitingAndRunning} requests already. Retry shortly.`);
    case 'waited-too-long':
    case 'gone':
      return serviceUnavailable('The service is busy: this request waited too long for its turn. Retry shortly.');
  }
}
