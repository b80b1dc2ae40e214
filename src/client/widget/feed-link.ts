import type { Filter } from '../../../packages/client/src/generated/documents.js';
import type { Language } from '../../../packages/client/src/index.js';

/**
 * The `webcal://` address of the service's iCalendar feed for a filter (docs/feeds.md): calendar
 * programs open it as a subscription, so the subscriber's calendar follows the calendar as it
 * changes. List fields are written comma-separated; `near` as latitude,longitude,radiusKm.
 */
export function feedUrl(endpoint: string, filter: Filter | null | undefined, language: Language): string {
  const url = new URL('/events.ics', new URL(endpoint, typeof location === 'object' ? location.href : undefined));
  for (const [name, value] of Object.entries(filter ?? {})) {
    if (value == null || name === 'groupRepetitionsByDay' || name === 'sortBy') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) url.searchParams.set(name, value.join(','));
    } else if (typeof value === 'object') {
      const near = value as { latitude: number; longitude: number; radiusKm: number };
      url.searchParams.set(name, `${near.latitude},${near.longitude},${near.radiusKm}`);
    } else url.searchParams.set(name, String(value));
  }
  url.searchParams.set('lan', language);
  // webcal: is http(s) to every calendar program that subscribes; the path and query stay as they are.
  return `webcal://${url.host}${url.pathname}${url.search}`;
}
