import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';

/**
 * The `limit` first nodes by listing order among those offered (a max-heap of date indices whose
 * top is the last one kept), so a page is found in one pass without sorting every node.
 */
export class BestNodes {
  private readonly heap: number[] = [];
  private readonly start: Float64Array;
  private readonly event: Uint32Array;
  private readonly id: Float64Array;

  constructor(snapshot: CalendarSnapshot, private readonly limit: number) {
    this.start = snapshot.dateStart;
    this.event = snapshot.dateEvent;
    this.id = snapshot.dateId;
  }

  /** Whether date a is listed before date b. */
  private before(a: number, b: number): boolean {
    const sa = this.start[a]!;
    const sb = this.start[b]!;
    if (sa !== sb) return sa < sb;
    const ea = this.event[a]!;
    const eb = this.event[b]!;
    if (ea !== eb) return ea < eb;
    return this.id[a]! < this.id[b]!;
  }

  offer(date: number): void {
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(date);
      let child = heap.length - 1;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (!this.before(heap[parent]!, heap[child]!)) break;
        [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
        child = parent;
      }
      return;
    }
    if (!this.before(date, heap[0]!)) return;
    heap[0] = date;
    let parent = 0;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let largest = parent;
      if (left < heap.length && this.before(heap[largest]!, heap[left]!)) largest = left;
      if (right < heap.length && this.before(heap[largest]!, heap[right]!)) largest = right;
      if (largest === parent) break;
      [heap[parent], heap[largest]] = [heap[largest]!, heap[parent]!];
      parent = largest;
    }
  }

  sorted(): number[] {
    return [...this.heap].sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
  }
}
