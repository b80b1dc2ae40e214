/** Norwegian and English label of a ticket type. */
export interface TicketTypeLabel {
  nb: string;
  en: string;
}

export type BuiltInTicketTypeId =
  | 'ASSISTANT'
  | 'CHILD'
  | 'FAMILY'
  | 'MEMBERS'
  | 'REGULAR'
  | 'REDUCED'
  | 'SENIOR'
  | 'STUDENT';

/** Ticket types the calendar knows by id; organizers may also define their own ids. */
export const BUILT_IN_TICKET_TYPES: Readonly<Record<BuiltInTicketTypeId, Readonly<TicketTypeLabel>>> = Object.freeze({
  ASSISTANT: Object.freeze({ nb: 'Ledsager', en: 'Assistant' }),
  CHILD: Object.freeze({ nb: 'Barn', en: 'Child' }),
  FAMILY: Object.freeze({ nb: 'Familie', en: 'Family' }),
  MEMBERS: Object.freeze({ nb: 'Medlemmer', en: 'Members' }),
  REGULAR: Object.freeze({ nb: 'Vanlig', en: 'Regular' }),
  REDUCED: Object.freeze({ nb: 'Redusert', en: 'Reduced' }),
  SENIOR: Object.freeze({ nb: 'Honnør', en: 'Senior' }),
  STUDENT: Object.freeze({ nb: 'Student', en: 'Student' }),
});

/** Exact, case-sensitive match; `Object.hasOwn` keeps ids like `toString` from reaching the prototype. */
export function isBuiltInTicketType(type: string): type is BuiltInTicketTypeId {
  return Object.hasOwn(BUILT_IN_TICKET_TYPES, type);
}

export interface TicketTypeLabels {
  name_nb: string | null;
  name_en: string | null;
}

function givenLabel(label: string | null | undefined): string | null {
  const trimmed = label?.trim();
  return trimmed ? trimmed : null;
}

/**
 * Labels for a price's ticket type, per language: the organizer's own label wins when given
 * (blank counts as not given; surrounding whitespace is trimmed), else the built-in label for a
 * built-in id, else null (organizer-defined types have no fallback).
 */
export function ticketTypeLabels(
  type: string,
  given: { name_nb?: string | null; name_en?: string | null },
): TicketTypeLabels {
  const builtIn = isBuiltInTicketType(type) ? BUILT_IN_TICKET_TYPES[type] : null;
  return {
    name_nb: givenLabel(given.name_nb) ?? builtIn?.nb ?? null,
    name_en: givenLabel(given.name_en) ?? builtIn?.en ?? null,
  };
}
