import { priceDisplay, type Language, type PricedEvent } from '../../../packages/client/src/index.js';

/**
 * The card's price line: the client package's summary. `ticketsInformation: free` reads "Gratis"; so
 * does a `ticketsInfo` event whose every readable price is 0 kr; a range that starts at 0 stays a
 * range ("0–250 kr": some tickets cost).
 */
export function cardPrice(event: PricedEvent, language: Language): string | null {
  return priceDisplay(event, language).summary;
}
