import type { PriceLike } from './price-display.js';

/**
 * The prices that apply to one date of an event. Prices are not promoted: a promoted date brings
 * into the node only its start, end, start time, duration, venue, tickets URL and the cancelled and
 * sold-out flags (spec, rule 5), so `Event.prices` is always the event's own. A date's own prices
 * appear only on that date's `Repetition.prices`, and "when a repetition's `prices` is null, the
 * event's `prices` apply". Hence: a repetition's own prices, else the event's; without a repetition
 * (the node's own date) the event's.
 */
export function occurrencePrices<TPrice extends PriceLike>(
  event: { prices?: readonly TPrice[] | null | undefined },
  repetition?: { prices?: readonly TPrice[] | null | undefined } | null,
): readonly TPrice[] {
  return repetition?.prices ?? event.prices ?? [];
}
