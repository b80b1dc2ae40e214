import { detachedString } from './detached-string.js';

/**
 * Small numbers for the few distinct ids that many references repeat (categories, venues,
 * organizers), so that an open reference is a number (see Triples) and each id is kept once.
 */
export class Ordinals {
  private readonly numbers = new Map<string, number>();
  readonly names: string[] = [];

  of(name: string): number {
    let n = this.numbers.get(name);
    if (n === undefined) {
      n = this.names.length;
      const kept = detachedString(name);
      this.numbers.set(kept, n);
      this.names.push(kept);
    }
    return n;
  }
}
