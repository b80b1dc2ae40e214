import type { Filter } from './generated/documents.js';
import type { Language } from './language.js';

export interface EventsFeedUrlOptions {
  /** Language of titles, descriptions and the calendar's name. Left out: the service's default (`nb`). */
  lan?: Language | undefined;
}

/**
 * Fields of `Filter` the feed accepts but that change nothing in it (docs/feeds.md): a feed lists
 * every date anyway, and `sortBy` has no effect in the API either. Left out for shorter links.
 */
const WITHOUT_EFFECT = new Set(['groupRepetitionsByDay', 'sortBy']);

/**
 * Encodes a parameter's value, leaving `,` and `:` as they are: both are allowed in a query (RFC 3986),
 * so links read like the documentation's (`categories=CONCERT,DANCE`, `near=59.91,10.75,5`,
 * `fromDate=2026-12-24%2018:00:00%2B01:00`) and the service reads them the same either way.
 */
const encodeValue = (value: string): string => encodeURIComponent(value).replace(/%2C/gi, ',').replace(/%3A/gi, ':');

/** A number in plain decimals: the service reads `near` without exponents, which `String(1e-7)` would write. */
const decimal = (n: number): string => {
  const text = String(n);
  return /e/i.test(text) && Number.isFinite(n) ? n.toFixed(12).replace(/\.?0+$/, '') : text;
};

/**
 * The address of the service's iCalendar feed (`GET /events.ics`, docs/feeds.md) for an `events`
 * filter: list fields comma-separated, `near` as `latitude,longitude,radiusKm`, booleans as
 * `true`/`false`, empty lists and null fields left out (they restrict nothing in the API either).
 * `baseUrl` is the service's origin or its GraphQL endpoint (`https://api.example.no/graphQL`): the
 * feed is at `/events.ics` of that origin. A relative `baseUrl` (`/graphQL`) is resolved against the
 * page's address.
 */
export function eventsFeedUrl(baseUrl: string, filter?: Filter | null, options: EventsFeedUrlOptions = {}): string {
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  const origin = new URL(baseUrl, page).origin;
  const parameters: string[] = [];
  for (const [name, value] of Object.entries<Filter[keyof Filter]>(filter ?? {})) {
    if (value == null || WITHOUT_EFFECT.has(name)) continue;
    let text: string;
    if (Array.isArray(value)) {
      const entries = value.filter((entry): entry is string => entry != null && entry !== '');
      if (entries.length === 0) continue;
      text = entries.join(',');
    } else if (typeof value === 'object') {
      // `near`, the only object among the fields.
      const { latitude, longitude, radiusKm } = value;
      text = [latitude, longitude, radiusKm].map(decimal).join(',');
    } else text = String(value);
    parameters.push(`${encodeURIComponent(name)}=${encodeValue(text)}`);
  }
  if (options.lan) parameters.push(`lan=${encodeValue(options.lan)}`);
  return `${origin}/events.ics${parameters.length > 0 ? `?${parameters.join('&')}` : ''}`;
}

/**
 * The same feed as a `webcal://` link: browsers hand it to the calendar program, which subscribes
 * to it (and fetches it over http(s)), so the subscriber's calendar follows the calendar's changes.
 */
export function eventsFeedWebcalUrl(baseUrl: string, filter?: Filter | null, options: EventsFeedUrlOptions = {}): string {
  return eventsFeedUrl(baseUrl, filter, options).replace(/^https?:/, 'webcal:');
}
