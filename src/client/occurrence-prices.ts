import type { PriceLike } from './price-display.js';

/** The prices of one date: a repetition's own, or "when a repetition's `prices` is null, the event's" (spec). */
export function occurrencePrices<TPrice extends PriceLike>(
  event: { prices?: readonly TPrice[] | null | undefined },
  repetition?: { prices?: readonly TPrice[] | null | undefined } | null,
): readonly TPrice[] {
  return repetition?.prices ?? event.prices ?? [];
}
