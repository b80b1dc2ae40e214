import type { CalendarCategory } from '../import/import-format.js';

/** The 19 public categories, in the order the category list shows them. */
export const DEMO_CATEGORY_ROWS: readonly (readonly [id: string, nameNb: string, nameEn: string, slugNb: string, slugEn: string])[] = [
  ['FAMILY', 'Barn / familie', 'Children / family', 'barn-familie', 'children-family'],
  ['DANCE', 'Dans', 'Dance', 'dans', 'dance'],
  ['FESTIVAL', 'Festival', 'Festival', 'festival', 'festival'],
  ['MOVIES', 'Film', 'Film', 'film', 'movies'],
  ['CONCERT', 'Konsert', 'Concert', 'konsert', 'concert'],
  ['COURSE', 'Kurs / workshop', 'Courses / workshops', 'kurs-workshop', 'courses-workshops'],
  ['LITERATURE', 'Litteratur', 'Literature', 'litteratur', 'literature'],
  ['MARKET', 'Marked / messer', 'Markets / fairs', 'marked-messer', 'markets-fairs'],
  ['FOOD_DRINKS', 'Mat og drikke', 'Food and drinks', 'mat-og-drikke', 'food-and-drinks'],
  ['MUSEUM', 'Museum', 'Museum', 'museum', 'museum'],
  ['GUIDED_TOUR', 'Omvisning', 'Guided tour', 'omvisning', 'guided-tour'],
  ['QUIZ', 'Quiz', 'Quiz', 'quiz', 'quiz'],
  ['DEBATE', 'Samtale / foredrag', 'Talks / lectures', 'samtale-foredrag', 'talks-lectures'],
  ['SOCIAL', 'Sosialt', 'Social', 'sosialt', 'social'],
  ['GAMES', 'Spill / gaming', 'Games / gaming', 'spill-gaming', 'games-gaming'],
  ['SPORT', 'Sport / friluftsliv', 'Sports / outdoors', 'sport-friluftsliv', 'sports-outdoors'],
  ['THEATER', 'Teater / show', 'Theater / show', 'teater-show', 'theater-show'],
  ['EXHIBITION', 'Utstilling', 'Exhibition', 'utstilling', 'exhibition'],
  ['TECHNOLOGY', 'Vitenskap / teknologi', 'Science / technology', 'vitenskap-teknologi', 'science-technology'],
];

/** The public categories, then two sub-categories of concerts and a hidden one. */
export function demoCategories(): CalendarCategory[] {
  const visible = DEMO_CATEGORY_ROWS.map(([id, name_nb, name_en, slug_nb, slug_en]): CalendarCategory => ({
    id,
    name_nb,
    name_en,
    slug_nb,
    slug_en,
    visible: true,
    parent: null,
  }));
  return [
    ...visible,
    { id: 'JAZZ', name_nb: 'Jazz', name_en: 'Jazz', slug_nb: 'jazz', slug_en: 'jazz', visible: true, parent: 'CONCERT' },
    { id: 'CLASSICAL', name_nb: 'Klassisk', name_en: 'Classical', slug_nb: 'klassisk', slug_en: 'classical', visible: true, parent: 'CONCERT' },
    // Used by the editors to mark events for partners; never shown in the category list.
    { id: 'INTERNAL', name_nb: 'Internt', name_en: 'Internal', slug_nb: 'internt', slug_en: 'internal', visible: false, parent: null },
  ];
}
