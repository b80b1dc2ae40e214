import { describe, expect, it } from 'vitest';
import { formatKroner, occurrencePrices, priceDisplay, ticketTypeLabel } from '../../packages/client/src/index.js';

const NBSP = '\u00a0';
const price = (type: string, amount: number | null, labels: { name_nb?: string | null; name_en?: string | null } = {}) => ({
  type,
  price: amount,
  name_nb: null,
  name_en: null,
  ...labels,
});

describe('formatKroner', () => {
  it('shows whole kroner as given, never divided', () => {
    expect(formatKroner(250)).toBe(`250${NBSP}kr`);
    expect(formatKroner(25000)).toBe(`25${NBSP}000${NBSP}kr`);
    expect(formatKroner(0)).toBe(`0${NBSP}kr`);
    expect(formatKroner(1250, 'en')).toBe(`1,250${NBSP}kr`);
  });
});

describe('priceDisplay', () => {
  it('shows "Gratis" for free events, whatever prices say', () => {
    expect(priceDisplay({ ticketsInformation: 'free', prices: [price('REGULAR', 100)] })).toEqual({ kind: 'free', summary: 'Gratis', lines: [] });
    expect(priceDisplay({ ticketsInformation: 'free' }, 'en').summary).toBe('Free');
  });

  it('shows nothing for noTicketsInfo: prices mean something only with ticketsInfo', () => {
    expect(priceDisplay({ ticketsInformation: 'noTicketsInfo', prices: [price('REGULAR', 100)] })).toEqual({
      kind: 'noTicketsInfo',
      summary: null,
      lines: [],
    });
  });

  it('shows one price as "250 kr"', () => {
    const display = priceDisplay({ ticketsInformation: 'ticketsInfo', prices: [price('REGULAR', 250)] });
    expect(display.summary).toBe(`250${NBSP}kr`);
    expect(display.lines).toEqual([{ label: 'Vanlig', amount: `250${NBSP}kr`, text: `Vanlig: 250${NBSP}kr` }]);
  });

  it('shows several prices as a range and one line per ticket type', () => {
    const display = priceDisplay({
      ticketsInformation: 'ticketsInfo',
      prices: [price('REGULAR', 350), price('CHILD', 150), price('SENIOR', 250)],
    });
    expect(display.summary).toBe(`150–350${NBSP}kr`);
    expect(display.lines.map((line) => line.text)).toEqual([`Vanlig: 350${NBSP}kr`, `Barn: 150${NBSP}kr`, `Honnør: 250${NBSP}kr`]);
  });

  it('keeps the label of a null price without an amount', () => {
    const display = priceDisplay({
      ticketsInformation: 'ticketsInfo',
      prices: [price('REGULAR', 200), price('EARLY_BIRD', null, { name_nb: 'Tidlig', name_en: 'Early bird' })],
    });
    expect(display.summary).toBe(`200${NBSP}kr`);
    expect(display.lines[1]).toEqual({ label: 'Tidlig', amount: null, text: 'Tidlig' });
  });

  it('reads "Gratis" when every readable amount is 0, keeping the lines; a range from 0 stays a range', () => {
    const free = priceDisplay({ ticketsInformation: 'ticketsInfo', prices: [price('REGULAR', 0), price('CHILD', 0), price('MEMBERS', null)] });
    expect(free.kind).toBe('ticketsInfo');
    expect(free.summary).toBe('Gratis');
    expect(free.lines[0]!.text).toBe(`Vanlig: 0${NBSP}kr`);
    expect(priceDisplay({ ticketsInformation: 'ticketsInfo', prices: [price('REGULAR', 0)] }, 'en').summary).toBe('Free');
    expect(priceDisplay({ ticketsInformation: 'ticketsInfo', prices: [price('REGULAR', 250), price('CHILD', 0)] }).summary).toBe(`0–250${NBSP}kr`);
  });

  it('sends the reader to the ticket information when no amount can be read', () => {
    expect(priceDisplay({ ticketsInformation: 'ticketsInfo', prices: [price('REGULAR', null)] }).summary).toBe('Se billettinfo');
    expect(priceDisplay({ ticketsInformation: 'ticketsInfo', prices: [] }, 'en').summary).toBe('See ticket info');
  });
});

describe('ticketTypeLabel', () => {
  it('prefers the organizer\'s label, then the built-in one, then a generic word', () => {
    expect(ticketTypeLabel(price('REGULAR', 1, { name_nb: ' Ordinær ' }))).toBe('Ordinær');
    expect(ticketTypeLabel(price('SENIOR', 1))).toBe('Honnør');
    expect(ticketTypeLabel(price('SENIOR', 1), 'en')).toBe('Senior');
    expect(ticketTypeLabel(price('VIP', 1, { name_en: 'VIP lounge' }))).toBe('VIP lounge');
    expect(ticketTypeLabel(price('toString', 1))).toBe('Billett');
  });
});

describe('occurrencePrices: prices are not promoted', () => {
  // A node as the API sends it: `prices` is always the event's own, whichever date is promoted; a
  // date's own prices appear only on its repetition (spec, rule 5: prices are not among the promoted fields).
  const node = {
    ticketsInformation: 'ticketsInfo',
    startDate: '2026-04-02 19:00:00+02:00',
    prices: [price('REGULAR', 200)],
    repetitions: [
      { startDate: '2026-04-03 19:00:00+02:00', prices: [price('REGULAR', 150)] },
      { startDate: '2026-04-04 19:00:00+02:00', prices: null },
    ],
  };

  it('gives the node\'s own date the event\'s prices', () => {
    expect(occurrencePrices(node)).toEqual([price('REGULAR', 200)]);
    expect(priceDisplay(node).summary).toBe(`200${NBSP}kr`);
  });

  it('gives a repetition its own prices, and the event\'s when its prices are null', () => {
    expect(occurrencePrices(node, node.repetitions[0])).toEqual([price('REGULAR', 150)]);
    expect(occurrencePrices(node, node.repetitions[1])).toEqual([price('REGULAR', 200)]);
    const perDate = node.repetitions.map((repetition) => priceDisplay({ ticketsInformation: node.ticketsInformation, prices: occurrencePrices(node, repetition) }).summary);
    expect(perDate).toEqual([`150${NBSP}kr`, `200${NBSP}kr`]);
  });

  it('keeps an empty list of the repetition\'s own as its prices, and no prices at all as none', () => {
    expect(occurrencePrices(node, { prices: [] })).toEqual([]);
    expect(occurrencePrices({ prices: null })).toEqual([]);
  });
});
