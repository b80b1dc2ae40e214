import { createHash } from 'node:crypto';
import { z } from 'zod';
import { osloWallClock } from '../domain/oslo-time.js';
import { defaultTest } from '../fields/field-declaration.js';
import { EventSchema, readImportTimestamp, type CalendarEvent, type CalendarEventDate } from './import-format.js';

/*
 * The change digest of an event (event_changes.content_hash, docs/change-sync.md): two records whose rows
 * would be the same give the same digest, so an event listed again as it is stored is neither written nor
 * reported as changed (import/stored-digests.ts), whatever form the file gives it in. It is taken over the
 * record as its rows state it (`asStored`: timestamps as instants, a date's venue, tickets URL and flags only
 * where they differ from the event's, a start time only where it is not the start's Oslo clock time; the form
 * `calendar export` writes), in canonical form: keys sorted, and every key whose value is the import format's
 * default for it left out, at every depth (dates, prices, images). A release that adds an optional field (its
 * default filled in on parsing) therefore changes no digest: the first import after it marks no event changed,
 * sends nothing to the mirrors, and gives no node a delta of the whole calendar. `created_at` and `updated_at`
 * are left out (a file that leaves them out keeps the stored ones), and so are the categories (retiring one
 * rewrites the lists of the events filed under it): they are compared with the stored values instead
 * (stored-digests.ts).
 */

/** Starts every digest of the current form. */
export const CURRENT_DIGEST_PREFIX = 'c2.';

/** Started the digests of the record as given (keys sorted, defaults left out), before `asStored`. */
const RECORD_DIGEST_PREFIX = 'c1.';

/** How a value of a schema is written in canonical form, made once per schema (the digest runs per event). */
type Canonical = (value: unknown) => unknown;

interface FieldPlan {
  key: string;
  /** Whether `value` is the field's default (left out). */
  isDefault: (value: unknown) => boolean;
  canonical: Canonical;
}

const plans = new WeakMap<z.ZodType, Canonical>();

/** `value` (an output of `schema`) without the keys whose value is the schema's default there, keys sorted. */
export function withoutDefaults(schema: z.ZodType, value: unknown): unknown {
  return canonicalOf(schema)(value);
}

function canonicalOf(schema: z.ZodType): Canonical {
  let plan = plans.get(schema);
  if (!plan) plans.set(schema, (plan = planOf(schema)));
  return plan;
}

function planOf(schema: z.ZodType): Canonical {
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodArray) {
    const element = canonicalOf(inner.element as z.ZodType);
    return (value) => (Array.isArray(value) ? value.map(element) : value);
  }
  if (!(inner instanceof z.ZodObject)) return (value) => value;
  const shape = inner.shape as Record<string, z.ZodType>;
  const fields: FieldPlan[] = Object.keys(shape)
    .sort()
    .map((key) => {
      const field = shape[key]!;
      return { key, isDefault: defaultTest(field), canonical: (value: unknown) => canonicalOf(field)(value) };
    });
  return (value) => {
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    const canonical: Record<string, unknown> = {};
    for (const { key, isDefault, canonical: of } of fields) {
      const fieldValue = record[key];
      if (fieldValue === undefined || isDefault(fieldValue)) continue;
      canonical[key] = of(fieldValue);
    }
    return canonical;
  };
}

/** The schema under its default, nullable and optional wrappers. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodDefault || current instanceof z.ZodNullable || current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
  return current;
}

/** The digest of a parsed event (`schema`: the import format's, or a variant of it in a test). */
export function eventDigest(event: CalendarEvent, schema: z.ZodType = EventSchema): string {
  return CURRENT_DIGEST_PREFIX + sha1(JSON.stringify(withoutDefaults(schema, asStored(event))));
}

/**
 * The record as the rows the loader writes for it state it (import/event-rows.ts): another file that gives
 * the same rows (`calendar export`'s, another feed's spelling of the same instants) gives the same record.
 */
export function asStored(event: CalendarEvent): CalendarEvent {
  const { created_at: _created, updated_at: _updated, ...rest } = event;
  return {
    ...rest,
    categories: [],
    publishingDate: instant(event.publishingDate),
    ticketsFromDate: instant(event.ticketsFromDate),
    dates: event.dates.map((date): CalendarEventDate => {
      const start = readImportTimestamp(date.start)!;
      const end = date.end === null ? null : readImportTimestamp(date.end)!;
      const venue = date.venue ?? event.venue;
      const ticketsURL = date.ticketsURL ?? event.ticketsURL;
      const cancelled = date.cancelled ?? event.eventCancelled;
      const soldOut = date.soldOut ?? event.eventSoldOut;
      return {
        ...date,
        start: start.toISOString(),
        // An end not after the start is no end (the loader stores none).
        end: end !== null && end.getTime() > start.getTime() ? end.toISOString() : null,
        startTime: date.startTime === osloWallClock(start).time ? null : date.startTime,
        venue: venue === event.venue ? null : venue,
        ticketsURL: ticketsURL === event.ticketsURL ? null : ticketsURL,
        cancelled: cancelled === event.eventCancelled ? null : cancelled,
        soldOut: soldOut === event.eventSoldOut ? null : soldOut,
      };
    }),
  };
}

const instant = (value: string | null): string | null => (value === null ? null : readImportTimestamp(value)!.toISOString());

/**
 * The digest an earlier release would have stored for this record, in the form `stored` is in (its prefix),
 * or null when `stored` is of the current form. A stored digest equal to it is the same record: the event is
 * unchanged and its digest is rewritten in the current form.
 */
export function earlierEventDigest(event: CalendarEvent, stored: string): string | null {
  if (stored.startsWith(CURRENT_DIGEST_PREFIX)) return null;
  // The record as given, in canonical form.
  if (stored.startsWith(RECORD_DIGEST_PREFIX)) return RECORD_DIGEST_PREFIX + sha1(JSON.stringify(withoutDefaults(EventSchema, event)));
  return legacyEventDigest(event);
}

/**
 * The digest as releases before the canonical form took it (the record as parsed, defaults included): a stored
 * digest equal to it is the same record, and is rewritten in the canonical form without marking the event changed.
 */
export function legacyEventDigest(event: CalendarEvent): string {
  return sha1(JSON.stringify(event));
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('base64url');
}
