/** The two languages the calendar carries labels in (`*_nb`, `*_en`). */
export type Language = 'nb' | 'en';

/** The locale used for numbers and dates in each language. */
export const LOCALES: Readonly<Record<Language, string>> = { nb: 'nb-NO', en: 'en-GB' };
