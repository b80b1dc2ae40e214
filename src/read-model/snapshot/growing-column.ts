/** A typed column that grows by doubling (only its first `length` elements are used). */
export class GrowingColumn<T extends Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array> {
  length = 0;
  constructor(public array: T, private readonly make: (size: number) => T) {}
  /** Lets the array go (its values were copied elsewhere): empty again. */
  release(): void {
    this.array = this.make(0);
    this.length = 0;
  }
  push(value: number): void {
    if (this.length === this.array.length) {
      const bigger = this.make(Math.max(1024, this.array.length * 2));
      bigger.set(this.array);
      this.array = bigger;
    }
    this.array[this.length++] = value;
  }
}
