/**
 * Ascending runs of ranks merged into one ascending sequence, one rank at a time (a binary heap of
 * the runs' heads): a walk that stops early merges only what it read.
 */
export class RankMerge {
  /** Run numbers, ordered as a min-heap by their current head. */
  private readonly heap: number[] = [];
  private readonly at: Uint32Array;

  constructor(private readonly runs: readonly Uint32Array[]) {
    this.at = new Uint32Array(runs.length);
    for (let r = 0; r < runs.length; r++) if (runs[r]!.length > 0) this.push(r);
  }

  /** The next rank, or -1 when every run is used up. */
  next(): number {
    const heap = this.heap;
    if (heap.length === 0) return -1;
    const run = heap[0]!;
    const rank = this.runs[run]![this.at[run]!]!;
    this.at[run] = this.at[run]! + 1;
    if (this.at[run] < this.runs[run]!.length) this.siftDown(0);
    else {
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        this.siftDown(0);
      }
    }
    return rank;
  }

  private head(run: number): number {
    return this.runs[run]![this.at[run]!]!;
  }

  private push(run: number): void {
    const heap = this.heap;
    heap.push(run);
    let child = heap.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.head(heap[parent]!) <= this.head(heap[child]!)) break;
      [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
      child = parent;
    }
  }

  private siftDown(from: number): void {
    const heap = this.heap;
    for (let parent = from; ; ) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < heap.length && this.head(heap[left]!) < this.head(heap[smallest]!)) smallest = left;
      if (right < heap.length && this.head(heap[right]!) < this.head(heap[smallest]!)) smallest = right;
      if (smallest === parent) return;
      [heap[parent], heap[smallest]] = [heap[smallest]!, heap[parent]!];
      parent = smallest;
    }
  }
}
