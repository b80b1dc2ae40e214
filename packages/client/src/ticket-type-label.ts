import type { Language } from './language.js';

// The built-in ticket types of the spec (Price); organizers may define more ids, without a fallback label.
const BUILT_IN: Readonly<Record<string, readonly [nb: string, en: string]>> = {
  ASSISTANT: ['Ledsager', 'Assistant'],
  CHILD: ['Barn', 'Child'],
  FAMILY: ['Familie', 'Family'],
  MEMBERS: ['Medlemmer', 'Members'],
  REGULAR: ['Vanlig', 'Regular'],
  REDUCED: ['Redusert', 'Reduced'],
  SENIOR: ['Honnør', 'Senior'],
  STUDENT: ['Student', 'Student'],
};

/** The label fields of a price. */
export interface TicketTypeLike {
  type: string;
  name_nb?: string | null | undefined;
  name_en?: string | null | undefined;
}

/**
 * The label of a price's ticket type: the organizer's own label in the language, else the other
 * language's, else the built-in label of a built-in id, else a generic "Billett" / "Ticket".
 */
export function ticketTypeLabel(price: TicketTypeLike, language: Language = 'nb'): string {
  const own = (language === 'nb' ? [price.name_nb, price.name_en] : [price.name_en, price.name_nb])
    .map((label) => label?.trim())
    .find((label) => label);
  if (own) return own;
  const builtIn = Object.hasOwn(BUILT_IN, price.type) ? BUILT_IN[price.type] : undefined;
  if (builtIn) return builtIn[language === 'nb' ? 0 : 1];
  return language === 'nb' ? 'Billett' : 'Ticket';
}
