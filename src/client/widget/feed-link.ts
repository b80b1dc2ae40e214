import type { Filter } from '../../../packages/client/src/generated/documents.js';
import { eventsFeedWebcalUrl, type Language } from '../../../packages/client/src/index.js';

/**
 * The `webcal://` address of the service's iCalendar feed for a filter (docs/feeds.md): calendar
 * programs open it as a subscription, so the subscriber's calendar follows the calendar as it
 * changes. The client package's `eventsFeedWebcalUrl` writes it (lists comma-separated, `near` as
 * latitude,longitude,radiusKm); kept under this name for the widget and its tests.
 */
export function feedUrl(endpoint: string, filter: Filter | null | undefined, language: Language): string {
  return eventsFeedWebcalUrl(endpoint, filter, { lan: language });
}
