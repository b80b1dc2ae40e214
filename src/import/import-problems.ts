import { detachedString } from './detached-string.js';
import { calendarFileSections } from './import-format.js';

export type SectionName = keyof typeof calendarFileSections;
/** The sections in the order the loader reports (and writes) them. */
export const SECTION_NAMES = Object.keys(calendarFileSections) as SectionName[];

export function isSectionName(key: string): key is SectionName {
  return (SECTION_NAMES as string[]).includes(key);
}

/** The file was rejected; nothing was written. One `json.path: message` line per problem. */
export class ImportValidationError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`The import file has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.join('\n')}`);
    this.name = 'ImportValidationError';
    this.problems = problems;
  }
}

/** Where a problem lies: a record of a section, and which check of that record found it. */
export interface ProblemPlace {
  section: SectionName;
  /** Position in the section's list; left out for the section itself ("events: expected a list"). */
  index?: number;
  /** The check, in the order the checks of one record are reported (0: the record's own shape). */
  check?: number;
  /** Position within the check, e.g. k of `categories[k]`, so late findings still sort in place. */
  sub?: number;
}

interface Problem {
  line: string;
  section: number;
  index: number;
  check: number;
  sub: number;
}

/**
 * Every problem of one file, reported in file order whatever order they were found in: top-level
 * keys first, then section by section and record by record, and within a record its shape, then
 * its references in a fixed order. A streamed import finds some problems only at the end of the
 * file (a reference to a venue listed later, a slug a stored event gives up later), so each
 * problem carries its place instead of relying on when it was found.
 */
export class ImportProblems {
  private readonly problems: Problem[] = [];

  get count(): number {
    return this.problems.length;
  }

  /** A problem of the file as a whole or of a top-level key (no place): reported first, in order. */
  add(line: string, place?: ProblemPlace): void {
    this.problems.push({
      // A bad file can have a problem in every record: none may keep its piece of the file alive.
      line: detachedString(line),
      section: place ? SECTION_NAMES.indexOf(place.section) : -1,
      index: place?.index ?? -1,
      check: place?.check ?? 0,
      sub: place?.sub ?? 0,
    });
  }

  /** Array.prototype.sort is stable: problems of one place stay in the order they were found. */
  inFileOrder(): string[] {
    return [...this.problems]
      .sort((a, b) => a.section - b.section || a.index - b.index || a.check - b.check || a.sub - b.sub)
      .map((p) => p.line);
  }
}

/** `events[3].dates[0].start`; keys that are not identifiers are bracketed and quoted. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = String(segment);
      out += /^[A-Za-z_$][\w$]*$/.test(key) ? `${out ? '.' : ''}${key}` : `[${JSON.stringify(key)}]`;
    }
  }
  return out || '(root)';
}

/** A value as a problem line names it: `the string "…"`, `a list`, `number 3`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' || typeof value === 'boolean' ? `${typeof value} ${String(value)}` : typeof value;
}
