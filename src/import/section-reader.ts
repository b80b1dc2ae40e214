import type { CalendarPart } from './calendar-parts.js';
import { formatPath, isSectionName, SECTION_NAMES, type ImportProblems, type SectionName } from './import-problems.js';

/** What the reader hands on: the elements of each section's list, as they come. */
export interface SectionHandler {
  /** A section's list begins; `length` when the source knows it ahead. */
  listBegins(section: SectionName, length: number | undefined): void;
  element(section: SectionName, index: number, value: unknown): Promise<void>;
  listEnds(section: SectionName): Promise<void>;
}

/**
 * The top level of a calendar, part by part: which key comes, whether it is a section and a list,
 * and which element of it this is. The keys may come in any order, each at most once. The problems
 * of the top level are its own (unknown key, duplicate key, no list, no object); the elements go
 * to the handler.
 */
export class SectionReader {
  private readonly seenKeys = new Set<string>();
  /** Sections whose list has ended (or that are not lists): what they hold is known in full. */
  private readonly completeSections = new Set<SectionName>();
  /** Sections that are not lists: their ids are unknown, so references into them are not checked. */
  private readonly unreadableSections = new Set<SectionName>();
  private current: SectionName | null = null;
  private index = 0;

  constructor(
    private readonly handler: SectionHandler,
    private readonly problems: ImportProblems,
  ) {}

  complete(section: SectionName): boolean {
    return this.completeSections.has(section);
  }

  unreadable(section: SectionName): boolean {
    return this.unreadableSections.has(section);
  }

  async take(part: CalendarPart): Promise<void> {
    switch (part.kind) {
      case 'element':
        if (this.current !== null) await this.handler.element(this.current, this.index++, part.value);
        return;
      case 'end':
        if (this.current !== null) {
          await this.handler.listEnds(this.current);
          this.completeSections.add(this.current);
        }
        this.current = null;
        return;
      case 'notAnObject':
        this.problems.add(`(root): expected a JSON object with the keys ${SECTION_NAMES.join(', ')}; got ${part.description}`);
        return;
      default:
        this.beginKey(part);
    }
  }

  private beginKey(part: Extract<CalendarPart, { key: string }>): void {
    const { key } = part;
    const repeated = this.seenKeys.has(key);
    this.seenKeys.add(key);
    this.current = null;
    if (!isSectionName(key)) {
      if (!repeated) this.problems.add(`${formatPath([key])}: unknown key`);
      return;
    }
    if (repeated) {
      // JSON.parse would keep the last one silently; a stream cannot take the first one back.
      this.problems.add(`${key}: duplicate key (the file lists it twice)`, { section: key });
      return;
    }
    if (part.kind === 'list') {
      this.current = key;
      this.index = 0;
      this.handler.listBegins(key, part.length);
    } else {
      if (part.kind === 'value') {
        this.problems.add(`${key}: expected a list, got ${part.description}`, { section: key });
        this.unreadableSections.add(key);
      }
      this.completeSections.add(key);
    }
  }
}
