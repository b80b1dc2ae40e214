import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defaultTest } from '../fields/field-declaration.js';
import { EventSchema, type CalendarEvent } from './import-format.js';

/*
 * The change digest of an event (event_changes.content_hash, docs/change-sync.md): the same record imported
 * again gives the same digest, and is not reported as changed. It is taken over the record's canonical form:
 * keys sorted, and every key whose value is the import format's default for it left out, at every depth
 * (dates, prices, images). A release that adds an optional field (its default filled in on parsing) therefore
 * changes no digest: the first import after it marks no event changed, sends nothing to the mirrors, and
 * gives no node a delta of the whole calendar.
 */

/** Starts every digest in the canonical form (digests written before it hashed the record with its defaults). */
export const CURRENT_DIGEST_PREFIX = 'c1.';

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
  return CURRENT_DIGEST_PREFIX + sha1(JSON.stringify(withoutDefaults(schema, event)));
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
