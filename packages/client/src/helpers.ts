// The helpers for the spec's client-side rules: Oslo dates and times, images, prices, category labels.
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
export type { Language } from './language.js';
