import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/database.js';
import { hashApiKey } from '../domain/api-key-hash.js';
import { osloWallClock } from '../domain/oslo-time.js';
import {
  calendarFileSections,
  forgetImportTimestamps,
  readImportTimestamp,
  type CalendarApiKey,
  type CalendarCategory,
  type CalendarEvent,
  type CalendarOrganizer,
  type CalendarRetiredCategory,
  type CalendarVenue,
} from './import-format.js';

/** What one import wrote. */
export interface ImportSummary {
  categories: number;
  venues: number;
  organizers: number;
  events: number;
  occurrences: number;
  apiKeys: number;
  /** Events deleted because `--replace` was given and the file does not list them. */
  removedEvents: number;
  retiredCategories: number;
}

export interface ImportOptions {
  /** Remove the events the file does not list. @default false */
  replace?: boolean;
  /** Called after each batch of events is written. */
  onProgress?: (done: number, total: number) => void;
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

// PostgreSQL allows 65535 bind parameters per statement; stay below it with room to spare.
const MAX_PARAMETERS = 60_000;
// Events per write batch: also the granularity of progress reports.
const EVENT_BATCH = 2_000;
// "An event without an end time counts as ongoing until three hours after its start."
const NO_END_ONGOING_MS = 3 * 60 * 60 * 1000;

/**
 * Validates a calendar file completely (shape, references against the file and the database,
 * retired ids), then writes it in one transaction. Any problem: ImportValidationError, nothing written.
 */
export async function importCalendar(db: Kysely<Database>, input: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
  try {
    const problems: string[] = [];
    const file = parseFile(input, problems);
    const replace = options.replace ?? false;
    return await db.transaction().execute(async (trx) => {
      // An import runs as long as its file needs: the API's statement timeout is for reads.
      await sql`set local statement_timeout = 0`.execute(trx);
      // The reference checks read the database inside the transaction that writes, so they hold for the write.
      const state = await readDatabaseState(trx, file.raw);
      checkReferences(file, state, replace, problems);
      if (problems.length > 0) throw new ImportValidationError(inFileOrder(problems));
      return writeFile(trx, file, state, replace, options.onProgress);
    });
  } finally {
    forgetImportTimestamps();
  }
}

// ---------------------------------------------------------------------------------------------
// Shape

type RawRecord = Record<string, unknown>;

/** A record of the file as written, whether or not it passed its schema. */
interface RawItem {
  index: number;
  record: RawRecord;
}

type SectionName = keyof typeof calendarFileSections;
const SECTION_NAMES = Object.keys(calendarFileSections) as SectionName[];

interface ParsedFile {
  categories: CalendarCategory[];
  retiredCategories: CalendarRetiredCategory[];
  venues: CalendarVenue[];
  organizers: CalendarOrganizer[];
  events: CalendarEvent[];
  apiKeys: CalendarApiKey[];
  /**
   * The reference checks read the records as written, so that they also run on records that failed
   * their own schema: one pass reports every problem of the file.
   */
  raw: Record<SectionName, RawItem[]>;
  /** Sections that are not lists: their ids are unknown, so references into them are not checked. */
  unreadable: Set<SectionName>;
}

function isPlainObject(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseSection<T>(name: SectionName, schema: z.ZodType<T>, value: unknown, file: ParsedFile, problems: string[]): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`${name}: expected a list, got ${describe(value)}`);
    file.unreadable.add(name);
    return [];
  }
  const raw = file.raw[name];
  const parsed: T[] = [];
  value.forEach((element: unknown, index) => {
    if (isPlainObject(element)) raw.push({ index, record: element });
    const result = schema.safeParse(element, { error: issueMessage });
    if (result.success) parsed.push(result.data);
    else for (const issue of result.error.issues) problems.push(...formatIssue([name, index], issue));
  });
  return parsed;
}

function parseFile(input: unknown, problems: string[]): ParsedFile {
  const raw: ParsedFile['raw'] = { categories: [], retiredCategories: [], venues: [], organizers: [], events: [], apiKeys: [] };
  const file: ParsedFile = { categories: [], retiredCategories: [], venues: [], organizers: [], events: [], apiKeys: [], raw, unreadable: new Set() };
  if (!isPlainObject(input)) {
    problems.push(`(root): expected a JSON object with the keys ${SECTION_NAMES.join(', ')}; got ${describe(input)}`);
    return file;
  }
  for (const key of Object.keys(input)) {
    if (!(SECTION_NAMES as string[]).includes(key)) problems.push(`${formatPath([key])}: unknown key`);
  }
  const s = calendarFileSections;
  file.categories = parseSection('categories', s.categories, input['categories'], file, problems);
  file.retiredCategories = parseSection('retiredCategories', s.retiredCategories, input['retiredCategories'], file, problems);
  file.venues = parseSection('venues', s.venues, input['venues'], file, problems);
  file.organizers = parseSection('organizers', s.organizers, input['organizers'], file, problems);
  file.events = parseSection('events', s.events, input['events'], file, problems);
  file.apiKeys = parseSection('apiKeys', s.apiKeys, input['apiKeys'], file, problems);
  return file;
}

/**
 * Problems in the order of the file: top-level keys, then section by section and record by
 * record, so that the schema and reference problems of one record stand together.
 */
function inFileOrder(problems: string[]): string[] {
  const position = (line: string): [number, number] => {
    const match = /^(\w+)(?:\[(\d+)\])?/.exec(line);
    const section = SECTION_NAMES.indexOf((match?.[1] ?? '') as SectionName);
    return [section, match?.[2] === undefined ? -1 : Number(match[2])];
  };
  // Array.prototype.sort is stable: within a record, schema problems stay before reference problems.
  return problems
    .map((line) => ({ line, at: position(line) }))
    .sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1])
    .map((p) => p.line);
}

/** `events[3].dates[0].start`; keys that are not identifiers are bracketed and quoted. */
function formatPath(path: readonly PropertyKey[]): string {
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

function formatIssue(prefix: readonly PropertyKey[], issue: z.core.$ZodIssue): string[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${formatPath([...path, key])}: unknown key`);
  return [`${formatPath(path)}: ${issue.message}`];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' || typeof value === 'boolean' ? `${typeof value} ${String(value)}` : typeof value;
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
function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
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

/** A string field of a raw record; anything else was already reported by the schema. */
function text(record: RawRecord, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

/** The string entries of a raw list field, with their positions. */
function texts(record: RawRecord, key: string): [index: number, value: string][] {
  const value = record[key];
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: unknown, i): [number, string][] => (typeof v === 'string' ? [[i, v]] : []));
}

function records(record: RawRecord, key: string): RawItem[] {
  const value = record[key];
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: unknown, index): RawItem[] => (isPlainObject(v) ? [{ index, record: v }] : []));
}

function idsOf(items: RawItem[]): Set<string> {
  return new Set(items.map((i) => text(i.record, 'id')).filter((id): id is string => id !== undefined));
}

// ---------------------------------------------------------------------------------------------
// What the database already holds

interface StoredCategory {
  id: string;
  slug_nb: string;
  slug_en: string;
  parent_id: string | null;
}

interface DatabaseState {
  categories: Map<string, StoredCategory>;
  /** Retired id → its replacements. */
  retired: Map<string, string[]>;
  /** Stored `id → slug` of the rows whose id or slug the file uses or references. */
  venues: Map<string, string>;
  organizers: Map<string, string>;
  events: Map<string, string>;
  /** Whether the events table holds any row (a first load can defer index maintenance). */
  hasEvents: boolean;
}

async function idsAndSlugs(
  trx: Transaction<Database>,
  table: 'venues' | 'organizers' | 'events',
  ids: Iterable<string>,
  slugs: Iterable<string>,
): Promise<Map<string, string>> {
  const idList = [...new Set(ids)];
  const slugList = [...new Set(slugs)];
  if (idList.length === 0 && slugList.length === 0) return new Map();
  // Arrays travel as one parameter each, whatever the size of the file.
  const rows = await trx
    .selectFrom(table)
    .select(['id', 'slug'])
    .where(sql<boolean>`id = any(${idList}::text[]) or slug = any(${slugList}::text[])`)
    .execute();
  return new Map(rows.map((r) => [r.id, r.slug]));
}

function fieldValues(items: RawItem[], key: string): string[] {
  return items.map((i) => text(i.record, key)).filter((v): v is string => v !== undefined);
}

async function readDatabaseState(trx: Transaction<Database>, raw: ParsedFile['raw']): Promise<DatabaseState> {
  const categories = await trx.selectFrom('categories').select(['id', 'slug_nb', 'slug_en', 'parent_id']).execute();
  const retired = await trx.selectFrom('retired_categories').select(['id', 'replaced_by']).execute();
  const dates = raw.events.flatMap((e) => records(e.record, 'dates'));
  const referencedVenues = [...fieldValues(raw.events, 'venue'), ...fieldValues(dates, 'venue')];
  const referencedOrganizers = raw.events.flatMap((e) => texts(e.record, 'organizers').map(([, id]) => id));
  return {
    categories: new Map(categories.map((c) => [c.id, c])),
    retired: new Map(retired.map((r) => [r.id, r.replaced_by])),
    venues: await idsAndSlugs(trx, 'venues', [...fieldValues(raw.venues, 'id'), ...referencedVenues], fieldValues(raw.venues, 'slug')),
    organizers: await idsAndSlugs(trx, 'organizers', [...fieldValues(raw.organizers, 'id'), ...referencedOrganizers], fieldValues(raw.organizers, 'slug')),
    events: await idsAndSlugs(
      trx,
      'events',
      [...fieldValues(raw.events, 'id'), ...fieldValues(raw.events, 'superEvent')],
      fieldValues(raw.events, 'slug'),
    ),
    hasEvents: (await trx.selectFrom('events').select('id').limit(1).executeTakeFirst()) !== undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// References

function checkDuplicateIds(section: SectionName, items: RawItem[], problems: string[]): void {
  const first = new Map<string, number>();
  for (const { index, record } of items) {
    const id = text(record, 'id');
    if (id === undefined) continue;
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, index);
    else problems.push(`${section}[${index}].id: duplicate id ${JSON.stringify(id)} (also ${section}[${earlier}])`);
  }
}

/**
 * Slugs must be unique among the rows that exist after the import: stored rows the file does not
 * list (and that survive it) hold their slug first, then the file's records claim theirs in order.
 */
function checkSlugs(
  section: SectionName,
  field: string,
  items: RawItem[],
  stored: Iterable<[id: string, slug: string]>,
  survives: (id: string) => boolean,
  kind: string,
  problems: string[],
): void {
  const fileIds = idsOf(items);
  const claims = new Map<string, { id: string; index?: number }>();
  for (const [id, slug] of stored) if (!fileIds.has(id) && survives(id)) claims.set(slug, { id });
  for (const { index, record } of items) {
    const id = text(record, 'id');
    const slug = text(record, field);
    if (id === undefined || slug === undefined) continue;
    const claim = claims.get(slug);
    if (!claim) claims.set(slug, { id, index });
    else if (claim.id !== id) {
      const holder = claim.index === undefined ? `${kind} ${JSON.stringify(claim.id)}` : `${section}[${claim.index}]`;
      problems.push(`${section}[${index}].${field}: slug ${JSON.stringify(slug)} is already used by ${holder}`);
    }
  }
}

function checkReferences(file: ParsedFile, state: DatabaseState, replace: boolean, problems: string[]): void {
  const { raw, unreadable } = file;
  const fileCategories = idsOf(raw.categories);
  const fileVenues = idsOf(raw.venues);
  const fileOrganizers = idsOf(raw.organizers);
  const fileEvents = idsOf(raw.events);
  // A section that is not a list was reported once; references into it are not reported again.
  const known = (section: SectionName, inFile: Set<string>, stored: { has(id: string): boolean }, id: string): boolean =>
    unreadable.has(section) || inFile.has(id) || stored.has(id);
  const fileRetired = new Map<string, string[]>();
  for (const { record } of raw.retiredCategories) {
    const id = text(record, 'id');
    if (id !== undefined) fileRetired.set(id, texts(record, 'replacedBy').map(([, r]) => r));
  }
  const replacementsOf = (id: string): string[] | undefined => fileRetired.get(id) ?? state.retired.get(id);
  const retiredMessage = (id: string, replacedBy: string[]): string => {
    const hint = replacedBy.length > 0 ? ` (replaced by ${replacedBy.join(', ')})` : '';
    return `category ${JSON.stringify(id)} is retired${hint} and cannot be used again`;
  };
  const categoryProblem = (id: string): string | null => {
    const replacedBy = replacementsOf(id);
    if (replacedBy !== undefined) return retiredMessage(id, replacedBy);
    if (known('categories', fileCategories, state.categories, id)) return null;
    return `unknown category ${JSON.stringify(id)}`;
  };

  // Categories
  checkDuplicateIds('categories', raw.categories, problems);
  const parentOf = new Map<string, string | null>([...state.categories.values()].map((c) => [c.id, c.parent_id]));
  for (const { record } of raw.categories) {
    const id = text(record, 'id');
    if (id !== undefined) parentOf.set(id, text(record, 'parent') ?? null);
  }
  for (const { index, record } of raw.categories) {
    const id = text(record, 'id');
    const parent = text(record, 'parent');
    if (id === undefined) continue;
    const replacedBy = replacementsOf(id);
    if (replacedBy !== undefined) problems.push(`categories[${index}].id: ${retiredMessage(id, replacedBy)}`);
    if (parent === undefined) continue;
    if (parent === id) {
      problems.push(`categories[${index}].parent: a category cannot be its own parent`);
      continue;
    }
    const parentProblem = categoryProblem(parent);
    if (parentProblem) {
      problems.push(`categories[${index}].parent: ${parentProblem}`);
      continue;
    }
    // Walk up; a chain longer than the number of categories has looped.
    let current: string | null | undefined = parent;
    for (let steps = 0; current && steps <= parentOf.size; steps++) {
      if (current === id) {
        problems.push(`categories[${index}].parent: the parent chain loops back to ${JSON.stringify(id)}`);
        break;
      }
      current = parentOf.get(current);
    }
  }
  const storedCategories = [...state.categories.values()];
  const categorySurvives = (id: string): boolean => !fileRetired.has(id);
  for (const field of ['slug_nb', 'slug_en'] as const) {
    const stored = storedCategories.map((c): [string, string] => [c.id, c[field]]);
    checkSlugs('categories', field, raw.categories, stored, categorySurvives, 'category', problems);
  }

  // Retired categories
  checkDuplicateIds('retiredCategories', raw.retiredCategories, problems);
  for (const { index, record } of raw.retiredCategories) {
    const id = text(record, 'id');
    const seen = new Set<string>();
    for (const [k, replacement] of texts(record, 'replacedBy')) {
      const path = `retiredCategories[${index}].replacedBy[${k}]`;
      const problem = replacement === id ? 'a category cannot replace itself' : seen.has(replacement) ? 'listed twice' : categoryProblem(replacement);
      if (problem) problems.push(`${path}: ${problem}`);
      seen.add(replacement);
    }
  }

  // Venues and organizers
  checkDuplicateIds('venues', raw.venues, problems);
  checkSlugs('venues', 'slug', raw.venues, state.venues, () => true, 'venue', problems);
  checkDuplicateIds('organizers', raw.organizers, problems);
  checkSlugs('organizers', 'slug', raw.organizers, state.organizers, () => true, 'organizer', problems);
  const venueProblem = (id: string): string | null =>
    known('venues', fileVenues, state.venues, id) ? null : `unknown venue ${JSON.stringify(id)}`;

  // Events
  checkDuplicateIds('events', raw.events, problems);
  // With --replace, stored events the file does not list are removed before the file is written.
  const storedEventSurvives = (id: string): boolean => !replace || fileEvents.has(id);
  checkSlugs('events', 'slug', raw.events, state.events, storedEventSurvives, 'event', problems);
  for (const { index, record } of raw.events) {
    const at = `events[${index}]`;
    const id = text(record, 'id');
    const seenCategories = new Set<string>();
    for (const [k, category] of texts(record, 'categories')) {
      const problem = seenCategories.has(category) ? 'listed twice' : categoryProblem(category);
      if (problem) problems.push(`${at}.categories[${k}]: ${problem}`);
      seenCategories.add(category);
    }
    const seenOrganizers = new Set<string>();
    for (const [k, organizer] of texts(record, 'organizers')) {
      if (seenOrganizers.has(organizer)) problems.push(`${at}.organizers[${k}]: listed twice`);
      else if (!known('organizers', fileOrganizers, state.organizers, organizer)) {
        problems.push(`${at}.organizers[${k}]: unknown organizer ${JSON.stringify(organizer)}`);
      }
      seenOrganizers.add(organizer);
    }
    const venue = text(record, 'venue');
    const eventVenueProblem = venue === undefined ? null : venueProblem(venue);
    if (eventVenueProblem) problems.push(`${at}.venue: ${eventVenueProblem}`);
    for (const date of records(record, 'dates')) {
      const dateVenue = text(date.record, 'venue');
      const problem = dateVenue === undefined ? null : venueProblem(dateVenue);
      if (problem) problems.push(`${at}.dates[${date.index}].venue: ${problem}`);
    }
    const superEvent = text(record, 'superEvent');
    if (superEvent !== undefined) {
      if (superEvent === id) problems.push(`${at}.superEvent: an event cannot be its own super event`);
      else if (!fileEvents.has(superEvent) && !unreadable.has('events')) {
        if (!state.events.has(superEvent)) problems.push(`${at}.superEvent: unknown event ${JSON.stringify(superEvent)}`);
        else if (replace) problems.push(`${at}.superEvent: event ${JSON.stringify(superEvent)} is not in the file, so --replace removes it`);
      }
    }
  }

  // API keys
  const firstKey = new Map<string, number>();
  for (const { index, record } of raw.apiKeys) {
    const key = text(record, 'key');
    if (key === undefined) continue;
    const earlier = firstKey.get(key);
    // The key is a secret: the message points at the other entry instead of quoting it.
    if (earlier !== undefined) problems.push(`apiKeys[${index}].key: duplicate key (also apiKeys[${earlier}])`);
    else firstKey.set(key, index);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * `col = excluded.col` for each column: an upsert replaces the stored values with the file's.
 * `excluded.col` has the column's own type by definition, hence `never` (assignable to any column).
 */
function fromExcluded<C extends string>(columns: readonly C[]): Record<C, RawBuilder<never>> {
  return Object.fromEntries(columns.map((c) => [c, sql.ref<never>(`excluded.${c}`)])) as Record<C, RawBuilder<never>>;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function rowsPerStatement(columns: number): number {
  return Math.max(1, Math.floor(MAX_PARAMETERS / columns));
}

function timestamp(value: string): Date {
  const instant = readImportTimestamp(value);
  // Validation has read every timestamp already; reaching this is a bug, not bad input.
  if (!instant) throw new Error(`Unreadable timestamp after validation: ${value}`);
  return instant;
}

function optionalTimestamp(value: string | null): Date | null {
  return value === null ? null : timestamp(value);
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** Description text without markup: tags become spaces so words either side stay apart. */
function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => HTML_ENTITIES[name] ?? '');
}

/** The text `search_text` folds (in SQL, with the database's own unaccent). */
function searchSource(event: CalendarEvent): string {
  const parts = [event.title_nb, event.title_en, event.desc_nb && plainText(event.desc_nb), event.desc_en && plainText(event.desc_en), ...event.tags];
  return parts
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A value as it travels inside the JSON batch parameter. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue | undefined };

const EVENT_COLUMNS = [
  'id', 'slug', 'title_nb', 'title_en', 'desc_nb', 'desc_en', 'mode', 'tags', 'venue_id', 'is_super_event', 'super_event_id',
  'featured', 'featured_special_event', 'tickets_information', 'tickets_url', 'prices', 'images', 'event_cancelled',
  'event_sold_out', 'minimum_age', 'maximum_age', 'age_restriction', 'cancellation_period', 'views', 'publishing_date',
  'tickets_from_date', 'created_at', 'updated_at', 'registration_enabled', 'available_tickets', 'active_tickets',
  'max_booking_date', 'max_booking_time', 'payment_method', 'search_text', 'last_ends_at',
] as const satisfies readonly (keyof Database['events'])[];
type EventColumn = (typeof EVENT_COLUMNS)[number];

const OCCURRENCE_COLUMNS = [
  'event_id', 'position', 'start_at', 'end_at', 'ends_at', 'start_time', 'local_minute', 'local_day', 'duration', 'venue_id',
  'tickets_url', 'cancelled', 'sold_out', 'prices', 'publishing_date',
] as const satisfies readonly (keyof Database['occurrences'])[];
type OccurrenceColumn = (typeof OCCURRENCE_COLUMNS)[number];

interface EventRows {
  id: string;
  /** `search_text` holds the text to fold; created_at/updated_at are null when the file leaves them out. */
  event: Record<EventColumn, JsonValue>;
  keepsCreatedAt: boolean;
  keepsUpdatedAt: boolean;
  occurrences: Record<OccurrenceColumn, JsonValue>[];
}

const iso = (instant: Date): string => instant.toISOString();

function eventRows(event: CalendarEvent): EventRows {
  const optionalIso = (value: string | null | undefined): string | null => (value == null ? null : iso(timestamp(value)));
  const publishingDate = optionalIso(event.publishingDate);
  let lastEndsAt = 0;
  const occurrences = event.dates.map((date, position): Record<OccurrenceColumn, JsonValue> => {
    const start = timestamp(date.start);
    const end = optionalTimestamp(date.end);
    const hasEnd = end !== null && end.getTime() > start.getTime();
    const endsAt = hasEnd ? end : new Date(start.getTime() + NO_END_ONGOING_MS);
    lastEndsAt = Math.max(lastEndsAt, endsAt.getTime());
    const clock = osloWallClock(start);
    return {
      event_id: event.id,
      position,
      start_at: iso(start),
      // "null or equal to start: an event without an end time"
      end_at: hasEnd ? iso(end) : null,
      ends_at: iso(endsAt),
      start_time: date.startTime ?? clock.time,
      local_minute: clock.minuteOfDay,
      local_day: clock.date,
      duration: date.duration,
      venue_id: date.venue ?? event.venue,
      tickets_url: date.ticketsURL ?? event.ticketsURL,
      cancelled: date.cancelled ?? event.eventCancelled,
      sold_out: date.soldOut ?? event.eventSoldOut,
      prices: date.prices,
      publishing_date: publishingDate,
    };
  });
  return {
    id: event.id,
    event: {
      id: event.id,
      slug: event.slug,
      title_nb: event.title_nb,
      title_en: event.title_en,
      desc_nb: event.desc_nb,
      desc_en: event.desc_en,
      mode: event.mode,
      tags: event.tags,
      venue_id: event.venue,
      is_super_event: event.isSuperEvent,
      super_event_id: event.superEvent,
      featured: event.featured,
      featured_special_event: event.featuredSpecialEvent,
      tickets_information: event.ticketsInformation,
      tickets_url: event.ticketsURL,
      // Raw organizer input, exactly as given.
      prices: event.prices,
      images: event.images,
      event_cancelled: event.eventCancelled,
      event_sold_out: event.eventSoldOut,
      minimum_age: event.minimumAge,
      maximum_age: event.maximumAge,
      age_restriction: event.ageRestriction,
      cancellation_period: event.cancellationPeriod,
      views: event.views,
      publishing_date: publishingDate,
      tickets_from_date: optionalIso(event.ticketsFromDate),
      created_at: optionalIso(event.created_at),
      updated_at: optionalIso(event.updated_at),
      registration_enabled: event.registrationEnabled,
      available_tickets: event.availableTickets,
      active_tickets: event.activeTickets,
      max_booking_date: event.maxBookingDate,
      max_booking_time: event.maxBookingTime,
      payment_method: event.paymentMethod,
      search_text: searchSource(event),
      last_ends_at: iso(new Date(lastEndsAt)),
    },
    keepsCreatedAt: event.created_at === undefined,
    keepsUpdatedAt: event.updated_at === undefined,
    occurrences,
  };
}

type BulkTable = 'events' | 'occurrences' | 'event_categories' | 'event_organizers';

/**
 * Inserts a batch of rows sent as ONE JSON parameter and expanded by PostgreSQL
 * (`json_populate_recordset` converts each field to its column's type). Thousands of rows with
 * dozens of columns would otherwise need tens of thousands of bind parameters (the limit is 65535),
 * which both drivers, and PGlite above all, handle far more slowly than one string.
 */
function insertJsonRows<C extends string>(
  table: BulkTable,
  columns: readonly C[],
  rows: readonly Record<C, JsonValue>[],
  options: { select?: Partial<Record<C, RawBuilder<unknown>>>; onConflict?: RawBuilder<unknown> } = {},
): RawBuilder<unknown>[] {
  if (rows.length === 0) return [];
  const selected = columns.map((c) => options.select?.[c] ?? sql.ref(`r.${c}`));
  // A field left out of the JSON reads as null: leaving the nulls out shortens the parameter by a fifth.
  const compact = rows.map((row) => {
    const out: Partial<Record<C, JsonValue>> = {};
    for (const column of columns) if (row[column] !== null) out[column] = row[column];
    return out;
  });
  return [
    sql`
      insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
      select ${sql.join(selected)}
      from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(compact)}::json) as r
      ${options.onConflict ?? sql``}
    `,
  ];
}

interface PreparedBatch {
  statements: RawBuilder<unknown>[];
  events: number;
  occurrences: number;
}

/** Every statement that writes one batch of events, their links and their dates. */
function prepareEventBatch(batch: CalendarEvent[], state: DatabaseState): PreparedBatch {
  const rows = batch.map((e) => eventRows(e));
  const statements: RawBuilder<unknown>[] = [];
  // New events are plainly inserted: ON CONFLICT makes PostgreSQL check each row twice, a third of
  // the cost of a large first load. Stored ones are upserted, keeping the timestamps the file leaves
  // out, so rows go in groups by which they give.
  const groups = new Map<string, EventRows[]>();
  for (const row of rows) {
    const key = `${state.events.has(row.id)}/${row.keepsCreatedAt}/${row.keepsUpdatedAt}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  for (const group of groups.values()) {
    const first = group[0];
    if (!first) continue;
    const updated = EVENT_COLUMNS.filter(
      (c) => c !== 'id' && !(c === 'created_at' && first.keepsCreatedAt) && !(c === 'updated_at' && first.keepsUpdatedAt),
    );
    const upsert = state.events.has(first.id);
    statements.push(
      ...insertJsonRows('events', EVENT_COLUMNS, group.map((r) => r.event), {
        select: {
          // Folded in SQL, so that the stored text matches the database's own unaccent used by searches.
          search_text: sql`calendar_fold(r.search_text)`,
          created_at: sql`coalesce(r.created_at, now())`,
          updated_at: sql`coalesce(r.updated_at, now())`,
        },
        ...(upsert ? { onConflict: sql`on conflict (id) do update set ${sql.join(updated.map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`))}` } : {}),
      }),
    );
  }
  // An event's categories, organizers and dates are replaced as a whole.
  const stored = batch.filter((e) => state.events.has(e.id)).map((e) => e.id);
  if (stored.length > 0) {
    for (const table of ['event_categories', 'event_organizers', 'occurrences'] as const) {
      statements.push(sql`delete from ${sql.table(table)} where event_id = any(${stored}::text[])`);
    }
  }
  const categoryRows = batch.flatMap((e) => e.categories.map((category_id, position) => ({ event_id: e.id, category_id, position })));
  statements.push(...insertJsonRows('event_categories', ['event_id', 'category_id', 'position'], categoryRows));
  const organizerRows = batch.flatMap((e) => e.organizers.map((organizer_id, position) => ({ event_id: e.id, organizer_id, position })));
  statements.push(...insertJsonRows('event_organizers', ['event_id', 'organizer_id', 'position'], organizerRows));
  const occurrenceRows = rows.flatMap((r) => r.occurrences);
  statements.push(...insertJsonRows('occurrences', OCCURRENCE_COLUMNS, occurrenceRows));
  return { statements, events: batch.length, occurrences: occurrenceRows.length };
}

/** Stored rows whose current slug another record of the file takes over (a swap). */
function slugsMovingAway(items: { id: string; slug: string }[], stored: Map<string, string>): string[] {
  const idBySlug = new Map(items.map((i) => [i.slug, i.id]));
  const moving: string[] = [];
  for (const item of items) {
    const current = stored.get(item.id);
    if (current === undefined || current === item.slug) continue;
    const taker = idBySlug.get(current);
    if (taker !== undefined && taker !== item.id) moving.push(item.id);
  }
  return moving;
}

/** Parks the slugs of swapping rows on a value no slug can take, so the unique index accepts each upsert row. */
async function parkSlugs(trx: Transaction<Database>, table: 'venues' | 'organizers' | 'events', ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable(table).set({ slug: sql<string>`chr(1) || id` }).where(sql<boolean>`id = any(${ids}::text[])`).execute();
}

/** Parents before children, so each batch's foreign keys resolve. */
function parentsFirst(categories: CalendarCategory[]): CalendarCategory[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const depth = (c: CalendarCategory): number => {
    let d = 0;
    for (let p = c.parent; p !== null && d <= byId.size; p = byId.get(p)?.parent ?? null) d++;
    return d;
  };
  return categories.map((c) => ({ c, d: depth(c) })).sort((a, b) => a.d - b.d).map((x) => x.c);
}

const BULK_TABLES: readonly BulkTable[] = ['events', 'occurrences', 'event_categories', 'event_organizers'];

/**
 * The first load of a large calendar follows "Populating a Database" in the PostgreSQL manual: the
 * foreign keys and secondary indexes of the event tables are dropped and created again once the
 * rows are in. One validating join and one index build per index are several times cheaper than
 * checking and updating them row by row (a trigram index above all). Primary keys and unique
 * constraints stay, as the upsert relies on them. Only done while the event tables are empty:
 * dropping them locks those tables until the transaction ends.
 */
async function deferConstraintsAndIndexes(trx: Transaction<Database>): Promise<() => Promise<void>> {
  const tables = [...BULK_TABLES];
  const foreignKeys = await sql<{ table_name: string; name: string; definition: string }>`
    select c.conrelid::regclass::text as table_name, c.conname as name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_namespace n on n.oid = t.relnamespace
    where c.contype = 'f' and n.nspname = current_schema() and t.relname = any(${tables}::text[])
  `.execute(trx);
  const indexes = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition
    from pg_indexes i
    where i.schemaname = current_schema()
      and i.tablename = any(${tables}::text[])
      and not exists (
        select 1 from pg_constraint c
        join pg_namespace n on n.oid = c.connamespace
        where c.conname = i.indexname and n.nspname = i.schemaname
      )
  `.execute(trx);
  for (const fk of foreignKeys.rows) await sql`alter table ${sql.raw(fk.table_name)} drop constraint ${sql.id(fk.name)}`.execute(trx);
  for (const index of indexes.rows) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  return async () => {
    for (const index of indexes.rows) await sql.raw(index.definition).execute(trx);
    for (const fk of foreignKeys.rows) {
      await sql`alter table ${sql.raw(fk.table_name)} add constraint ${sql.id(fk.name)} ${sql.raw(fk.definition)}`.execute(trx);
    }
  };
}

// Below this many events, updating the indexes row by row is cheap enough.
const BULK_LOAD_EVENTS = 5_000;

async function writeFile(
  trx: Transaction<Database>,
  file: ParsedFile,
  state: DatabaseState,
  replace: boolean,
  onProgress: ImportOptions['onProgress'],
): Promise<ImportSummary> {
  const summary: ImportSummary = {
    categories: 0,
    venues: 0,
    organizers: 0,
    events: 0,
    occurrences: 0,
    apiKeys: 0,
    removedEvents: 0,
    retiredCategories: 0,
  };
  const events = file.events;
  const eventIds = events.map((e) => e.id);

  if (replace) {
    const removed = await trx.deleteFrom('events').where(sql<boolean>`not (id = any(${eventIds}::text[]))`).executeTakeFirst();
    summary.removedEvents = Number(removed.numDeletedRows);
  }

  // Categories: few, but still batched; position is the order in the file.
  const categoryPosition = new Map(file.categories.map((c, i) => [c.id, i]));
  for (const batch of chunks(parentsFirst(file.categories), rowsPerStatement(8))) {
    await trx
      .insertInto('categories')
      .values(
        batch.map((c) => ({
          id: c.id,
          name_nb: c.name_nb,
          name_en: c.name_en,
          slug_nb: c.slug_nb,
          slug_en: c.slug_en,
          visible: c.visible,
          parent_id: c.parent,
          position: categoryPosition.get(c.id) ?? 0,
        })),
      )
      .onConflict((oc) => oc.column('id').doUpdateSet(fromExcluded(['name_nb', 'name_en', 'slug_nb', 'slug_en', 'visible', 'parent_id', 'position'])))
      .execute();
    summary.categories += batch.length;
  }

  const venues = file.venues;
  await parkSlugs(trx, 'venues', slugsMovingAway(venues, state.venues));
  for (const batch of chunks(venues, rowsPerStatement(8))) {
    await trx
      .insertInto('venues')
      .values(
        batch.map((v) => ({
          id: v.id,
          slug: v.slug,
          name: v.name,
          address: v.address,
          postal_code: v.postalCode,
          municipality: v.municipality,
          latitude: v.location?.latitude ?? null,
          longitude: v.location?.longitude ?? null,
        })),
      )
      .onConflict((oc) => oc.column('id').doUpdateSet(fromExcluded(['slug', 'name', 'address', 'postal_code', 'municipality', 'latitude', 'longitude'])))
      .execute();
    summary.venues += batch.length;
  }

  const organizers = file.organizers;
  await parkSlugs(trx, 'organizers', slugsMovingAway(organizers, state.organizers));
  for (const batch of chunks(organizers, rowsPerStatement(4))) {
    await trx
      .insertInto('organizers')
      .values(batch.map((o) => ({ id: o.id, slug: o.slug, name: o.name, website: o.website })))
      .onConflict((oc) => oc.column('id').doUpdateSet(fromExcluded(['slug', 'name', 'website'])))
      .execute();
    summary.organizers += batch.length;
  }

  await parkSlugs(trx, 'events', slugsMovingAway(events, state.events));
  const restoreIndexes = !state.hasEvents && events.length >= BULK_LOAD_EVENTS ? await deferConstraintsAndIndexes(trx) : null;
  const run = async (prepared: PreparedBatch): Promise<void> => {
    for (const statement of prepared.statements) await statement.execute(trx);
    summary.events += prepared.events;
    summary.occurrences += prepared.occurrences;
    onProgress?.(summary.events, events.length);
  };
  // The next batch is prepared while the database writes the previous one (PGlite runs on a thread
  // of its own too). Preparing never yields, so a failed batch is awaited at once.
  let running: Promise<void> | null = null;
  for (const batch of chunks(events, EVENT_BATCH)) {
    const prepared = prepareEventBatch(batch, state);
    if (running) await running;
    running = run(prepared);
  }
  if (running) await running;
  if (restoreIndexes) await restoreIndexes();

  for (const retired of file.retiredCategories) {
    await retireCategory(trx, retired);
    summary.retiredCategories++;
  }

  for (const batch of chunks(file.apiKeys, rowsPerStatement(4))) {
    await trx
      .insertInto('api_keys')
      .values(batch.map((k) => ({ key_hash: hashApiKey(k.key), key_prefix: k.key.slice(0, 8), application: k.application, revoked: k.revoked })))
      .onConflict((oc) => oc.column('key_hash').doUpdateSet(fromExcluded(['key_prefix', 'application', 'revoked'])))
      .execute();
    summary.apiKeys += batch.length;
  }

  // The approximate-search dictionary follows the events' text (in this transaction, so a failed
  // import leaves it as it was).
  if (summary.events > 0 || summary.removedEvents > 0) await sql`refresh materialized view search_words`.execute(trx);

  // Totals and facets cached for the old data are not reused from here on (see calendar_state).
  await trx.updateTable('calendar_state').set({ version: sql`version + 1` }).execute();

  // Fresh planner statistics after a large load: PGlite runs no autovacuum to gather them.
  if (summary.events >= BULK_LOAD_EVENTS) {
    await sql`analyze ${sql.join(BULK_TABLES.map((t) => sql.table(t)))}`.execute(trx);
  }
  return summary;
}

/**
 * Moves every event off a retired category onto its replacements, in the retired category's place
 * in the event's list and without duplicates; then deletes the category (its children lose their
 * parent) and records the id so it can never come back.
 */
async function retireCategory(trx: Transaction<Database>, retired: CalendarRetiredCategory): Promise<void> {
  const rows = await trx
    .selectFrom('event_categories')
    .select(['event_id', 'category_id'])
    .where('event_id', 'in', (eb) => eb.selectFrom('event_categories').select('event_id').where('category_id', '=', retired.id))
    .orderBy('event_id')
    .orderBy('position')
    .execute();
  const lists = new Map<string, string[]>();
  for (const row of rows) {
    const list = lists.get(row.event_id) ?? [];
    list.push(row.category_id);
    lists.set(row.event_id, list);
  }
  const replaced: { event_id: string; category_id: string; position: number }[] = [];
  for (const [eventId, list] of lists) {
    const next: string[] = [];
    for (const category of list.flatMap((c) => (c === retired.id ? retired.replacedBy : [c]))) {
      if (!next.includes(category)) next.push(category);
    }
    next.forEach((category_id, position) => replaced.push({ event_id: eventId, category_id, position }));
  }
  for (const batch of chunks([...lists.keys()], rowsPerStatement(1))) {
    await trx.deleteFrom('event_categories').where('event_id', 'in', batch).execute();
  }
  for (const batch of chunks(replaced, rowsPerStatement(3))) await trx.insertInto('event_categories').values(batch).execute();
  await trx.deleteFrom('categories').where('id', '=', retired.id).execute();
  await trx
    .insertInto('retired_categories')
    .values({ id: retired.id, replaced_by: retired.replacedBy })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
