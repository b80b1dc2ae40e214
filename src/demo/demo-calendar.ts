import type { CalendarCategory, CalendarEvent, CalendarEventDate, CalendarFile, CalendarOrganizer, CalendarVenue } from '../import/import-format.js';
import { demoCategories } from './demo-categories.js';
import { demoImages } from './demo-images.js';
import { demoHosts, type DemoHost } from './demo-hosts.js';
import { demoPrices, MESSY_PRICES } from './demo-prices.js';
import { CLASSICAL_WORKS, FESTIVAL_THEME, FESTIVALS, JAZZ_ARTISTS, THEME_WEIGHTS, themeOf, titleFor, type Pair, type Theme } from './demo-themes.js';
import { demoPlaces, MUNICIPALITY_WEIGHTS, type DemoPlace, type Municipality } from './demo-places.js';
import { h, OsloDays, wallClockTime } from './oslo-days.js';
import { SeededRandom } from './seeded-random.js';
import { slugify } from './slugify.js';

export interface DemoCalendarOptions {
  /** Number of events (festival programmes included). */
  events: number;
  /** Same seed and same Oslo date of `today` give the same calendar. */
  seed: number;
  /** Dates are spread from about 30 days before to 180 days after this day. */
  today: Date;
}

interface Context {
  random: SeededRandom;
  days: OsloDays;
  places: readonly DemoPlace[];
  hosts: readonly DemoHost[];
}

interface Draft {
  title: Pair;
  theme: Theme;
  municipality: Municipality;
  venue: CalendarVenue | null;
  dates: CalendarEventDate[];
  /** First day of the event, counted from today. */
  firstDay: number;
  extraCategories?: string[];
  superEvent?: string | null;
  isSuperEvent?: boolean;
  online?: boolean;
}

/** Minutes, in quarters of an hour within the theme's range. */
function durationOf(random: SeededRandom, theme: Theme): number {
  return random.int(Math.ceil(theme.duration[0] / 15), Math.floor(theme.duration[1] / 15)) * 15;
}

function date(
  ctx: Context,
  theme: Theme,
  day: number,
  start: number,
  options: { withEnd?: boolean; duration?: number } = {},
): CalendarEventDate {
  const { random, days } = ctx;
  const withEnd = options.withEnd ?? random.chance(0.82);
  const duration = options.duration ?? durationOf(random, theme);
  return {
    start: days.stamp(day, start),
    end: withEnd ? days.stamp(day, start + duration) : null,
    // The organizer's wall-clock entry; most imports carry it, some leave it to be derived.
    startTime: random.chance(0.9) ? wallClockTime(start) : null,
    duration: withEnd ? duration : null,
    venue: null,
    ticketsURL: null,
    cancelled: null,
    soldOut: null,
    prices: null,
  };
}

function description(random: SeededRandom, theme: Theme, venue: CalendarVenue | null): Pair {
  const note = random.int(0, 3);
  const notesNb = ['Dørene åpner en halvtime før.', 'Begrenset antall plasser!', 'Servering av kaffe &amp; vafler.', 'Trinnfri adkomst.'];
  const notesEn = ['Doors open half an hour before.', 'Limited seating!', 'Coffee &amp; waffles served.', 'Step-free access.'];
  const nb = venue ? `<strong>${notesNb[note] ?? ''}</strong>` : 'Sendes direkte på nett.';
  const en = venue ? `<strong>${notesEn[note] ?? ''}</strong>` : 'Streamed live online.';
  return [`<p>${theme.lead[0]}</p><p>${nb}</p>`, `<p>${theme.lead[1]}</p><p>${en}</p>`];
}

/** A venue of the municipality that suits the theme (any of the municipality's when none does). */
function pickVenue(ctx: Context, municipality: Municipality, theme: Theme): CalendarVenue {
  const local = ctx.places.filter((p) => p.municipality === municipality);
  const suitable = local.filter((p) => theme.places.includes(p.type));
  return ctx.random.pick(suitable.length > 0 ? suitable : local).venue;
}

function pickOrganizers(ctx: Context, municipality: Municipality, category: string): CalendarOrganizer[] {
  const local = ctx.hosts.filter((o) => o.municipality === municipality);
  const suitable = local.filter((o) => o.categories.includes(category));
  const pool = suitable.length > 0 ? suitable : local;
  // Now and then a co-production with another local organizer.
  const main = ctx.random.pick(pool).organizer;
  const partner = ctx.random.chance(0.1) ? ctx.random.pick(local).organizer : null;
  return partner && partner.id !== main.id ? [main, partner] : [main];
}

function finish(ctx: Context, seq: number, draft: Draft): CalendarEvent {
  const { random, days } = ctx;
  const id = `ev-${String(seq).padStart(6, '0')}`;
  const { theme, title, venue } = draft;
  const categoriesOf = [theme.category, ...(draft.extraCategories ?? [])];
  if (theme.category === 'CONCERT' && JAZZ_ARTISTS.some((a) => title[0].includes(a))) categoriesOf.push('JAZZ');
  if (random.chance(0.005)) categoriesOf.push('INTERNAL');
  const ticketsInformation = random.weighted([['ticketsInfo', 6], ['free', 2.5], ['noTicketsInfo', 1.5]] as const);
  const [descNb, descEn] = description(random, theme, venue);
  const organizersOf = pickOrganizers(ctx, draft.municipality, theme.category);
  const createdDay = Math.min(draft.firstDay, 0) - random.int(3, 90);
  const updatedDay = Math.min(createdDay + random.int(0, 20), 0);
  const futurePublishing = random.chance(0.02);
  const registration = theme.category === 'COURSE' && random.chance(0.3);
  const adult = theme.category === 'CONCERT' && random.chance(0.2);
  const slug = `${slugify(title[0])}-${seq}`;
  return {
    id,
    slug,
    title_nb: title[0],
    title_en: random.chance(0.9) ? title[1] : null,
    desc_nb: descNb,
    desc_en: random.chance(0.85) ? descEn : null,
    categories: [...new Set(categoriesOf)],
    tags: random.sample(theme.tags, random.int(0, 3)),
    mode: draft.online ? 'online' : 'offline',
    venue: venue?.id ?? null,
    organizers: organizersOf.map((o) => o.id),
    isSuperEvent: draft.isSuperEvent ?? false,
    superEvent: draft.superEvent ?? null,
    featured: random.chance(0.03),
    featuredSpecialEvent: draft.superEvent ? random.chance(0.1) : random.chance(0.005),
    ticketsInformation,
    ticketsURL: ticketsInformation === 'ticketsInfo' ? `https://billett.example.no/${slug}` : null,
    prices: ticketsInformation === 'ticketsInfo' ? demoPrices(random) : ticketsInformation === 'free' && random.chance(0.3) ? [{ type: 'REGULAR', price: 'Gratis' }] : [],
    images: demoImages(random, id, title[0], theme.category),
    dates: draft.dates,
    eventCancelled: random.chance(0.015),
    eventSoldOut: random.chance(0.02),
    minimumAge: adult ? random.pick([18, 20]) : null,
    maximumAge: theme.category === 'FAMILY' && random.chance(0.3) ? 12 : null,
    cancellationPeriod: registration ? 48 : null,
    views: random.int(0, 5000),
    ageRestriction: adult ? random.pick(['18 år', 'Aldersgrense 20 år', '18+']) : null,
    publishingDate: futurePublishing ? days.stamp(random.int(1, 14), h(8)) : random.chance(0.3) ? days.stamp(createdDay, h(9)) : null,
    ticketsFromDate: ticketsInformation === 'ticketsInfo' && random.chance(0.1) ? days.stamp(createdDay + 1, h(10)) : null,
    created_at: days.stamp(createdDay, h(random.int(8, 15), 5 * random.int(0, 11))),
    updated_at: days.stamp(updatedDay, h(16, 5 * random.int(0, 11))),
    registrationEnabled: registration,
    availableTickets: registration ? random.int(0, 20) : null,
    activeTickets: registration ? 20 : null,
    maxBookingDate: registration ? days.date(draft.firstDay - 1) : null,
    maxBookingTime: registration ? '23:59' : null,
    paymentMethod: registration ? random.pick(['vipps', 'card', 'invoice']) : null,
  };
}

type Kind = 'single' | 'weekly' | 'sameDay' | 'run' | 'long' | 'online' | 'festival';
const KINDS: [Kind, number][] = [['single', 50], ['weekly', 13], ['sameDay', 8], ['run', 12], ['long', 7], ['online', 5], ['festival', 1.2]];

/** Date variations inside a series: a cancelled or sold-out evening, another venue, another price. */
function vary(ctx: Context, dates: CalendarEventDate[], municipality: Municipality, theme: Theme): void {
  const { random } = ctx;
  for (const d of dates) {
    if (random.chance(0.05)) d.cancelled = true;
    else if (random.chance(0.06)) d.soldOut = true;
  }
  const one = random.pick(dates);
  if (random.chance(0.1)) one.venue = pickVenue(ctx, municipality, theme).id;
  if (random.chance(0.08)) one.prices = [{ type: 'REGULAR', price: random.pick(MESSY_PRICES) }];
  if (random.chance(0.05)) one.ticketsURL = `https://billett.example.no/ekstra/${random.int(1000, 9999)}`;
}

function draftOf(ctx: Context, kind: Exclude<Kind, 'festival'>): Draft {
  const { random } = ctx;
  const municipality = random.weighted(MUNICIPALITY_WEIGHTS);
  const firstDay = random.int(-30, 180);
  const placeFor = (theme: Theme): CalendarVenue => pickVenue(ctx, municipality, theme);
  switch (kind) {
    case 'weekly': {
      const theme = themeOf(random.pick(['QUIZ', 'COURSE', 'SOCIAL', 'GAMES', 'SPORT', 'DANCE', 'CONCERT']));
      const venue = placeFor(theme);
      const start = random.pick(theme.starts);
      const duration = durationOf(random, theme);
      const weeks = random.int(4, 12);
      const dates = Array.from({ length: weeks }, (_, w) => date(ctx, theme, firstDay + 7 * w, start, { withEnd: true, duration }));
      vary(ctx, dates, municipality, theme);
      return { title: titleFor(random, theme, venue.name), theme, municipality, venue, dates, firstDay };
    }
    case 'sameDay': {
      const theme = themeOf(random.pick(['FAMILY', 'THEATER', 'GUIDED_TOUR', 'MOVIES']));
      const venue = placeFor(theme);
      const times = random.pick([[h(14), h(18)], [h(11), h(13), h(15)], [h(12), h(16)]]);
      const duration = Math.min(durationOf(random, theme), 100);
      const withEnd = random.chance(0.85);
      const dayCount = random.int(1, 3);
      const dates = Array.from({ length: dayCount }, (_, d) => times.map((t) => date(ctx, theme, firstDay + d, t, { withEnd, duration }))).flat();
      vary(ctx, dates, municipality, theme);
      return { title: titleFor(random, theme, venue.name), theme, municipality, venue, dates, firstDay };
    }
    case 'run': {
      // A theatre run or a concert tour: a handful of evenings, some sold out.
      const theme = themeOf(random.pick(['THEATER', 'THEATER', 'CONCERT', 'MOVIES', 'DANCE']));
      const venue = placeFor(theme);
      const start = random.pick(theme.starts);
      const duration = durationOf(random, theme);
      const count = random.int(2, 5);
      let day = firstDay;
      const dates = Array.from({ length: count }, () => {
        const d = date(ctx, theme, day, start, { withEnd: true, duration });
        day += random.int(1, 3);
        return d;
      });
      vary(ctx, dates, municipality, theme);
      return { title: titleFor(random, theme, venue.name), theme, municipality, venue, dates, firstDay };
    }
    case 'long': {
      // An exhibition open for weeks: one date from the opening to the last day.
      const theme = themeOf(random.pick(['EXHIBITION', 'EXHIBITION', 'MUSEUM']));
      const venue = placeFor(theme);
      const span = random.int(14, 90);
      const opening = date(ctx, theme, firstDay, h(11), { withEnd: false });
      opening.end = ctx.days.stamp(firstDay + span, h(17));
      return { title: titleFor(random, theme, venue.name), theme, municipality, venue, dates: [opening], firstDay };
    }
    case 'online': {
      const theme = themeOf(random.pick(['DEBATE', 'COURSE', 'TECHNOLOGY', 'LITERATURE']));
      const start = random.pick(theme.starts);
      const dates = Array.from({ length: random.int(1, 2) }, (_, i) => {
        const d = date(ctx, theme, firstDay + 7 * i, start, { withEnd: true });
        d.ticketsURL = `https://strom.example.no/live/${random.int(10000, 99999)}`;
        return d;
      });
      const [nb, en] = titleFor(random, theme, 'nett');
      return { title: [`${nb} (strømmes)`, `${en} (streamed)`], theme, municipality, venue: null, dates, firstDay, online: true };
    }
    case 'single':
    default: {
      const theme = random.weighted(THEME_WEIGHTS);
      const venue = placeFor(theme);
      const start = random.pick(theme.starts);
      const extra = theme.category === 'CONCERT' && random.chance(0.1) ? ['CLASSICAL'] : [];
      const title: Pair = extra.length > 0 ? random.pick(CLASSICAL_WORKS) : titleFor(random, theme, venue.name);
      return { title, theme, municipality, venue, dates: [date(ctx, theme, firstDay, start)], firstDay, extraCategories: extra };
    }
  }
}

/** A festival (super event) with its programme; returns as many events as `room` allows. */
function festival(ctx: Context, firstSeq: number, room: number): CalendarEvent[] {
  const { random, days } = ctx;
  const municipality = random.weighted(MUNICIPALITY_WEIGHTS);
  const [nb, en] = random.pick(FESTIVALS[municipality]);
  const firstDay = random.int(-10, 170);
  const year = days.date(firstDay).slice(0, 4);
  const festivalDays = random.int(2, 4);
  const venue = pickVenue(ctx, municipality, FESTIVAL_THEME);
  const container = finish(ctx, firstSeq, {
    title: [`${nb} ${year}`, `${en} ${year}`],
    theme: FESTIVAL_THEME,
    municipality,
    venue,
    isSuperEvent: true,
    firstDay,
    dates: Array.from({ length: festivalDays }, (_, d) => {
      const day = date(ctx, FESTIVAL_THEME, firstDay + d, h(12), { withEnd: true, duration: 11 * 60 + 30 });
      day.startTime = '12:00';
      return day;
    }),
  });
  container.ticketsInformation = 'ticketsInfo';
  container.prices = [
    { type: 'FESTIVAL_PASS', price: '1 250', name_nb: 'Festivalpass', name_en: 'Festival pass' },
    { type: 'DAY_PASS', price: '450,-', name_nb: 'Dagspass', name_en: 'Day pass' },
  ];
  const events = [container];
  const programme = Math.min(room - 1, random.int(4, 10));
  for (let i = 0; i < programme; i++) {
    const childTheme = themeOf(random.pick(['CONCERT', 'CONCERT', 'LITERATURE', 'DEBATE', 'FOOD_DRINKS', 'FAMILY']));
    const childVenue = pickVenue(ctx, municipality, childTheme);
    const day = firstDay + random.int(0, festivalDays - 1);
    const dates = [date(ctx, childTheme, day, random.pick([h(13), h(15), h(17), h(19), h(21)]))];
    if (random.chance(0.2)) dates.push(date(ctx, childTheme, day, h(22, 30)));
    events.push(
      finish(ctx, firstSeq + events.length, {
        title: titleFor(random, childTheme, childVenue.name),
        theme: childTheme,
        municipality,
        venue: childVenue,
        dates,
        firstDay: day,
        superEvent: container.id,
        extraCategories: ['FESTIVAL'],
      }),
    );
  }
  return events;
}

/** The demo calendar, its events generated one at a time (`length` of them) each time they are iterated. */
export interface DemoCalendar {
  categories: CalendarCategory[];
  venues: CalendarVenue[];
  organizers: CalendarOrganizer[];
  events: Iterable<CalendarEvent> & { readonly length: number };
}

/** The events, in order: the same seed and day give the same sequence at every iteration. */
function* demoEvents(options: DemoCalendarOptions): Generator<CalendarEvent> {
  const random = new SeededRandom(options.seed);
  const ctx: Context = { random, days: new OsloDays(options.today), places: demoPlaces(), hosts: demoHosts() };
  let count = 0;
  while (count < options.events) {
    const kind = random.weighted(KINDS);
    const seq = count + 1;
    // A festival comes with its programme (a dozen events at most), generated together.
    const batch = kind === 'festival' ? festival(ctx, seq, options.events - count) : [finish(ctx, seq, draftOf(ctx, kind))];
    count += batch.length;
    yield* batch;
  }
}

/**
 * A realistic, reproducible Norwegian event calendar around `today`: the 19 public categories plus
 * sub-categories and a hidden one, venues and organizers in six municipalities, and events of every
 * shape the API must handle (series, same-day repeats, festivals with programmes, online events,
 * cancelled and sold-out dates, dates without end time, messy price inputs, future publishing).
 *
 * The events are generated lazily, so that a million of them stream into the loader without ever
 * being held together (`calendar seed --events 1000000`).
 */
export function demoCalendar(options: DemoCalendarOptions): DemoCalendar {
  return {
    categories: demoCategories(),
    venues: demoPlaces().map((p) => p.venue),
    organizers: demoHosts().map((o) => o.organizer),
    events: { length: Math.max(0, options.events), [Symbol.iterator]: () => demoEvents(options) },
  };
}

/** The demo calendar as one object, every event in memory (for tests and small calendars). */
export function generateDemoCalendar(options: DemoCalendarOptions): CalendarFile {
  const demo = demoCalendar(options);
  return { categories: demo.categories, venues: demo.venues, organizers: demo.organizers, events: [...demo.events] };
}
