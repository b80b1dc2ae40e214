import type { CalendarPrice } from '../import/import-format.js';
import type { SeededRandom } from './seeded-random.js';

/** Prices as organizers type them by hand, so the demo data is as messy as the real calendar. */
export const MESSY_PRICES: readonly (string | number)[] = [
  '250,-', '1 250', 'kr 150', 'Gratis', '99.5', 200, 350, '150 kr', 'kr. 450,-', '120', 0, '75,50', '1.200', 'NOK 300', 180, 99.5, '450', '50,-',
];
const BUILT_IN_TYPES = ['REGULAR', 'STUDENT', 'CHILD', 'SENIOR', 'FAMILY', 'MEMBERS', 'REDUCED', 'ASSISTANT'] as const;
const OWN_TYPES: readonly CalendarPrice[] = [
  { type: 'EARLY_BIRD', price: '199,-', name_nb: 'Tidlig-billett', name_en: 'Early bird' },
  { type: 'VIP', price: 1200, name_nb: 'VIP-billett', name_en: 'VIP ticket' },
  { type: 'STANDING', price: 'kr 250', name_nb: 'Ståplass', name_en: 'Standing' },
  { type: 'DAY_PASS', price: '650', name_nb: 'Dagspass', name_en: 'Day pass' },
];

/** An event's prices: one to three built-in types, now and then one of the organizer's own. */
export function demoPrices(random: SeededRandom): CalendarPrice[] {
  const count = random.weighted([[1, 5], [2, 4], [3, 2]] as const);
  const out: CalendarPrice[] = random
    .sample(BUILT_IN_TYPES, count)
    .map((type) => ({ type, price: random.pick(MESSY_PRICES) }));
  // A built-in type with the organizer's own wording now and then.
  const first = out[0];
  if (first && first.type === 'REGULAR' && random.chance(0.2)) {
    first.name_nb = 'Ordinær';
    first.name_en = 'Standard';
  }
  if (random.chance(0.15)) out.push({ ...random.pick(OWN_TYPES) });
  return out;
}
