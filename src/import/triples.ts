/**
 * A growing list of integer triples: three ints per open reference instead of an object each.
 * Every category reference of every event stays open until the end of the file (a later
 * `retiredCategories` may still retire it): millions in a large file.
 */
export class Triples {
  private data = new Int32Array(3 * 1024);
  length = 0;

  push(a: number, b: number, c: number): void {
    if (3 * (this.length + 1) > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set([a, b, c], 3 * this.length);
    this.length++;
  }

  *[Symbol.iterator](): Generator<[number, number, number]> {
    for (let i = 0; i < this.length; i++) yield [this.data[3 * i]!, this.data[3 * i + 1]!, this.data[3 * i + 2]!];
  }
}
