import type { EventResolvers } from '../../../generated/resolvers-types.js';
import { resolveDemoPictureUrl } from '../../demo/demo-picture-path.js';
import { eventJsonLd, jsonLdText } from '../../domain/event-json-ld.js';
import { invalidArguments } from '../../api-error.js';
/** `YYYY-MM-DD` as days since 1970-01-01, as the read model numbers Oslo days. */
const osloDayNumber = (day: string): number => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

const eventLink = (slug: string, base: string): string => `${base}/${encodeURIComponent(slug)}`;

/**
 * The Event fields that need the request or take arguments; every other field is a getter of the
 * node itself (schema/event-node.ts), read without a resolver (field-coverage.ts checks that each is
 * there, of the type the schema gives).
 */
export const Event = {
  eventLink: ({ node }, _a, ctx) => eventLink(node.event.slug, ctx.eventLinkBase),
  repetitions: async ({ node: n }, _a, ctx) => {
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
  jsonLd: ({ node: n }, { lan }, ctx) => {
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
        images: event.images.map((image) => ({ ...image, urlLarge: resolveDemoPictureUrl(image.urlLarge, ctx.publicBaseUrl) })),
        venue,
        organizers: event.organizer_ids.flatMap((id) => n.catalogue.organizers.get(id) ?? []),
      },
      language,
    );
    return value === null ? null : jsonLdText(value);
  },
} satisfies EventResolvers;
