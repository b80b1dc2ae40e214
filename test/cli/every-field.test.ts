import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { EVENT_FIELDS, ORGANIZER_FIELDS, VENUE_FIELDS } from '../../src/fields/calendar-fields.js';
import { isDefaultValue, type OwnKeys, type RecordDeclaration } from '../../src/fields/field-declaration.js';
import { EventDateSchema, EventSchema, OrganizerSchema, VenueSchema, type CalendarFileInput } from '../../src/import/import-format.js';
import { unpackTemplate } from '../support/migrated-data-dir.js';
import { runCalendar, startServe, type ServeProcess } from './calendar-process.js';

/*
 * Every field of the import format, proven end to end: an event, its dates, its venue and its organizer
 * with every key set away from its default, imported with `calendar import`, read through the API of
 * `calendar serve` (each field alone, then all together) and written back by `calendar export`. The
 * stored fields' API checks come from their declarations (src/fields/calendar-fields.ts): a field
 * declared there is checked here with no change but its sample. The keys with rules of their own have
 * their checks below, in tables typed over the declarations: a new one does not compile until it has one.
 */

type EventInput = NonNullable<CalendarFileInput['events']>[number];
type DateInput = z.input<typeof EventDateSchema>;
type VenueInput = NonNullable<CalendarFileInput['venues']>[number];
type OrganizerInput = NonNullable<CalendarFileInput['organizers']>[number];

// Samples: every key given (`Required`), none its default (checked below). Timestamps as the export writes them.
const VENUE: Required<VenueInput> = {
  id: 'V-HALL',
  slug: 'konserthallen',
  name: 'Konserthallen',
  address: 'Storgata 1',
  postalCode: '0155',
  municipality: 'Oslo',
  location: { latitude: 59.913, longitude: 10.752 },
};
const SECOND_VENUE: VenueInput = { id: 'V-KJELLER', slug: 'kjelleren', name: 'Kjelleren' };
const ORGANIZER: Required<OrganizerInput> = { id: 'O-JAZZ', slug: 'jazzklubben', name: 'Jazzklubben', website: 'https://jazzklubben.example.no/' };
const FESTIVAL: EventInput = { id: 'E-FESTIVAL', slug: 'festivalen', isSuperEvent: true, dates: [{ start: '2030-06-01T12:00:00+02:00' }] };

/** The date that sets every key of a date; the event's first (promoted) date sets only its start. */
const DATE: Required<DateInput> = {
  start: '2030-06-02T20:00:00+02:00',
  end: '2030-06-02T22:30:00+02:00',
  startTime: '19:30',
  duration: 150,
  venue: 'V-KJELLER',
  ticketsURL: 'https://billett.example.no/andre-kveld',
  // The event's flags are true: false is the date's own.
  cancelled: false,
  soldOut: false,
  prices: [{ type: 'REGULAR', price: '180', name_nb: 'Ordinær', name_en: 'Regular' }],
};

const EVENT: Required<EventInput> = {
  id: 'E-ALL',
  slug: 'alle-felt',
  title_nb: 'Alle felt',
  title_en: 'Every field',
  desc_nb: '<p>Norsk <b>tekst</b></p>',
  desc_en: '<p>English text</p>',
  categories: ['CONCERT'],
  tags: ['jazz', 'kveld'],
  mode: 'online',
  venue: 'V-HALL',
  organizers: ['O-JAZZ'],
  isSuperEvent: true,
  superEvent: 'E-FESTIVAL',
  featured: true,
  featuredSpecialEvent: true,
  ticketsInformation: 'ticketsInfo',
  ticketsURL: 'https://billett.example.no/alle-felt',
  prices: [{ type: 'STUDENT', price: 250, name_nb: 'Student', name_en: 'Student' }],
  images: [{ urlSmall: 'https://img.example.no/s.jpg', urlLarge: 'https://img.example.no/l.jpg', alt: 'Scenen', focusX: 0.25, focusY: 0.75, width: 1600, height: 900 }],
  dates: [{ start: '2030-06-01T20:00:00+02:00' }, DATE],
  eventCancelled: true,
  eventSoldOut: true,
  minimumAge: 18,
  maximumAge: 99,
  cancellationPeriod: 48,
  views: 1234,
  ageRestriction: '18 år',
  publishingDate: '2026-01-05T10:00:00+01:00',
  ticketsFromDate: '2030-05-01T12:00:00+02:00',
  created_at: '2026-10-01T09:00:00+02:00',
  updated_at: '2026-10-02T09:30:00.125+02:00',
  registrationEnabled: true,
  availableTickets: 40,
  activeTickets: 60,
  maxBookingDate: '2030-05-31',
  maxBookingTime: '18:00',
  paymentMethod: 'vipps',
};

const CALENDAR: CalendarFileInput = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [VENUE, SECOND_VENUE],
  organizers: [ORGANIZER],
  events: [FESTIVAL, EVENT],
};

/** One check of what the API shows: a selection of `eventByID`, and where its value is in the answer. */
interface ApiCheck {
  selection: string;
  read: (event: Record<string, unknown>) => unknown;
  expected: unknown;
}

const field = (name: string, expected: unknown): ApiCheck => ({ selection: name, read: (e) => e[name], expected });
const nested = (parent: string, selection: string, read: (value: never) => unknown, expected: unknown): ApiCheck => ({
  selection: `${parent} { ${selection} }`,
  read: (e) => read(e[parent] as never),
  expected,
});

/** What the API shows of each stored field, from its declaration: its API field holds the imported value. */
function storedChecks<R extends RecordDeclaration>(record: R, sample: Record<string, unknown>, wrap: (name: string, expected: unknown) => ApiCheck): ApiCheck[] {
  return Object.entries(record).flatMap(([key, declared]) => (declared.kind === 'stored' && declared.api !== null ? [wrap(declared.api, sample[key])] : []));
}

const PROMOTED_START = '2030-06-01 20:00:00+02:00';
const repetition = (name: string, selection: string, expected: unknown): ApiCheck =>
  nested('repetitions', selection, (r: Record<string, unknown>[]) => r[0]?.[name], expected);

/** The event's keys with rules of their own, as the API shows them (the promoted date is the first: it names no venue, URL or flags of its own). */
const EVENT_OWN_CHECKS: Record<OwnKeys<typeof EVENT_FIELDS>, ApiCheck[]> = {
  categories: [field('categories', ['CONCERT'])],
  venue: [nested('venue', 'id', (v: { id: string }) => v.id, 'V-HALL')],
  organizers: [nested('organizers', 'id', (o: { id: string }[]) => o.map((x) => x.id), ['O-JAZZ'])],
  ticketsURL: [field('ticketsURL', EVENT.ticketsURL)],
  prices: [nested('prices', 'type price name_nb name_en', (p: unknown) => p, [{ type: 'STUDENT', price: 250, name_nb: 'Student', name_en: 'Student' }])],
  images: [nested('images', 'urlSmall urlLarge alt focusX focusY width height', (i: unknown) => i, EVENT.images)],
  dates: [field('startDate', PROMOTED_START), field('endDate', PROMOTED_START), field('startTime', '20:00'), repetition('startDate', 'startDate', '2030-06-02 20:00:00+02:00')],
  eventCancelled: [field('eventCancelled', true)],
  eventSoldOut: [field('eventSoldOut', true)],
  publishingDate: [field('publishingDate', '2026-01-05 10:00:00+01:00')],
  ticketsFromDate: [field('ticketsFromDate', '2030-05-01 12:00:00+02:00')],
  created_at: [field('created_at', '2026-10-01T07:00:00.000Z')],
  updated_at: [field('updated_at', '2026-10-02T07:30:00.125Z')],
};

/** Each key of a date, as the event's first repetition (the second date) shows it. */
const DATE_CHECKS: Record<keyof DateInput, ApiCheck> = {
  start: repetition('startDate', 'startDate', '2030-06-02 20:00:00+02:00'),
  end: repetition('endDate', 'endDate', '2030-06-02 22:30:00+02:00'),
  startTime: repetition('startTime', 'startTime', '19:30'),
  duration: repetition('duration', 'duration', 150),
  venue: nested('repetitions', 'venue { id }', (r: { venue: { id: string } }[]) => r[0]?.venue.id, 'V-KJELLER'),
  ticketsURL: repetition('ticketsURL', 'ticketsURL', DATE.ticketsURL),
  cancelled: repetition('eventCancelled', 'eventCancelled', false),
  soldOut: repetition('eventSoldOut', 'eventSoldOut', false),
  prices: repetition('prices', 'prices { type price name_nb name_en }', [{ type: 'REGULAR', price: 180, name_nb: 'Ordinær', name_en: 'Regular' }]),
};

const VENUE_OWN_CHECKS: Record<OwnKeys<typeof VENUE_FIELDS>, ApiCheck[]> = {
  location: [nested('venue', 'location { latitude longitude }', (v: { location: unknown }) => v.location, VENUE.location)],
};
const ORGANIZER_OWN_CHECKS: Record<OwnKeys<typeof ORGANIZER_FIELDS>, ApiCheck[]> = {};

const API_CHECKS: ApiCheck[] = [
  ...storedChecks(EVENT_FIELDS, EVENT, field),
  ...Object.values(EVENT_OWN_CHECKS).flat(),
  ...Object.values(DATE_CHECKS),
  ...storedChecks(VENUE_FIELDS, VENUE, (name, expected) => nested('venue', name, (v: Record<string, unknown>) => v[name], expected)),
  ...Object.values(VENUE_OWN_CHECKS).flat(),
  ...storedChecks(ORGANIZER_FIELDS, ORGANIZER, (name, expected) => nested('organizers', name, (o: Record<string, unknown>[]) => o[0]?.[name], expected)),
  ...Object.values<ApiCheck[]>(ORGANIZER_OWN_CHECKS).flat(),
];

/** The keys of `schema`'s shape that `sample` leaves out or sets to the default. */
function unsampled(schema: z.ZodObject, sample: Record<string, unknown>): string[] {
  const parsed = schema.parse(sample);
  return Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([key, fieldSchema]) => !(key in sample) || parsed[key] === undefined || isDefaultValue(fieldSchema, parsed[key]))
    .map(([key]) => key);
}

describe('every field of the import format, through calendar import, the API and calendar export', { timeout: 180_000 }, () => {
  let dir: string;
  let dataDir: string;
  let serving: ServeProcess | undefined;
  let url: string;
  let exported: CalendarFileInput;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'calendar-every-field-'));
    dataDir = await unpackTemplate(join(dir, 'data'));
    const env = { CALENDAR_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    await writeFile(join(dir, 'calendar.json'), JSON.stringify(CALENDAR));
    const imported = await runCalendar(['import', join(dir, 'calendar.json')], env);
    expect(imported.code, imported.stderr).toBe(0);
    // Exported before serving: the embedded database has one process at a time.
    const exportRun = await runCalendar(['export', join(dir, 'export.json')], env);
    expect(exportRun.code, exportRun.stderr).toBe(0);
    exported = JSON.parse(await readFile(join(dir, 'export.json'), 'utf8')) as CalendarFileInput;
    serving = startServe({ ...env, PORT: '0', HOST: '127.0.0.1', DEMO_EVENTS: '0' });
    url = await serving.listening;
  });

  afterAll(async () => {
    if (serving && serving.child.exitCode === null) {
      serving.child.kill('SIGTERM');
      await serving.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('has a sample for every key of an event, a date, a venue and an organizer, none of them the default', () => {
    expect(unsampled(EventSchema, EVENT)).toEqual([]);
    expect(unsampled(EventDateSchema, DATE)).toEqual([]);
    expect(unsampled(VenueSchema, VENUE)).toEqual([]);
    expect(unsampled(OrganizerSchema, ORGANIZER)).toEqual([]);
  });

  it('exports every value as it was imported', () => {
    expect(exported.events?.find((event) => event.id === 'E-ALL')).toEqual(EVENT);
    expect(exported.venues).toEqual([VENUE, SECOND_VENUE]);
    expect(exported.organizers).toEqual([ORGANIZER]);
  });

  async function eventAnswer(selection: string): Promise<Record<string, unknown>> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: `{ eventByID(eventID: "E-ALL") { ${selection} } }` }),
    });
    const body = (await response.json()) as { data?: { eventByID: Record<string, unknown> | null }; errors?: unknown };
    expect(body.errors, selection).toBeUndefined();
    expect(body.data?.eventByID, selection).toBeTruthy();
    return body.data!.eventByID!;
  }

  it('shows every field through the API, each selected alone', async () => {
    const wrong: { selection: string; shown: unknown; expected: unknown }[] = [];
    for (const check of API_CHECKS) {
      const shown = check.read(await eventAnswer(check.selection));
      if (!isEqual(shown, check.expected)) wrong.push({ selection: check.selection, shown, expected: check.expected });
    }
    expect(wrong).toEqual([]);
    // Every stored field with an API name is among the checks, derived from the declarations.
    expect(API_CHECKS.map((check) => check.selection)).toEqual(expect.arrayContaining(['paymentMethod', 'superEventID', 'venue { postalCode }', 'organizers { website }']));
  });

  it('shows the same values with every field selected in one query', async () => {
    // Nested selections of one parent merge (GraphQL's field merging), so one document holds them all.
    const together = await eventAnswer(API_CHECKS.map((check) => check.selection).join('\n'));
    expect(API_CHECKS.map((check) => [check.selection, check.read(together)])).toEqual(API_CHECKS.map((check) => [check.selection, check.expected]));
  });
});

function isEqual(a: unknown, b: unknown): boolean {
  try {
    expect(a).toEqual(b);
    return true;
  } catch {
    return false;
  }
}
