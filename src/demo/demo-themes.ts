import type { Municipality, VenueType } from './demo-places.js';
import { h } from './oslo-days.js';
import type { SeededRandom } from './seeded-random.js';

// What events are about: a theme per category, and the names that fill in its titles.

/** A text in Norwegian and in English. */
export type Pair = readonly [nb: string, en: string];

export const ARTISTS = [
  'Åsne Bølgen', 'Kjetil Østbø Trio', 'Mari Sæther', 'Bjørnstjerne Big Band', 'Frøya Kvartett', 'Lærke & Ørn',
  'Trønderkoret', 'Nordlys Brass', 'Håkon Fjeld', 'Siri Ås', 'Ingrid Løvås Band', 'Tromsø Kammerorkester',
  'Øystein Bæk', 'Solveig Nærø', 'Fjordgløtt', 'Kråkeslottet', 'Bølgeblikk', 'Sjøgutta', 'Hanne Kjærnes', 'Ådne Vik Duo',
];
export const JAZZ_ARTISTS = ['Oslo Swing Ensemble', 'Elin Rød Quintet', 'Blåtimen', 'Nattjazz Kollektivet', 'Sveinung Hølmebakk Trio'];
export const CLASSICAL_WORKS: Pair[] = [
  ['Griegs a-mollkonsert', 'Grieg’s Piano Concerto in A minor'],
  ['Sibelius og Svendsen', 'Sibelius and Svendsen'],
  ['Mozarts Requiem', 'Mozart’s Requiem'],
  ['Vårkonsert med strykere', 'Spring concert for strings'],
  ['Bach i domkirken', 'Bach in the cathedral'],
];
export const AUTHORS = ['Tove Løkken', 'Jørn Sævik', 'Ragnhild Øyen', 'Bjørg Åkre', 'Per Ståle Nærland', 'Ingvild Hæreid'];
export const TOPICS: Pair[] = [
  ['klimaet i nord', 'the climate in the north'],
  ['kunstig intelligens', 'artificial intelligence'],
  ['nordlyset', 'the northern lights'],
  ['havet og fremtiden', 'the ocean and the future'],
  ['norsk språk i endring', 'Norwegian, a language on the move'],
  ['byer for folk', 'cities for people'],
  ['samisk kultur i dag', 'Sámi culture today'],
  ['fjellets historie', 'the history of the mountains'],
];
export const FILMS: Pair[] = [
  ['Kon-Tiki', 'Kon-Tiki'],
  ['Sult', 'Hunger'],
  ['Verdens verste menneske', 'The Worst Person in the World'],
  ['Trolljegeren', 'Troll Hunter'],
  ['Elling', 'Elling'],
  ['Nokas', 'Nokas'],
];

export interface Theme {
  category: string;
  titles: readonly Pair[];
  tags: readonly string[];
  /** Typical wall-clock start minutes. */
  starts: readonly number[];
  /** Minutes. */
  duration: readonly [number, number];
  lead: Pair;
  /** Where such events usually take place. */
  places: readonly VenueType[];
}

function fill(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? key);
}

const THEMES: readonly Theme[] = [
  {
    category: 'CONCERT',
    titles: [['Konsert med {artist}', 'Concert: {artist}'], ['{artist} – ny plate', '{artist} – album release'], ['{artist} i {place}', '{artist} live in {place}'], ['Kveldskonsert: {artist}', 'Evening concert: {artist}']],
    tags: ['konsert', 'live', 'pop', 'folk', 'visesang', 'rock'],
    starts: [h(19), h(19, 30), h(20), h(21)],
    duration: [75, 150],
    lead: ['Velkommen til en kveld med levende musikk.', 'Welcome to an evening of live music.'],
    places: ['hall', 'club', 'church'],
  },
  {
    category: 'THEATER',
    titles: [['Peer Gynt', 'Peer Gynt'], ['Et dukkehjem', 'A Doll’s House'], ['Vildanden', 'The Wild Duck'], ['Standup: {artist}', 'Stand-up: {artist}'], ['Improteater på {place}', 'Improv theatre at {place}']],
    tags: ['teater', 'scene', 'humor', 'drama'],
    starts: [h(18), h(19), h(19, 30)],
    duration: [90, 160],
    lead: ['En forestilling som har fått strålende kritikker.', 'A production that has won glowing reviews.'],
    places: ['hall'],
  },
  {
    category: 'FAMILY',
    titles: [['Familielørdag: eventyr og sang', 'Family Saturday: fairy tales and songs'], ['Barneteater: Karius og Baktus', 'Children’s theatre: Karius and Baktus'], ['Eventyrstund for de minste', 'Story time for the little ones'], ['Bli med i verkstedet!', 'Join the workshop!']],
    tags: ['barn', 'familie', 'gratis', 'helg'],
    starts: [h(11), h(12), h(13), h(14)],
    duration: [45, 90],
    lead: ['For store og små – ta med hele familien.', 'For young and old – bring the whole family.'],
    places: ['library', 'museum', 'community', 'hall'],
  },
  {
    category: 'DANCE',
    titles: [['Salsakurs for nybegynnere', 'Salsa for beginners'], ['Folkedans på {place}', 'Folk dancing at {place}'], ['Samtidsdans: Bølger', 'Contemporary dance: Waves'], ['Swingkveld', 'Swing night']],
    tags: ['dans', 'salsa', 'swing', 'folkedans'],
    starts: [h(18), h(19), h(20)],
    duration: [60, 120],
    lead: ['Ingen forkunnskaper nødvendig.', 'No experience needed.'],
    places: ['hall', 'community', 'club'],
  },
  {
    category: 'MOVIES',
    titles: [['Filmklubben viser: {film}', 'Film club screening: {film}'], ['Kortfilmkveld', 'Short film night'], ['Utekino: {film}', 'Open-air cinema: {film}']],
    tags: ['film', 'kino', 'filmklubb'],
    starts: [h(18), h(19), h(20), h(21)],
    duration: [90, 150],
    lead: ['Vi viser en klassiker på stort lerret.', 'A classic on the big screen.'],
    places: ['hall', 'club', 'library'],
  },
  {
    category: 'COURSE',
    titles: [['Kurs i akvarellmaling', 'Watercolour painting course'], ['Strikkekafé', 'Knitting café'], ['Lær å lage surdeigsbrød', 'Learn to bake sourdough bread'], ['Fotokurs: mørketidslys', 'Photo workshop: polar night light'], ['Norskkurs for nybegynnere', 'Norwegian for beginners']],
    tags: ['kurs', 'workshop', 'læring', 'håndverk'],
    starts: [h(10), h(17), h(18)],
    duration: [90, 180],
    lead: ['Et praktisk kurs i en liten gruppe.', 'A hands-on course in a small group.'],
    places: ['library', 'community'],
  },
  {
    category: 'LITERATURE',
    titles: [['Forfattermøte med {author}', 'Meet the author: {author}'], ['Bokbad: {author}', 'Book talk: {author}'], ['Poesikveld', 'Poetry night'], ['Lesesirkel: nordiske klassikere', 'Reading circle: Nordic classics']],
    tags: ['litteratur', 'bok', 'forfatter', 'poesi'],
    starts: [h(18), h(19)],
    duration: [60, 90],
    lead: ['Et møte med ord, tanker og gode samtaler.', 'An evening of words, thoughts and good conversation.'],
    places: ['library'],
  },
  {
    category: 'MARKET',
    titles: [['Bruktmarked', 'Flea market'], ['Julemarked på {place}', 'Christmas market at {place}'], ['Bondens marked', 'Farmers’ market'], ['Platemesse', 'Record fair']],
    tags: ['marked', 'brukt', 'lokalmat', 'håndverk'],
    starts: [h(10), h(11), h(12)],
    duration: [240, 360],
    lead: ['Kjøp, selg og bytt – kom innom!', 'Buy, sell and swap – drop by!'],
    places: ['outdoor', 'community', 'arena'],
  },
  {
    category: 'FOOD_DRINKS',
    titles: [['Ølsmaking med lokale bryggerier', 'Beer tasting with local breweries'], ['Sjømatkveld', 'Seafood night'], ['Vinkurs: Rhône og Loire', 'Wine course: Rhône and Loire'], ['Brunsj med musikk', 'Brunch with live music']],
    tags: ['mat', 'drikke', 'smaking', 'lokalmat'],
    starts: [h(12), h(18), h(19)],
    duration: [90, 180],
    lead: ['Smaker fra kysten og fjellet.', 'Flavours from the coast and the mountains.'],
    places: ['club', 'community', 'outdoor'],
  },
  {
    category: 'MUSEUM',
    titles: [['Museumskveld', 'Late night at the museum'], ['Gratis søndag på museet', 'Free Sunday at the museum'], ['Historiske håndverk', 'Historic crafts']],
    tags: ['museum', 'historie', 'kulturarv'],
    starts: [h(11), h(12), h(17)],
    duration: [120, 240],
    lead: ['Oppdag samlingene på en ny måte.', 'Discover the collections in a new way.'],
    places: ['museum'],
  },
  {
    category: 'GUIDED_TOUR',
    titles: [['Omvisning i {place}', 'Guided tour of {place}'], ['Byvandring: det gamle sentrum', 'City walk: the old town'], ['Omvisning på engelsk', 'Guided tour in English']],
    tags: ['omvisning', 'byvandring', 'historie'],
    starts: [h(11), h(13), h(15)],
    duration: [45, 90],
    lead: ['Bli med en guide bak kulissene.', 'Join a guide behind the scenes.'],
    places: ['museum', 'church', 'outdoor'],
  },
  {
    category: 'QUIZ',
    titles: [['Pubquiz på {place}', 'Pub quiz at {place}'], ['Musikkquiz', 'Music quiz'], ['Filmquiz', 'Film quiz']],
    tags: ['quiz', 'pub', 'sosialt'],
    starts: [h(19), h(20)],
    duration: [90, 120],
    lead: ['Lag på inntil seks personer. Premie til vinnerlaget!', 'Teams of up to six. Prizes for the winners!'],
    places: ['club'],
  },
  {
    category: 'DEBATE',
    titles: [['Foredrag: {topic}', 'Lecture: {topic}'], ['Debatt om {topic}', 'Debate: {topic}'], ['Frokostmøte: {topic}', 'Breakfast meeting: {topic}']],
    tags: ['foredrag', 'debatt', 'samfunn'],
    starts: [h(8), h(12), h(18), h(19)],
    duration: [60, 120],
    lead: ['Et aktuelt tema med gode innledere.', 'A timely topic with expert speakers.'],
    places: ['library', 'club'],
  },
  {
    category: 'SOCIAL',
    titles: [['Språkkafé', 'Language café'], ['Strikk og prat', 'Knit and chat'], ['Seniortreff', 'Seniors’ meetup'], ['Nabolagsmiddag', 'Neighbourhood dinner']],
    tags: ['sosialt', 'møteplass', 'frivillig'],
    starts: [h(12), h(17), h(18)],
    duration: [90, 150],
    lead: ['En uformell møteplass – alle er velkomne.', 'An informal meeting place – everyone is welcome.'],
    places: ['community', 'library', 'club'],
  },
  {
    category: 'GAMES',
    titles: [['Brettspillkveld', 'Board game night'], ['Sjakkturnering', 'Chess tournament'], ['Retrogaming', 'Retro gaming'], ['Rollespill for nybegynnere', 'Role-playing for beginners']],
    tags: ['spill', 'brettspill', 'gaming', 'sjakk'],
    starts: [h(17), h(18), h(19)],
    duration: [120, 240],
    lead: ['Vi har spillene – du tar med godt humør.', 'We bring the games – you bring the good mood.'],
    places: ['library', 'club', 'community'],
  },
  {
    category: 'SPORT',
    titles: [['Fjelltur med turlaget', 'Mountain hike with the trekking club'], ['Skiløype for hele familien', 'Ski trail for the whole family'], ['Løpegruppe', 'Running group'], ['Kajakkurs', 'Kayak course']],
    tags: ['friluftsliv', 'tur', 'sport', 'utendørs'],
    starts: [h(9), h(10), h(17, 30), h(18)],
    duration: [60, 240],
    lead: ['Ta på deg gode sko og bli med ut.', 'Put on good shoes and come outside.'],
    places: ['outdoor', 'arena'],
  },
  {
    category: 'EXHIBITION',
    titles: [['Utstilling: Lys i mørketiden', 'Exhibition: Light in the polar night'], ['Kunst fra kysten', 'Art from the coast'], ['Fotoutstilling: Fjord og fjell', 'Photo exhibition: Fjords and mountains'], ['Åpning: ung kunst', 'Opening: young art']],
    tags: ['kunst', 'utstilling', 'foto', 'maleri'],
    starts: [h(10), h(11), h(12)],
    duration: [300, 420],
    lead: ['Nye verk av kunstnere fra hele landet.', 'New works by artists from across the country.'],
    places: ['museum', 'library'],
  },
  {
    category: 'TECHNOLOGY',
    titles: [['Realfagskafé: {topic}', 'Science café: {topic}'], ['Koding for barn', 'Coding for kids'], ['Stjernekikking', 'Stargazing'], ['Hackerkveld', 'Hack night']],
    tags: ['vitenskap', 'teknologi', 'koding', 'forskning'],
    starts: [h(17), h(18), h(19)],
    duration: [60, 120],
    lead: ['Forskning og teknologi forklart for alle.', 'Science and technology explained for everyone.'],
    places: ['library', 'museum'],
  },
];

export const FESTIVAL_THEME: Theme = {
  category: 'FESTIVAL',
  titles: [],
  tags: ['festival', 'program', 'helg'],
  starts: [h(12)],
  duration: [600, 720],
  lead: ['Et festivalprogram for alle aldre, med konserter, samtaler og mat.', 'A festival programme for all ages: concerts, talks and food.'],
  places: ['outdoor', 'hall', 'museum', 'arena'],
};

export const THEME_WEIGHTS: [Theme, number][] = THEMES.map((theme) => [theme, theme.category === 'CONCERT' ? 18 : theme.category === 'THEATER' ? 8 : 5]);
export const themeOf = (category: string): Theme => THEMES.find((t) => t.category === category) ?? (THEMES[0] as Theme);

export const FESTIVALS: Record<Municipality, readonly Pair[]> = {
  Oslo: [['Oslo Vinterjazz', 'Oslo Winter Jazz'], ['Tøyenfestivalen', 'Tøyen Festival']],
  Bergen: [['Matfestivalen på Bryggen', 'Bryggen Food Festival'], ['Bergen Bokdager', 'Bergen Book Days']],
  Trondheim: [['Kammermusikkdager i Trondheim', 'Trondheim Chamber Music Days']],
  Tromsø: [['Nordlysdagene', 'Northern Lights Days']],
  Bodø: [['Bodø Sommerfest', 'Bodø Summer Festival']],
  Lillehammer: [['Lillehammer Litteraturdager', 'Lillehammer Literature Days'], ['Vinterlys på Maihaugen', 'Winter Lights at Maihaugen']],
};

/** A title in both languages, its blanks filled with an artist, an author, a film, a topic or the place. */
export function titleFor(random: SeededRandom, theme: Theme, place: string): Pair {
  const [nb, en] = random.pick(theme.titles);
  const film = random.pick(FILMS);
  const topic = random.pick(TOPICS);
  const artist = theme.category === 'CONCERT' && random.chance(0.25) ? random.pick(JAZZ_ARTISTS) : random.pick(ARTISTS);
  const author = random.pick(AUTHORS);
  return [
    fill(nb, { artist, author, place, film: film[0], topic: topic[0] }),
    fill(en, { artist, author, place, film: film[1], topic: topic[1] }),
  ];
}
