import { LOCALES, type Language } from './language.js';
import { ticketTypeLabel, type TicketTypeLike } from './ticket-type-label.js';

/** A price as the API returns it: whole kroner, or null when the organizer's input was not a number. */
export interface PriceLike extends TicketTypeLike {
  price: number | null;
}

export interface PricedEvent {
  /** `free`, `noTicketsInfo` or `ticketsInfo`. */
  ticketsInformation: string;
  /** The event's own prices, or one date's from `occurrencePrices`. */
  prices?: readonly PriceLike[] | null | undefined;
}

export interface PriceLine {
  label: string;
  /** `250 kr`, or null when the amount is unknown. */
  amount: string | null;
  /** `Vanlig: 250 kr`, or the label alone when the amount is unknown. */
  text: string;
}

export interface PriceDisplay {
  kind: 'free' | 'noTicketsInfo' | 'ticketsInfo';
  /** One short line for a card: `Gratis`, `250 kr`, `150–250 kr` (`0–250 kr`), `Se billettinfo`; null: show nothing. */
  summary: string | null;
  /** One line per ticket type, in the organizer's order (only for `ticketsInfo`). */
  lines: PriceLine[];
}

const TEXT = {
  nb: { free: 'Gratis', seeTickets: 'Se billettinfo' },
  en: { free: 'Free', seeTickets: 'See ticket info' },
} as const;

/** Page-wide (a cache of a pure function): one number format per language. */
const numberFormats = new Map<Language, Intl.NumberFormat>();

function formatNumber(amount: number, language: Language): string {
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: 0 });
    numberFormats.set(language, format);
  }
  return format.format(amount);
}

/**
 * `250 kr`. Prices are whole kroner exactly as the organizer meant them: never divided, never read
 * as øre (spec, Price). A no-break space keeps the amount and `kr` on one line.
 */
export function formatKroner(amount: number, language: Language = 'nb'): string {
  return `${formatNumber(amount, language)}\u00a0kr`;
}

/**
 * What to show for prices. Given an event (a node), these are the event's own prices: `Event.prices`
 * never holds a promoted date's prices. For one repetition, pass
 * `{ ticketsInformation, prices: occurrencePrices(event, repetition) }`. `ticketsInformation`
 * decides: `free` shows "Gratis"; `noTicketsInfo` shows nothing; `ticketsInfo` shows the prices,
 * which are meaningful only then (spec, Event). A null amount keeps its label and loses the number;
 * with no readable amount at all the summary sends the reader to the ticket information; when every
 * readable amount is 0 it reads "Gratis" too (the lines keep their "0 kr").
 */
export function priceDisplay(event: PricedEvent, language: Language = 'nb'): PriceDisplay {
  const text = TEXT[language];
  if (event.ticketsInformation === 'free') return { kind: 'free', summary: text.free, lines: [] };
  if (event.ticketsInformation !== 'ticketsInfo') return { kind: 'noTicketsInfo', summary: null, lines: [] };

  const prices = event.prices ?? [];
  const lines = prices.map((price): PriceLine => {
    const label = ticketTypeLabel(price, language);
    const amount = price.price == null ? null : formatKroner(price.price, language);
    return { label, amount, text: amount == null ? label : `${label}: ${amount}` };
  });
  const known = prices.map((price) => price.price).filter((amount): amount is number => amount != null);
  if (known.length === 0) return { kind: 'ticketsInfo', summary: text.seeTickets, lines };
  const low = Math.min(...known);
  const high = Math.max(...known);
  // Every readable price 0: to a reader, "0 kr" means free. A range from 0 stays a range (some tickets cost).
  if (high === 0) return { kind: 'ticketsInfo', summary: text.free, lines };
  const summary = low === high ? formatKroner(low, language) : `${formatNumber(low, language)}–${formatKroner(high, language)}`;
  return { kind: 'ticketsInfo', summary, lines };
}
