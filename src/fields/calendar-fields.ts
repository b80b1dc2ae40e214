import { z } from 'zod';
import { ownRules, stored } from './field-declaration.js';

/*
 * The import format's records (docs/import-format.md), one entry per key in the format's order. A stored
 * field declared here is imported, written, read, shown by the API and exported with no other change in
 * src/ than its migration (docs/regenerate.md, "A stored field"); keys with rules of their own have their
 * code in src/import/import-format.ts (validation), src/import/event-rows.ts and the upserts (rows),
 * src/db/database.ts (columns), src/schema (API) and src/export (export), each checked against this list.
 */

export const id = z.string().min(1, 'must not be empty');
export const text = z.string();
export const optionalText = text.nullable().default(null);
export const optionalInt = z.int().nullable().default(null);
const requiredText = z.string().min(1);

export const EVENT_FIELDS = {
  id: stored('id', id, 'id'),
  slug: stored('slug', requiredText, 'event_slug'),
  title_nb: stored('title_nb', optionalText, 'title_nb'),
  title_en: stored('title_en', optionalText, 'title_en'),
  desc_nb: stored('desc_nb', optionalText, 'desc_nb'),
  desc_en: stored('desc_en', optionalText, 'desc_en'),
  categories: ownRules,
  tags: stored('tags', z.array(z.string()).default([]), 'tags'),
  mode: stored('mode', z.enum(['online', 'offline']).default('offline'), 'mode'),
  venue: ownRules,
  organizers: ownRules,
  isSuperEvent: stored('is_super_event', z.boolean().default(false), 'isSuperEvent'),
  superEvent: stored('super_event_id', id.nullable().default(null), 'superEventID'),
  featured: stored('featured', z.boolean().default(false), 'featured'),
  featuredSpecialEvent: stored('featured_special_event', z.boolean().default(false), null),
  ticketsInformation: stored('tickets_information', z.enum(['free', 'noTicketsInfo', 'ticketsInfo']).default('noTicketsInfo'), 'ticketsInformation'),
  ticketsURL: ownRules,
  prices: ownRules,
  images: ownRules,
  dates: ownRules,
  eventCancelled: ownRules,
  eventSoldOut: ownRules,
  minimumAge: stored('minimum_age', optionalInt, 'minimumAge'),
  maximumAge: stored('maximum_age', optionalInt, 'maximumAge'),
  cancellationPeriod: stored('cancellation_period', optionalInt, 'cancellationPeriod'),
  views: stored('views', optionalInt, 'views'),
  ageRestriction: stored('age_restriction', optionalText, 'ageRestriction'),
  publishingDate: ownRules,
  ticketsFromDate: ownRules,
  created_at: ownRules,
  updated_at: ownRules,
  registrationEnabled: stored('registration_enabled', z.boolean().default(false), 'registrationEnabled'),
  availableTickets: stored('available_tickets', optionalInt, 'availableTickets'),
  activeTickets: stored('active_tickets', optionalInt, 'activeTickets'),
  maxBookingDate: stored('max_booking_date', optionalText, 'maxBookingDate'),
  maxBookingTime: stored('max_booking_time', optionalText, 'maxBookingTime'),
  paymentMethod: stored('payment_method', optionalText, 'paymentMethod'),
} as const;

export const VENUE_FIELDS = {
  id: stored('id', id, 'id'),
  slug: stored('slug', requiredText, 'slug'),
  name: stored('name', requiredText, 'name'),
  address: stored('address', optionalText, 'address'),
  postalCode: stored('postal_code', optionalText, 'postalCode'),
  municipality: stored('municipality', optionalText, 'municipality'),
  location: ownRules,
} as const;

export const ORGANIZER_FIELDS = {
  id: stored('id', id, 'id'),
  slug: stored('slug', requiredText, 'slug'),
  name: stored('name', requiredText, 'name'),
  website: stored('website', z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).nullable().default(null), 'website'),
} as const;
