// The typed client runtime and the helpers for the spec's client-side rules. Browser-safe: no
// node modules, no graphql-js at run time (types only). Documents come from `generated/client`.
export { createCalendarClient } from './create-calendar-client.js';
export type {
  CalendarClient,
  CalendarClientOptions,
  CalendarDocument,
  FetchLike,
  RequestArgs,
  RequestOptions,
  ResultOf,
  VariablesOf,
} from './create-calendar-client.js';
export { CalendarRequestError } from './calendar-request-error.js';
export { parseServiceTimestamp } from './parse-service-timestamp.js';
export { formatOslo, osloWallClock, type OsloFormat } from './format-oslo.js';
export { eventEnd, eventEndTime, type TimedOccurrence } from './event-end.js';
export { occurrenceKey } from './occurrence-key.js';
export { coverImage, type CoverImage, type ImageLike } from './cover-image.js';
export { DEFAULT_OBJECT_POSITION, focusPosition, focusStyle, type FocusPoint } from './focus-position.js';
export { formatKroner, priceDisplay, type PricedEvent, type PriceDisplay, type PriceLike, type PriceLine } from './price-display.js';
export { occurrencePrices } from './occurrence-prices.js';
export { ticketTypeLabel, type TicketTypeLike } from './ticket-type-label.js';
export { categoryLabeler, type CategoryLike } from './category-labels.js';
export { sha256Hex } from './sha256-hex.js';
export type { Language } from './language.js';
