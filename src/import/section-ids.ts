import { CHECK_ORDER } from './check-order.js';
import type { ImportProblems, SectionName } from './import-problems.js';

/**
 * The ids of one section in file order: "ids are unique within the file". Each id keeps its first
 * position; a repeated one is reported where it repeats. The ids are kept as given: a streamed
 * section passes detached copies (detachedString), so that they hold no piece of the file.
 */
export class SectionIds {
  private readonly first = new Map<string, number>();
  /** The id at each position (undefined: the record has none, or no string one). */
  private readonly idAt: (string | undefined)[] = [];

  constructor(
    private readonly section: SectionName,
    private readonly problems: ImportProblems,
  ) {}

  add(index: number, id: string | undefined): void {
    this.idAt[index] = id;
    if (id === undefined) return;
    const earlier = this.first.get(id);
    if (earlier === undefined) this.first.set(id, index);
    else {
      const { section } = this;
      this.problems.add(`${section}[${index}].id: duplicate id ${JSON.stringify(id)} (also ${section}[${earlier}])`, {
        section,
        index,
        check: CHECK_ORDER.duplicateId,
      });
    }
  }

  has(id: string): boolean {
    return this.first.has(id);
  }

  /** The first position of the id in the section. */
  firstIndex(id: string): number | undefined {
    return this.first.get(id);
  }

  at(index: number): string | undefined {
    return this.idAt[index];
  }

  /** Every distinct id, in the order of first appearance. */
  ids(): string[] {
    return [...this.first.keys()];
  }
}
