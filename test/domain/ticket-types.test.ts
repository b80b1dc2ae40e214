import { describe, it, expect } from 'vitest';
import { BUILT_IN_TICKET_TYPES, isBuiltInTicketType, ticketTypeLabels } from '../../src/domain/ticket-types.js';

describe('ticket types: built-in labels', () => {
  it('lists exactly the eight built-in types with Norwegian and English labels', () => {
    expect(BUILT_IN_TICKET_TYPES).toEqual({
      ASSISTANT: { nb: 'Ledsager', en: 'Assistant' },
      CHILD: { nb: 'Barn', en: 'Child' },
      FAMILY: { nb: 'Familie', en: 'Family' },
      MEMBERS: { nb: 'Medlemmer', en: 'Members' },
      REGULAR: { nb: 'Vanlig', en: 'Regular' },
      REDUCED: { nb: 'Redusert', en: 'Reduced' },
      SENIOR: { nb: 'Honnør', en: 'Senior' },
      STUDENT: { nb: 'Student', en: 'Student' },
    });
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(BUILT_IN_TICKET_TYPES)).toBe(true);
    expect(Object.isFrozen(BUILT_IN_TICKET_TYPES.SENIOR)).toBe(true);
  });

  it('recognises built-in ids exactly, case-sensitively', () => {
    expect(isBuiltInTicketType('REGULAR')).toBe(true);
    expect(isBuiltInTicketType('regular')).toBe(false);
    expect(isBuiltInTicketType('VIP')).toBe(false);
    expect(isBuiltInTicketType('toString')).toBe(false);
    expect(isBuiltInTicketType('__proto__')).toBe(false);
    expect(isBuiltInTicketType('')).toBe(false);
  });
});

describe('ticket types: labels of a price', () => {
  it.each(Object.entries(BUILT_IN_TICKET_TYPES))('falls back to the built-in labels of %s', (type, label) => {
    expect(ticketTypeLabels(type, {})).toEqual({ name_nb: label.nb, name_en: label.en });
  });

  it("prefers the organizer's labels for a built-in type", () => {
    expect(ticketTypeLabels('SENIOR', { name_nb: 'Pensjonist', name_en: 'Pensioner' })).toEqual({
      name_nb: 'Pensjonist',
      name_en: 'Pensioner',
    });
  });

  it('falls back per language when the organizer gave only one label', () => {
    expect(ticketTypeLabels('SENIOR', { name_nb: 'Pensjonist' })).toEqual({ name_nb: 'Pensjonist', name_en: 'Senior' });
    expect(ticketTypeLabels('CHILD', { name_en: 'Kids' })).toEqual({ name_nb: 'Barn', name_en: 'Kids' });
  });

  it('treats null, empty and blank labels as not given', () => {
    expect(ticketTypeLabels('REGULAR', { name_nb: null, name_en: null })).toEqual({ name_nb: 'Vanlig', name_en: 'Regular' });
    expect(ticketTypeLabels('REGULAR', { name_nb: '', name_en: '' })).toEqual({ name_nb: 'Vanlig', name_en: 'Regular' });
    expect(ticketTypeLabels('REGULAR', { name_nb: '  ', name_en: '\u00a0' })).toEqual({ name_nb: 'Vanlig', name_en: 'Regular' });
  });

  it("trims the organizer's labels", () => {
    expect(ticketTypeLabels('VIP', { name_nb: '  VIP-billett ', name_en: 'VIP ticket\n' })).toEqual({
      name_nb: 'VIP-billett',
      name_en: 'VIP ticket',
    });
  });

  it("uses an organizer-defined type's own labels", () => {
    expect(ticketTypeLabels('EARLY_BIRD', { name_nb: 'Tidlig', name_en: 'Early bird' })).toEqual({
      name_nb: 'Tidlig',
      name_en: 'Early bird',
    });
    expect(ticketTypeLabels('EARLY_BIRD', { name_nb: 'Tidlig' })).toEqual({ name_nb: 'Tidlig', name_en: null });
  });

  it('gives null labels for an organizer-defined type without labels', () => {
    expect(ticketTypeLabels('EARLY_BIRD', {})).toEqual({ name_nb: null, name_en: null });
    expect(ticketTypeLabels('EARLY_BIRD', { name_nb: null, name_en: '' })).toEqual({ name_nb: null, name_en: null });
  });

  it('does not treat a lowercase or prototype id as built in', () => {
    expect(ticketTypeLabels('regular', {})).toEqual({ name_nb: null, name_en: null });
    expect(ticketTypeLabels('toString', {})).toEqual({ name_nb: null, name_en: null });
    expect(ticketTypeLabels('constructor', {})).toEqual({ name_nb: null, name_en: null });
  });
});
