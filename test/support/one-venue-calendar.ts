/** A calendar of one venue and one category, for the read model's build tests: events of one date each, at 19:00 in June 2026. */
export const ONE_VENUE = { id: 'V-1', slug: 'v-1', name: 'Scene', address: null, postalCode: null, municipality: 'Oslo', location: null };

export const ONE_VENUE_CATALOGUE = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [ONE_VENUE],
};

/** An event at the venue, on the given day of June 2026. */
export const oneVenueEvent = (id: string, title: string, day = 2) => ({
  id,
  slug: id.toLowerCase(),
  title_nb: title,
  venue: 'V-1',
  categories: ['CONCERT'],
  dates: [{ start: `2026-06-${String(day).padStart(2, '0')}T19:00:00+02:00` }],
});
