import type { Language } from '../../../packages/client/src/index.js';

/** The widget's own words, per language. */
export const TEXTS = {
  nb: {
    heading: 'Kommende arrangementer',
    filter: 'Filtrer på kategori',
    all: 'Alle',
    loading: 'Henter arrangementer …',
    failed: 'Kunne ikke hente arrangementer.',
    retry: 'Prøv igjen',
    empty: 'Ingen kommende arrangementer.',
    count: (total: number) => (total === 1 ? '1 arrangement' : `${total} arrangementer`),
    page: (page: number, pages: number) => `Side ${page} av ${pages}`,
    pages: 'Sider',
    previous: 'Forrige',
    next: 'Neste',
    categories: 'Kategorier',
    cancelled: 'Avlyst',
    soldOut: 'Utsolgt',
    untitled: 'Uten tittel',
    online: 'På nett',
    osloTime: 'Alle tider er norsk tid.',
    subscribe: 'Abonner i kalenderen din',
  },
  en: {
    heading: 'Upcoming events',
    filter: 'Filter by category',
    all: 'All',
    loading: 'Loading events …',
    failed: 'Could not load events.',
    retry: 'Try again',
    empty: 'No upcoming events.',
    count: (total: number) => (total === 1 ? '1 event' : `${total} events`),
    page: (page: number, pages: number) => `Page ${page} of ${pages}`,
    pages: 'Pages',
    previous: 'Previous',
    next: 'Next',
    categories: 'Categories',
    cancelled: 'Cancelled',
    soldOut: 'Sold out',
    untitled: 'Untitled',
    online: 'Online',
    osloTime: 'All times are Norwegian time (Oslo).',
    subscribe: 'Subscribe in your calendar',
  },
} satisfies Record<Language, unknown>;

export type WidgetTexts = (typeof TEXTS)[Language];
