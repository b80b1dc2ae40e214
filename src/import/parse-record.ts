import type { z } from 'zod';
import { describe, formatPath, type ImportProblems, type SectionName } from './import-problems.js';
import { isRawRecord, type RawRecord } from './raw-record.js';

/** One element of a section: as written, and as its schema parsed it. */
export interface ParsedItem<T> {
  index: number;
  /** null: the element is not an object (its schema problem says so; no reference check applies). */
  record: RawRecord | null;
  /** null: the element has schema problems (reported); it is never written. */
  parsed: T | null;
}

/**
 * Parses one element of a section with its zod schema; every issue becomes a problem line at the
 * element's place (check 0: the record's own shape comes before its references).
 */
export function parseRecord<T>(section: SectionName, schema: z.ZodType<T>, index: number, value: unknown, problems: ImportProblems): ParsedItem<T> {
  const result = schema.safeParse(value, { error: issueMessage });
  if (!result.success) {
    for (const issue of result.error.issues) {
      for (const line of formatIssue([section, index], issue)) problems.add(line, { section, index });
    }
  }
  return { index, record: isRawRecord(value) ? value : null, parsed: result.success ? result.data : null };
}

export function formatIssue(prefix: readonly PropertyKey[], issue: z.core.$ZodIssue): string[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${formatPath([...path, key])}: unknown key`);
  return [`${formatPath(path)}: ${issue.message}`];
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** Messages for the issues zod words generically; schema-specific messages take precedence. */
export function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describe(issue.input)}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describe(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      if (issue.origin === 'number' || issue.origin === 'int') return `must be at least ${String(issue.minimum)}`;
      return undefined;
    case 'too_big':
      if (issue.origin === 'number' || issue.origin === 'int') return `must be at most ${String(issue.maximum)}`;
      return undefined;
    default:
      return undefined;
  }
}
