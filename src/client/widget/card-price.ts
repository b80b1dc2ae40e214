import { priceDisplay, type Language, type PricedEvent } from '../../../packages/client/src/index.js';

const FREE = { nb: 'Gratis', en: 'Free' } as const;

/**
 * The card's price line. `ticketsInformation: free` reads "Gratis" (the client's rule); so does a
 * `ticketsInfo` event whose every readable price is 0 kr: to a reader, "0 kr" means free. A range
 * that starts at 0 stays a range ("0–250 kr": some tickets cost).
 */
export function cardPrice(event: PricedEvent, language: Language): string | null {
  const display = priceDisplay(event, language);
  if (display.kind !== 'ticketsInfo') return display.summary;
  const known = (event.prices ?? []).map((price) => price.price).filter((amount): amount is number => amount != null);
  return known.length > 0 && known.every((amount) => amount === 0) ? FREE[language] : display.summary;
}
