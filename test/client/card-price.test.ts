import { describe, expect, it } from 'vitest';
import { cardPrice } from '../../src/client/widget/card-price.js';

const regular = (price: number | null) => ({ type: 'REGULAR', price, name_nb: null, name_en: null });

describe('widget: the price line of a card', () => {
  it('reads free events as free, in both languages', () => {
    expect(cardPrice({ ticketsInformation: 'free', prices: [] }, 'nb')).toBe('Gratis');
    expect(cardPrice({ ticketsInformation: 'free', prices: [] }, 'en')).toBe('Free');
  });

  it('reads ticket information whose every readable price is 0 kr as free, not "0 kr"', () => {
    expect(cardPrice({ ticketsInformation: 'ticketsInfo', prices: [regular(0)] }, 'nb')).toBe('Gratis');
    expect(cardPrice({ ticketsInformation: 'ticketsInfo', prices: [regular(0), { ...regular(0), type: 'CHILD' }] }, 'en')).toBe('Free');
    // An unreadable input beside a 0 ("gratis for medlemmer") does not make the event cost anything.
    expect(cardPrice({ ticketsInformation: 'ticketsInfo', prices: [regular(0), { ...regular(null), type: 'MEMBERS' }] }, 'nb')).toBe('Gratis');
  });

  it('keeps a range that starts at 0, and real prices, as amounts', () => {
    expect(cardPrice({ ticketsInformation: 'ticketsInfo', prices: [regular(250), { ...regular(0), type: 'CHILD' }] }, 'nb')).toBe('0–250\u00a0kr');
    expect(cardPrice({ ticketsInformation: 'ticketsInfo', prices: [regular(150)] }, 'nb')).toBe('150\u00a0kr');
  });

  it('sends the reader to the ticket information when no price is readable, and says nothing without any', () => {
    expect(cardPrice({ ticketsInformation: 'ticketsInfo', prices: [regular(null)] }, 'nb')).toBe('Se billettinfo');
    expect(cardPrice({ ticketsInformation: 'noTicketsInfo', prices: [regular(0)] }, 'nb')).toBeNull();
  });
});
