import type { PriceResolvers } from '../../../generated/resolvers-types.js';
import { readPriceInput } from '../../domain/price-input.js';
import { ticketTypeLabels } from '../../domain/ticket-types.js';

// `type` is the stored price's own property, read without a resolver (schema/event-node.ts says why).
export const Price = {
  price: (p) => readPriceInput(p.price),
  name_nb: (p) => ticketTypeLabels(p.type, p).name_nb,
  name_en: (p) => ticketTypeLabels(p.type, p).name_en,
} satisfies PriceResolvers;
