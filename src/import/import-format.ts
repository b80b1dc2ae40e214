import { z } from 'zod';
import { BoundedMemo } from '../domain/bounded-memo.js';
import { parseDateArgument, parseImportTimestamp } from '../domain/oslo-time.js';
import { EVENT_FIELDS, id, optionalText, ORGANIZER_FIELDS, text, VENUE_FIELDS } from '../fields/calendar-fields.js';
import { recordShape } from '../fields/field-declaration.js';

/*
 * The import file (docs/import-format.md). Every object is strict: an unknown key is an error at
 * every level, so a typo is reported instead of silently dropped. Optional fields get their
 * documented default here, so the parsed file is complete and the loader never guesses. Events, venues
 * and organizers are declared key by key in src/fields/calendar-fields.ts: their stored fields' validation
 * is there, the keys with rules of their own are validated here.
 */

/**
 * The timestamps of the file being imported, read: validation reads each timestamp twice and the
 * loader once more, series share their times, and parsing is most of the cost of validating a large
 * file. Enough for the timestamps of a large file; emptied after each import
 * (`forgetImportTimestamps`), and bounded, so that validating many files without importing them
 * cannot grow it without limit.
 */
const importTimestamps = new BoundedMemo<string, Date | null>(1_000_000, { textKeys: true });

/** parseImportTimestamp, remembered. The returned Date is shared: read it, never mutate it. */
export function readImportTimestamp(value: string): Date | null {
  return importTimestamps.remember(value, parseImportTimestamp);
}

/** Releases what readImportTimestamp remembers (the importer calls it when a file is done). */
export function forgetImportTimestamps(): void {
  importTimestamps.clear();
}

/** ISO 8601 / RFC 3339 with an explicit offset, or the service's own `YYYY-MM-DD HH:mm:ss+01:00`. */
export const ImportTimestampSchema = z.string().superRefine((value, ctx) => {
  if (readImportTimestamp(value) !== null) return;
  // Readable as an Oslo wall-clock time, but an import must say which instant it means.
  const message =
    parseDateArgument(value) !== null
      ? 'timestamp needs an explicit offset'
      : `not a valid timestamp: ${JSON.stringify(value)} (expected e.g. 2026-12-01T19:00:00+01:00)`;
  ctx.addIssue({ code: 'custom', message });
});

/** The organizer's raw price input is kept as given; readers interpret it. */
export const PriceSchema = z.strictObject({
  type: id,
  price: z.union([z.string(), z.number()], { error: 'expected a string or a number' }),
  name_nb: text.nullable().optional(),
  name_en: text.nullable().optional(),
});

const focus = z.number().min(0).max(1).nullable().default(null);

export const ImageSchema = z.strictObject({
  urlSmall: z.string().min(1),
  urlLarge: z.string().min(1),
  alt: optionalText,
  focusX: focus,
  focusY: focus,
  width: z.int().positive().nullable().default(null),
  height: z.int().positive().nullable().default(null),
});

export const CategorySchema = z.strictObject({
  id,
  name_nb: z.string().min(1),
  name_en: z.string().min(1),
  slug_nb: z.string().min(1),
  slug_en: z.string().min(1),
  visible: z.boolean().default(true),
  parent: id.nullable().default(null),
});

export const RetiredCategorySchema = z.strictObject({
  id,
  replacedBy: z.array(id),
});

export const VenueSchema = z.strictObject(
  recordShape(VENUE_FIELDS, {
    location: z
      .strictObject({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
      .nullable()
      .default(null),
  }),
);

export const OrganizerSchema = z.strictObject(recordShape(ORGANIZER_FIELDS, {}));

const START_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

export const EventDateSchema = z
  .strictObject({
    start: ImportTimestampSchema,
    end: ImportTimestampSchema.nullable().default(null),
    startTime: z.string().regex(START_TIME, 'expected a wall-clock time HH:mm').nullable().default(null),
    duration: z.int().min(0).nullable().default(null),
    venue: id.nullable().default(null),
    ticketsURL: optionalText,
    cancelled: z.boolean().nullable().default(null),
    soldOut: z.boolean().nullable().default(null),
    prices: z.array(PriceSchema).nullable().default(null),
  })
  .superRefine((date, ctx) => {
    if (date.end === null) return;
    const start = readImportTimestamp(date.start);
    const end = readImportTimestamp(date.end);
    if (start && end && end < start) ctx.addIssue({ code: 'custom', path: ['end'], message: 'end is before start' });
  });

export const EventSchema = z.strictObject(
  recordShape(EVENT_FIELDS, {
    categories: z.array(id).default([]),
    venue: id.nullable().default(null),
    organizers: z.array(id).default([]),
    ticketsURL: optionalText,
    prices: z.array(PriceSchema).default([]),
    images: z.array(ImageSchema).default([]),
    dates: z.array(EventDateSchema).min(1, 'an event needs at least one date'),
    eventCancelled: z.boolean().default(false),
    eventSoldOut: z.boolean().default(false),
    publishingDate: ImportTimestampSchema.nullable().default(null),
    ticketsFromDate: ImportTimestampSchema.nullable().default(null),
    // Absent: the loader keeps the stored value (or now() for a new event).
    created_at: ImportTimestampSchema.optional(),
    updated_at: ImportTimestampSchema.optional(),
  }),
);

export const ApiKeySchema = z.strictObject({
  key: z.string().regex(/^hsk_[\x21-\x7e]+$/, 'an API key starts with "hsk_" and has no spaces'),
  application: z.string().min(1),
  revoked: z.boolean().default(false),
});

/** The element schema of each top-level list, in the order the loader writes them. */
export const calendarFileSections = {
  categories: CategorySchema,
  retiredCategories: RetiredCategorySchema,
  venues: VenueSchema,
  organizers: OrganizerSchema,
  events: EventSchema,
  apiKeys: ApiKeySchema,
} as const;

export const importFormat = z.strictObject({
  categories: z.array(CategorySchema).optional(),
  retiredCategories: z.array(RetiredCategorySchema).optional(),
  venues: z.array(VenueSchema).optional(),
  organizers: z.array(OrganizerSchema).optional(),
  events: z.array(EventSchema).optional(),
  apiKeys: z.array(ApiKeySchema).optional(),
});

/** A parsed import file, defaults filled in. */
export type CalendarFile = z.infer<typeof importFormat>;
/** What a file may omit: the shape writers produce. */
export type CalendarFileInput = z.input<typeof importFormat>;
export type CalendarCategory = z.infer<typeof CategorySchema>;
export type CalendarRetiredCategory = z.infer<typeof RetiredCategorySchema>;
export type CalendarVenue = z.infer<typeof VenueSchema>;
export type CalendarOrganizer = z.infer<typeof OrganizerSchema>;
export type CalendarEvent = z.infer<typeof EventSchema>;
export type CalendarEventDate = z.infer<typeof EventDateSchema>;
export type CalendarPrice = z.infer<typeof PriceSchema>;
export type CalendarImage = z.infer<typeof ImageSchema>;
export type CalendarApiKey = z.infer<typeof ApiKeySchema>;
