import type { EventResolvers } from '../../../generated/resolvers-types.js';
import { eventJsonLd, jsonLdText } from '../../domain/event-json-ld.js';
import { formatOsloTimestamp } from '../../domain/oslo-time.js';
import { invalidArguments } from '../errors.js';
import { resolveDemoPictureUrl } from '../../import/demo-picture-path.js';
import { publicBaseUrlOf } from '../public-base-url-context.js';

/** `YYYY-MM-DD` as days since 1970-01-01, as the read model numbers Oslo days. */
const osloDayNumber = (day: string): number => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

const optionalTimestamp = (value: Date | string | null): string | null =>
  value == null ? null : formatOsloTimestamp(new Date(value));

const eventLink = (slug: string, base: string): string => `${base}/${encodeURIComponent(slug)}`;

/** Event fields. Date fields come from the promoted date (`node.occurrence`), the rest from the event. */
export const Event: EventResolvers = {
  id: (n) => n.event.id,
  event_slug: (n) => n.event.slug,
  eventLink: (n, _a, ctx) => eventLink(n.event.slug, ctx.eventLinkBase),
  title_nb: (n) => n.event.title_nb,
  title_en: (n) => n.event.title_en,
  desc_nb: (n) => n.event.desc_nb,
  desc_en: (n) => n.event.desc_en,
  startDate: (n) => formatOsloTimestamp(new Date(n.occurrence.start_at)),
  // No end time: "endDate equals startDate".
  endDate: (n) => formatOsloTimestamp(new Date(n.occurrence.end_at ?? n.occurrence.start_at)),
  startTime: (n) => n.occurrence.start_time,
  duration: (n) => n.occurrence.duration,
  categories: (n) => n.event.category_ids,
  mode: (n) => n.event.mode,
  tags: (n) => n.event.tags,
  // From the node's own snapshot, without a promise per node (a whole-world area answer has thousands).
  venue: (n) => (n.occurrence.venue_id ? (n.catalogue.venues.get(n.occurrence.venue_id) ?? null) : null),
  organizers: (n) => n.event.organizer_ids.flatMap((id) => n.catalogue.organizers.get(id) ?? []),
  images: (n) => n.event.images,
  repetitions: async (n, _a, ctx) => {
    // Read with the page (same data version); loaded here only for a selection the resolver missed.
    if (n.repetitions) return n.repetitions;
    const dates = await ctx.loaders.upcomingOccurrences.load(n.event.id);
    const promoted = n.occurrence;
    const promotedStart = new Date(promoted.start_at).getTime();
    // "The event's later dates that have not ended"; grouped by day: that day's later dates only.
    return dates.filter((d) => {
      const start = new Date(d.start_at).getTime();
      const later = start > promotedStart || (start === promotedStart && Number(d.id) > Number(promoted.id));
      return later && (n.groupedDay == null || osloDayNumber(d.local_day) === n.groupedDay);
    });
  },
  ticketsInformation: (n) => n.event.tickets_information,
  // Not promoted (rule 5): a date's own prices show on its Repetition; the event's are the event's.
  prices: (n) => n.event.prices,
  ticketsURL: (n) => n.occurrence.tickets_url,
  eventCancelled: (n) => n.occurrence.cancelled,
  eventSoldOut: (n) => n.occurrence.sold_out,
  isSuperEvent: (n) => n.event.is_super_event,
  superEventID: (n) => n.event.super_event_id,
  featured: (n) => n.event.featured,
  minimumAge: (n) => n.event.minimum_age,
  maximumAge: (n) => n.event.maximum_age,
  ageRestriction: (n) => n.event.age_restriction,
  cancellationPeriod: (n) => n.event.cancellation_period,
  views: (n) => n.event.views,
  publishingDate: (n) => optionalTimestamp(n.event.publishing_date),
  ticketsFromDate: (n) => optionalTimestamp(n.event.tickets_from_date),
  created_at: (n) => new Date(n.event.created_at).toISOString(),
  updated_at: (n) => new Date(n.event.updated_at).toISOString(),
  registrationEnabled: (n) => n.event.registration_enabled,
  availableTickets: (n) => n.event.available_tickets,
  activeTickets: (n) => n.event.active_tickets,
  maxBookingDate: (n) => n.event.max_booking_date,
  maxBookingTime: (n) => n.event.max_booking_time,
  paymentMethod: (n) => n.event.payment_method,
  distanceKm: (n) => n.distanceKm,
  jsonLd: (n, { lan }, ctx) => {
    const language = lan ?? 'nb';
    if (language !== 'nb' && language !== 'en') throw invalidArguments(['lan'], 'lan must be "nb" or "en"');
    const { event, occurrence } = n;
    const venue = occurrence.venue_id ? (n.catalogue.venues.get(occurrence.venue_id) ?? null) : null;
    const value = eventJsonLd(
      {
        title_nb: event.title_nb,
        title_en: event.title_en,
        desc_nb: event.desc_nb,
        desc_en: event.desc_en,
        mode: event.mode,
        start: new Date(occurrence.start_at),
        end: occurrence.end_at == null ? null : new Date(occurrence.end_at),
        duration: occurrence.duration,
        cancelled: occurrence.cancelled,
        soldOut: occurrence.sold_out,
        eventLink: eventLink(event.slug, ctx.eventLinkBase),
        ticketsUrl: occurrence.tickets_url,
        ticketsFrom: event.tickets_from_date == null ? null : new Date(event.tickets_from_date),
        ticketsInformation: event.tickets_information,
        // The promoted date's own prices where it has them: what a ticket for this date costs.
        prices: occurrence.prices ?? event.prices,
        // Demo pictures are stored as paths on this service: absolute URLs here too, as Image answers them.
        images: event.images.map((image) => ({ ...image, urlLarge: resolveDemoPictureUrl(image.urlLarge, publicBaseUrlOf(ctx)) })),
        venue,
        organizers: event.organizer_ids.flatMap((id) => n.catalogue.organizers.get(id) ?? []),
      },
      language,
    );
    return value === null ? null : jsonLdText(value);
  },
};
