import type { CalendarOrganizer } from '../import/import-format.js';
import type { Municipality } from './demo-places.js';

const ORGANIZER_ROWS: [slug: string, name: string, municipality: Municipality, hasWebsite: boolean, categories: string[]][] = [
  ['oslo-jazzforum', 'Oslo Jazzforum', 'Oslo', true, ['CONCERT']],
  ['litteraturhuset-i-oslo', 'Litteraturhuset i Oslo', 'Oslo', true, ['LITERATURE', 'DEBATE']],
  ['deichman', 'Deichman', 'Oslo', true, ['LITERATURE', 'FAMILY', 'COURSE', 'GAMES', 'TECHNOLOGY', 'DEBATE', 'SOCIAL']],
  ['grunerlokka-kulturforening', 'Grünerløkka Kulturforening', 'Oslo', false, ['SOCIAL', 'MARKET', 'FOOD_DRINKS', 'CONCERT', 'FESTIVAL']],
  ['toyen-quizlag', 'Tøyen Quizlag', 'Oslo', false, ['QUIZ']],
  ['terningkast-brettspillkafe', 'Terningkast brettspillkafé', 'Oslo', true, ['GAMES']],
  ['oslo-filmklubb', 'Oslo Filmklubb', 'Oslo', true, ['MOVIES']],
  ['sagene-dansestudio', 'Sagene Dansestudio', 'Oslo', true, ['DANCE', 'COURSE']],
  ['bergen-filharmoniske', 'Bergen Filharmoniske Orkester', 'Bergen', true, ['CONCERT']],
  ['bergen-kunstforening', 'Bergen Kunstforening', 'Bergen', true, ['EXHIBITION', 'GUIDED_TOUR']],
  ['bryggen-matforum', 'Bryggen Matforum', 'Bergen', false, ['FOOD_DRINKS', 'MARKET', 'FESTIVAL']],
  ['bergen-turlag', 'Bergen Turlag', 'Bergen', true, ['SPORT']],
  ['bjorgvin-bokklubb', 'Bjørgvin Bokklubb', 'Bergen', false, ['LITERATURE', 'DEBATE', 'SOCIAL']],
  ['trondheim-jazzorkester', 'Trondheim Jazzorkester', 'Trondheim', true, ['CONCERT']],
  ['trondelag-teater', 'Trøndelag Teater', 'Trondheim', true, ['THEATER', 'FAMILY', 'DANCE']],
  ['studentersamfundet-i-trondhjem', 'Studentersamfundet i Trondhjem', 'Trondheim', true, ['CONCERT', 'QUIZ', 'DEBATE', 'MOVIES', 'SOCIAL', 'GAMES', 'FESTIVAL']],
  ['vitensenteret-trondheim', 'Vitensenteret Trondheim', 'Trondheim', true, ['TECHNOLOGY', 'FAMILY', 'COURSE']],
  ['nidaros-kammerkor', 'Nidaros Kammerkor', 'Trondheim', false, ['CONCERT']],
  ['nordlysdagene', 'Nordlysdagene', 'Tromsø', true, ['FESTIVAL', 'CONCERT', 'EXHIBITION']],
  ['tromso-jazzklubb', 'Tromsø Jazzklubb', 'Tromsø', false, ['CONCERT', 'QUIZ']],
  ['polarmuseets-venner', 'Polarmuseets venner', 'Tromsø', false, ['MUSEUM', 'GUIDED_TOUR', 'DEBATE', 'EXHIBITION']],
  ['tromso-turlag', 'Tromsø Turlag', 'Tromsø', true, ['SPORT', 'COURSE']],
  ['bodo-jazzklubb', 'Bodø Jazzklubb', 'Bodø', true, ['CONCERT']],
  ['stormen', 'Stormen', 'Bodø', true, ['CONCERT', 'THEATER', 'LITERATURE', 'FAMILY', 'MOVIES', 'DANCE', 'FESTIVAL']],
  ['salten-friluftsrad', 'Salten Friluftsråd', 'Bodø', true, ['SPORT', 'FAMILY', 'GUIDED_TOUR']],
  ['maihaugen', 'Maihaugen', 'Lillehammer', true, ['MUSEUM', 'GUIDED_TOUR', 'FAMILY', 'MARKET', 'EXHIBITION', 'FESTIVAL']],
  ['lillehammer-kunstforening', 'Lillehammer Kunstforening', 'Lillehammer', false, ['EXHIBITION', 'COURSE']],
  ['lillehammer-litteraturdager', 'Lillehammer Litteraturdager', 'Lillehammer', true, ['LITERATURE', 'DEBATE', 'FESTIVAL']],
  ['lillehammer-skiklubb', 'Lillehammer Skiklubb', 'Lillehammer', false, ['SPORT']],
  ['frivilligsentralen-lillehammer', 'Frivilligsentralen Lillehammer', 'Lillehammer', false, ['SOCIAL', 'FOOD_DRINKS', 'GAMES', 'QUIZ', 'COURSE', 'MARKET']],
];

/** An organizer, with what the generator picks it by: its municipality and the categories it puts on. */
export interface DemoHost {
  organizer: CalendarOrganizer;
  municipality: Municipality;
  categories: readonly string[];
}

export function demoHosts(): DemoHost[] {
  return ORGANIZER_ROWS.map(([slug, name, municipality, hasWebsite, categories]) => ({
    organizer: { id: `org-${slug}`, slug, name, website: hasWebsite ? `https://www.${slug}.no` : null },
    municipality,
    categories,
  }));
}
