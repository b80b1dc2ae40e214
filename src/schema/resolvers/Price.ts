import type { PriceResolvers } from '../../../generated/resolvers-types.js';
import { readPriceInput } from '../../domain/price-input.js';
import { ticketTypeLabels } from '../../domain/ticket-types.js';

export const Price: PriceResolvers = {
  type: (p) => p.type,
  price: (p) => readPriceInput(p.price),
  name_nb: (p) => ticketTypeLabels(p.type, p).name_nb,
  name_en: (p) => ticketTypeLabels(p.type, p).name_en,
};
