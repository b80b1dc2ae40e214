import { formatOsloTimestamp } from './oslo-time.js';
import { readPriceInput } from './price-input.js';
import { ticketTypeLabels } from './ticket-types.js';

/** What `Event.jsonLd` describes: one event with its promoted date, in plain values. */
export interface JsonLdEvent {
  title_nb: string | null;
  title_en: string | null;
  desc_nb: string | null;
  desc_en: string | null;
  /** `online` or `offline`. */
  mode: string;
  /** The promoted date. */
  start: Date;
  /** Null when the date has no end time. */
  end: Date | null;
  /** Minutes, or null. */
  duration: number | null;
  cancelled: boolean;
  soldOut: boolean;
  eventLink: string;
  ticketsUrl: string | null;
  ticketsFrom: Date | null;
  /** `free`, `noTicketsInfo` or `ticketsInfo`. */
  ticketsInformation: string;
  /** The promoted date's own prices where it has them, else the event's: what a ticket for this date costs. */
  prices: readonly { type: string; price: string | number | null; name_nb?: string | null; name_en?: string | null }[];
  images: readonly { urlLarge: string }[];
  venue: {
    name: string;
    address: string | null;
    postal_code: string | null;
    municipality: string | null;
    latitude: number | null;
    longitude: number | null;
  } | null;
  organizers: readonly { name: string; website: string | null }[];
}

export type JsonLdLanguage = 'nb' | 'en';

/** Every price of the calendar is in Norwegian kroner (spec: "whole price as the organizer meant it"). */
const CURRENCY = 'NOK';
/** A regional Norwegian calendar: its venues' addresses are in Norway. */
const COUNTRY = 'NO';
const SCHEMA = 'https://schema.org/';

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** Description text without markup or runs of whitespace (schema.org's description is plain text). */
function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => HTML_ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** ISO 8601 with `T` and the offset Oslo has at that instant (schema.org dates; Google wants the offset). */
const isoOslo = (instant: Date): string => formatOsloTimestamp(instant).replace(' ', 'T');

const nonBlank = (text: string | null | undefined): string | null => (text && text.trim() ? text.trim() : null);

/**
 * A schema.org `Event` for Google's event rich results (developers.google.com/search/docs/appearance/
 * structured-data/event), or null when a property Google requires cannot be filled: no title in
 * either language, or an offline date without a venue (no `location`). The chosen language's title and
 * description are used, the other language's where it has none.
 */
export function eventJsonLd(event: JsonLdEvent, lan: JsonLdLanguage): Record<string, unknown> | null {
  const other = lan === 'nb' ? 'en' : 'nb';
  const name = nonBlank(event[`title_${lan}`]) ?? nonBlank(event[`title_${other}`]);
  const online = event.mode === 'online';
  if (name === null || (!online && event.venue === null)) return null;
  const descriptionHtml = nonBlank(event[`desc_${lan}`]) ?? nonBlank(event[`desc_${other}`]);
  const description = descriptionHtml === null ? null : nonBlank(plainText(descriptionHtml));
  // No end time: the duration gives one; without either, endDate is left out rather than equal to the start.
  const end = event.end ?? (event.duration != null ? new Date(event.start.getTime() + event.duration * 60_000) : null);
  const offers = eventOffers(event, lan);
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name,
    ...(description ? { description } : {}),
    startDate: isoOslo(event.start),
    ...(end ? { endDate: isoOslo(end) } : {}),
    eventStatus: `${SCHEMA}${event.cancelled ? 'EventCancelled' : 'EventScheduled'}`,
    eventAttendanceMode: `${SCHEMA}${online ? 'OnlineEventAttendanceMode' : 'OfflineEventAttendanceMode'}`,
    location: online ? { '@type': 'VirtualLocation', url: event.eventLink } : place(event.venue!),
    ...(event.images.length > 0 ? { image: event.images.map((image) => image.urlLarge) } : {}),
    ...(event.ticketsInformation === 'free' ? { isAccessibleForFree: true } : {}),
    ...(offers.length > 0 ? { offers } : {}),
    ...(event.organizers.length > 0
      ? { organizer: event.organizers.map((o) => ({ '@type': 'Organization', name: o.name, ...(o.website ? { url: o.website } : {}) })) }
      : {}),
    url: event.eventLink,
  };
}

function place(venue: NonNullable<JsonLdEvent['venue']>): Record<string, unknown> {
  const address = {
    '@type': 'PostalAddress',
    ...(venue.address ? { streetAddress: venue.address } : {}),
    ...(venue.postal_code ? { postalCode: venue.postal_code } : {}),
    ...(venue.municipality ? { addressLocality: venue.municipality } : {}),
    addressCountry: COUNTRY,
  };
  const geo = venue.latitude != null && venue.longitude != null ? { geo: { '@type': 'GeoCoordinates', latitude: venue.latitude, longitude: venue.longitude } } : {};
  return { '@type': 'Place', name: venue.name, address, ...geo };
}

/**
 * Offers: a free event is one offer at price 0; `ticketsInfo` gives one per price that reads as a
 * number (an unreadable one, `Gratis` or `fra 100 til 200`, is left out rather than guessed);
 * `noTicketsInfo` gives none.
 */
function eventOffers(event: JsonLdEvent, lan: JsonLdLanguage): Record<string, unknown>[] {
  const common = {
    '@type': 'Offer',
    priceCurrency: CURRENCY,
    availability: `${SCHEMA}${event.soldOut ? 'SoldOut' : 'InStock'}`,
    url: event.ticketsUrl ?? event.eventLink,
    ...(event.ticketsFrom ? { validFrom: isoOslo(event.ticketsFrom) } : {}),
  };
  if (event.ticketsInformation === 'free') return [{ ...common, price: 0 }];
  if (event.ticketsInformation !== 'ticketsInfo') return [];
  return event.prices.flatMap((p) => {
    const price = readPriceInput(p.price);
    if (price === null) return [];
    const labels = ticketTypeLabels(p.type, p);
    const label = labels[`name_${lan}`] ?? labels[`name_${lan === 'nb' ? 'en' : 'nb'}`];
    return [{ ...common, ...(label ? { name: label } : {}), price }];
  });
}

/**
 * The JSON text of an object, safe inside `<script type="application/ld+json">`: `<` is written
 * `\u003c`, so no `</script>` or `<!--` in an organizer's text can end the script early.
 */
export function jsonLdText(value: Record<string, unknown>): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
