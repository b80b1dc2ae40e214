/**
 * What `npm run schema:check` and `npm run release` decide (docs/regenerate.md): the changes between
 * the released schema and the current one, graded by graphql-inspector as breaking, dangerous or
 * safe; which breaking ones CHANGELOG.md announces; and whether every persisted document in
 * `queries/` still validates against the current schema.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import {
  buildSchema,
  GraphQLError,
  Kind,
  parse,
  Source,
  validate,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

/** Where the files are, relative to the project's root. */
export const FILES = {
  current: 'schema.graphql',
  released: 'schema/released.graphql',
  changelog: 'CHANGELOG.md',
  queries: 'queries',
} as const;

export type Grade = 'breaking' | 'dangerous' | 'safe';

export interface SchemaChange {
  grade: Grade;
  /** graphql-inspector's path of what changed: `Query.events`, `Filter.sortBy`, `Query.events.filter` (an argument). */
  path: string;
  message: string;
  /** Why it is breaking or dangerous, in graphql-inspector's words. */
  reason?: string | undefined;
}

const GRADES: Record<CriticalityLevel, Grade> = {
  [CriticalityLevel.Breaking]: 'breaking',
  [CriticalityLevel.Dangerous]: 'dangerous',
  [CriticalityLevel.NonBreaking]: 'safe',
};

/** Every change from the released SDL to the current one, breaking first, then dangerous, then safe. */
export async function schemaChanges(released: GraphQLSchema, current: GraphQLSchema): Promise<SchemaChange[]> {
  const order: Record<Grade, number> = { breaking: 0, dangerous: 1, safe: 2 };
  return (await diff(released, current))
    .map((change) => ({
      grade: GRADES[change.criticality.level],
      // A change with no path (the schema's root types) is named by its type.
      path: change.path ?? String(change.type),
      message: change.message,
      reason: change.criticality.reason,
    }))
    .sort((a, b) => order[a.grade] - order[b.grade]);
}

/**
 * The names under `### Breaking` in CHANGELOG's `## [Unreleased]` section: every `backticked` name
 * there. A breaking change is announced when its path appears among them (`Filter.sortBy`,
 * `Query.events.filter`; an argument may also be written as a schema coordinate,
 * `Query.events(filter:)`).
 */
export function announcedBreakingChanges(changelog: string): Set<string> {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => /^## \[?Unreleased\]?\s*$/i.test(line));
  const names = new Set<string>();
  if (start < 0) return names;
  let inBreaking = false;
  for (const line of lines.slice(start + 1)) {
    if (/^## /.test(line)) break;
    if (/^### /.test(line)) inBreaking = /^### Breaking\b/i.test(line);
    else if (inBreaking) for (const [, name] of line.matchAll(/`([^`\s]+)`/g)) names.add(coordinateAsPath(name!));
  }
  return names;
}

/** `Type.field(arg:)` → `Type.field.arg` (graphql-inspector's path); anything else as it is. */
function coordinateAsPath(name: string): string {
  const argument = /^([^.()]+\.[^.()]+)\(([^:()]+):\)$/.exec(name);
  return argument ? `${argument[1]}.${argument[2]}` : name;
}

/** One problem of a persisted document: where, and what. */
export interface DocumentProblem {
  /** `queries/events-page.graphql:4:3` */
  at: string;
  /** `query EventsPage`, or the file for a syntax error. */
  document: string;
  message: string;
}

/**
 * Validates every operation in `queries/*.graphql` against `schema` (graphql's `validate`, all its
 * rules), each with the fragments it spreads from any file, as codegen makes the persisted documents.
 */
export function persistedDocumentProblems(schema: GraphQLSchema, files: readonly { name: string; text: string }[]): { operations: number; problems: DocumentProblem[] } {
  const problems: DocumentProblem[] = [];
  const operations: OperationDefinitionNode[] = [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const file of files) {
    let document: DocumentNode;
    try {
      document = parse(new Source(file.text, file.name));
    } catch (error) {
      problems.push(problemOf(error as GraphQLError, file.name));
      continue;
    }
    for (const definition of document.definitions) {
      if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
      else if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
  }
  for (const operation of operations) {
    const name = `${operation.operation} ${operation.name?.value ?? '(anonymous)'}`;
    const definitions: DefinitionNode[] = [operation, ...spreadFragments(operation, fragments)];
    for (const error of validate(schema, { kind: Kind.DOCUMENT, definitions })) problems.push(problemOf(error, name));
  }
  return { operations: operations.length, problems };
}

/** The fragments an operation spreads, directly or through other fragments. */
function spreadFragments(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): FragmentDefinitionNode[] {
  const found = new Map<string, FragmentDefinitionNode>();
  const pending: (OperationDefinitionNode | FragmentDefinitionNode)[] = [operation];
  while (pending.length > 0) {
    visit(pending.pop()!, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (fragment && !found.has(spread.name.value)) {
          found.set(spread.name.value, fragment);
          pending.push(fragment);
        }
      },
    });
  }
  return [...found.values()];
}

function problemOf(error: GraphQLError, document: string): DocumentProblem {
  const node = error.nodes?.[0];
  const source = node?.loc?.source ?? error.source;
  const location = error.locations?.[0];
  return { at: `${source?.name ?? '?'}${location ? `:${location.line}:${location.column}` : ''}`, document, message: error.message };
}

export interface SchemaCheck {
  changes: SchemaChange[];
  /** Breaking changes whose path is not under `### Breaking` in CHANGELOG's Unreleased section. */
  unannounced: SchemaChange[];
  operations: number;
  problems: DocumentProblem[];
  ok: boolean;
}

/** The whole check over the project at `root`: the files of {@link FILES}. */
export async function checkSchema(root: string): Promise<SchemaCheck> {
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
  if (!existsSync(path.join(root, FILES.released))) throw new Error(`${FILES.released} is missing: the schema of the last release (docs/regenerate.md)`);
  const current = buildSchema(read(FILES.current));
  const changes = await schemaChanges(buildSchema(read(FILES.released)), current);
  const announced = announcedBreakingChanges(read(FILES.changelog));
  const unannounced = changes.filter((c) => c.grade === 'breaking' && !announced.has(c.path));
  const queries = readdirSync(path.join(root, FILES.queries))
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => ({ name: `${FILES.queries}/${name}`, text: read(path.join(FILES.queries, name)) }));
  const { operations, problems } = persistedDocumentProblems(current, queries);
  return { changes, unannounced, operations, problems, ok: unannounced.length === 0 && problems.length === 0 };
}

const LABELS: Record<Grade, string> = { breaking: 'BREAKING', dangerous: 'DANGEROUS', safe: 'safe' };

/** One line of text: descriptions in messages span lines. */
const oneLine = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The report `npm run schema:check` prints. */
export function describeCheck(check: SchemaCheck): string {
  const count = (grade: Grade) => check.changes.filter((c) => c.grade === grade).length;
  const out: string[] = [];
  out.push(
    `Schema changes since the last release (${FILES.released} → ${FILES.current}): ` +
      (check.changes.length === 0 ? 'none' : `${count('breaking')} breaking, ${count('dangerous')} dangerous, ${count('safe')} safe`),
  );
  const width = Math.max(0, ...check.changes.map((c) => c.path.length));
  for (const change of check.changes) {
    const reason = change.grade === 'safe' || !change.reason ? '' : ` (${oneLine(change.reason, 160)})`;
    out.push(`  ${LABELS[change.grade].padEnd(9)}  ${change.path.padEnd(width)}  ${oneLine(change.message)}${reason}`);
    if (change.grade !== 'breaking') continue;
    out.push(
      check.unannounced.includes(change)
        ? `  ${' '.repeat(9)}  ${' '.repeat(width)}  ✗ not announced: name \`${change.path}\` under "### Breaking" in ${FILES.changelog}'s Unreleased section`
        : `  ${' '.repeat(9)}  ${' '.repeat(width)}  ✓ announced under "### Breaking" in ${FILES.changelog}`,
    );
  }
  const files = `${FILES.queries}/*.graphql`;
  if (check.problems.length === 0) out.push(`Persisted documents (${files}): ${check.operations} operations, all valid against ${FILES.current}`);
  else {
    out.push(`Persisted documents (${files}): ${check.problems.length} problems; a trusted document that no longer validates breaks the clients that send it`);
    for (const problem of check.problems) out.push(`  ${problem.at}  ${problem.document}: ${oneLine(problem.message)}`);
  }
  if (check.ok) out.push('schema:check passed');
  else {
    const reasons = [
      check.unannounced.length > 0 ? `${check.unannounced.length} breaking change(s) not announced in ${FILES.changelog}` : '',
      check.problems.length > 0 ? `${check.problems.length} persisted-document problem(s)` : '',
    ].filter(Boolean);
    out.push(`schema:check failed: ${reasons.join(', ')} (docs/regenerate.md)`);
  }
  return `${out.join('\n')}\n`;
}
