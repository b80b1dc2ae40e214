import type { VenueRow } from '../db/database.js';
import type { SnapshotCatalogue } from '../read-model/snapshot/calendar-snapshot.js';
import type { FeedOccurrence } from './feed-occurrences.js';
import type { FeedEventRecord } from './feed-records.js';
import type { FeedLanguage } from './feed-parameters.js';
import { contentLine, escapeText, foldLine } from './ics-text.js';
import { OSLO_VTIMEZONE, osloDateTimeProperty, utcDateTime } from './oslo-ical-time.js';

export interface IcsFeed {
  occurrences: readonly FeedOccurrence[];
  catalogue: SnapshotCatalogue;
  lan: FeedLanguage;
  /** The calendar's name in the subscriber's list of calendars. */
  name: string;
  /** Base of `eventLink` (PUBLIC_SITE_URL), whose host also ends every UID. */
  eventLinkBase: string;
}

/** Product identifier (RFC 5545 §3.7.3). */
const PRODID = '-//Event calendar query service//Calendar feed//EN';
/** How often subscribers are asked to look again (RFC 7986 REFRESH-INTERVAL; X-PUBLISHED-TTL for Outlook). */
const REFRESH_INTERVAL = 'PT1H';
/** SEQUENCE counts seconds from here: an INTEGER is 32-bit (§3.3.8), and seconds since 1970 overflow it in 2038. */
const SEQUENCE_EPOCH_MS = Date.UTC(2020, 0, 1);

const CANCELLED_PREFIX: Record<FeedLanguage, string> = { nb: 'AVLYST: ', en: 'CANCELLED: ' };

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** A description without markup: paragraphs and line breaks kept as line breaks, entities decoded. */
export function plainTextOf(html: string): string {
  return html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/\s*(p|div|h[1-6]|li)\s*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return HTML_ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    })
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const nonBlank = (text: string | null | undefined): string | null => (text && text.trim() ? text.trim() : null);

/** Where the date takes place, as one line: venue name, street address, postal code and municipality. */
function locationOf(venue: VenueRow): string {
  const town = [venue.postal_code, venue.municipality].filter((part) => nonBlank(part)).join(' ');
  return [venue.name, venue.address, town].filter((part): part is string => nonBlank(part) !== null).join(', ');
}

/** A venue's LOCATION line and, when it has a location, its GEO line. */
function placeLinesOf(venue: VenueRow): string {
  const location = contentLine('LOCATION', escapeText(locationOf(venue)));
  return venue.latitude != null && venue.longitude != null ? `${location}GEO:${coordinate(venue.latitude)};${coordinate(venue.longitude)}\r\n` : location;
}

/** A coordinate as a plain decimal (GEO takes FLOAT: never an exponent), six decimals (about 10 cm). */
const coordinate = (value: number): string => String(Number(value.toFixed(6)));

/** An RFC 5545 UID that is the same for the same date of the same event on every import. */
export function occurrenceUid(eventId: string, start: Date, host: string): string {
  return `${eventId}-${utcDateTime(start)}@${host}`;
}

/**
 * The feed as an RFC 5545 VCALENDAR: one VEVENT per date (see feed-occurrences.ts), lines folded
 * and ended with CRLF. Nothing in it is read from the clock (the clock only chooses the dates), so
 * the same dates of the same data version give the same bytes, and entity tag, on every node.
 */
export function renderIcsFeed(feed: IcsFeed): string {
  const { lan, catalogue } = feed;
  const base = feed.eventLinkBase.replace(/\/+$/, '');
  const host = hostOf(base);
  const categoryNames = new Map(catalogue.categories.map((c) => [c.id, lan === 'nb' ? c.name_nb : c.name_en]));
  const parts: string[] = [
    'BEGIN:VCALENDAR\r\n',
    'VERSION:2.0\r\n',
    `PRODID:${PRODID}\r\n`,
    'CALSCALE:GREGORIAN\r\n',
    contentLine('NAME', escapeText(feed.name)),
    contentLine('X-WR-CALNAME', escapeText(feed.name)),
    'X-WR-TIMEZONE:Europe/Oslo\r\n',
    `REFRESH-INTERVAL;VALUE=DURATION:${REFRESH_INTERVAL}\r\n`,
    `X-PUBLISHED-TTL:${REFRESH_INTERVAL}\r\n`,
    ...OSLO_VTIMEZONE.map((line) => `${line}\r\n`),
  ];
  // An event's own lines, written once for all its dates in the feed; a venue's LOCATION and GEO too.
  const eventLines = new Map<string, EventLines>();
  const placeLines = new Map<string, string>();
  for (const occurrence of feed.occurrences) {
    const { event, start, end } = occurrence;
    let own = eventLines.get(event.id);
    if (!own) {
      own = eventLinesOf(event, occurrence.categoryIds, lan, base, categoryNames);
      eventLines.set(event.id, own);
    }
    let place = occurrence.venueId ? placeLines.get(occurrence.venueId) : '';
    if (place === undefined) {
      const venue = catalogue.venues.get(occurrence.venueId!);
      place = venue ? placeLinesOf(venue) : '';
      placeLines.set(occurrence.venueId!, place);
    }
    // Without an end time, no DTEND: the event then "ends on the same date and time" as it starts
    // (§3.6.1), as the API's endDate equals startDate. A DTEND must be later than DTSTART.
    const dtend = end !== null && end.getTime() > start.getTime() ? `${osloDateTimeProperty('DTEND', end)}\r\n` : '';
    parts.push(
      'BEGIN:VEVENT\r\n' +
        contentLine('UID', escapeText(occurrenceUid(event.id, start, host))) +
        own.stamps +
        `${osloDateTimeProperty('DTSTART', start)}\r\n` +
        dtend +
        (occurrence.cancelled ? own.cancelledSummary : own.summary) +
        own.description +
        place +
        own.categories +
        own.url +
        `STATUS:${occurrence.cancelled ? 'CANCELLED' : 'CONFIRMED'}\r\nEND:VEVENT\r\n`,
    );
  }
  parts.push('END:VCALENDAR\r\n');
  return parts.join('');
}

/** The lines of a VEVENT that depend on the event alone, folded, CRLF-ended ('' for an absent one). */
interface EventLines {
  stamps: string;
  summary: string;
  cancelledSummary: string;
  description: string;
  categories: string;
  url: string;
}

function eventLinesOf(event: FeedEventRecord, categoryIds: readonly string[], lan: FeedLanguage, base: string, categoryNames: ReadonlyMap<string, string>): EventLines {
  const other: FeedLanguage = lan === 'nb' ? 'en' : 'nb';
  const updated = event.updated_at;
  const link = `${base}/${encodeURIComponent(event.slug)}`;
  const title = nonBlank(event[`title_${lan}`]) ?? nonBlank(event[`title_${other}`]) ?? event.slug;
  const html = nonBlank(event[`desc_${lan}`]) ?? nonBlank(event[`desc_${other}`]);
  // The link in the text too: most calendar programs show DESCRIPTION but not URL.
  const description = [html === null ? null : plainTextOf(html), link].filter((part) => part).join('\n\n');
  const categories = categoryIds.flatMap((id) => categoryNames.get(id) ?? []);
  return {
    // No METHOD: DTSTAMP is then when the information was last revised (RFC 5545 §3.8.7.2).
    stamps:
      `DTSTAMP:${utcDateTime(updated)}\r\nLAST-MODIFIED:${utcDateTime(updated)}\r\n` +
      `SEQUENCE:${Math.max(0, Math.floor((updated.getTime() - SEQUENCE_EPOCH_MS) / 1000))}\r\n`,
    summary: contentLine('SUMMARY', escapeText(title)),
    // Clients that hide STATUS (or a subscriber skimming) still see that the date is off.
    cancelledSummary: contentLine('SUMMARY', escapeText(CANCELLED_PREFIX[lan] + title)),
    description: contentLine('DESCRIPTION', escapeText(description)),
    categories: categories.length > 0 ? contentLine('CATEGORIES', categories.map(escapeText).join(',')) : '',
    url: foldLine(`URL:${link}`),
  };
}

function hostOf(base: string): string {
  try {
    return new URL(base).host || 'calendar.invalid';
  } catch {
    return 'calendar.invalid';
  }
}
