import { DateTime } from 'luxon';
import { OSLO_ZONE_NAME } from '../domain/oslo-time.js';
import { DEMO_PICTURE_MOTIFS, demoPicturePath, type DemoPictureMotif } from './demo-picture-path.js';
import type {
  CalendarCategory,
  CalendarEvent,
  CalendarEventDate,
  CalendarFile,
  CalendarImage,
  CalendarOrganizer,
  CalendarPrice,
  CalendarVenue,
} from '../import/import-format.js';
import { mulberry32 } from './seeded-random.js';

export interface DemoCalendarOptions {
  /** Number of events (festival programmes included). */
  events: number;
  /** Same seed and same Oslo date of `today` give the same calendar. */
  seed: number;
  /** Dates are spread from about 30 days before to 180 days after this day. */
  today: Date;
}

// ---------------------------------------------------------------------------------------------
// Randomness: a seeded PRNG, so the demo calendar is reproducible (never Math.random).


class Random {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return this.pick(items)[0];
  }

  /** Up to `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0] as T);
    return out;
  }

  /** 0..1 with two decimals. */
  fraction(): number {
    return Math.round(this.next() * 100) / 100;
  }
}

// ---------------------------------------------------------------------------------------------
// Oslo wall-clock times → timestamps with the offset in force (+01:00 winter, +02:00 summer).

class OsloDays {
  private readonly first: DateTime;
  private readonly days = new Map<number, { date: string; offset: string | null }>();
  private readonly hours = new Map<number, string>();

  constructor(today: Date) {
    this.first = DateTime.fromJSDate(today, { zone: OSLO_ZONE_NAME }).startOf('day');
  }

  /** `day` counts from today; `minute` is the wall-clock minute of that day and may run past midnight. */
  stamp(day: number, minute: number): string {
    const dayIndex = day + Math.floor(minute / 1440);
    const minuteOfDay = ((minute % 1440) + 1440) % 1440;
    const hour = Math.floor(minuteOfDay / 60);
    const reading = this.day(dayIndex);
    // The offset only changes on the two transition days a year; only those are read hour by hour.
    const offset = reading.offset ?? this.hourOffset(dayIndex, hour);
    const hh = String(hour).padStart(2, '0');
    const mm = String(minuteOfDay % 60).padStart(2, '0');
    return `${reading.date}T${hh}:${mm}:00${offset}`;
  }

  /** `YYYY-MM-DD` of a day counted from today. */
  date(day: number): string {
    return this.day(day).date;
  }

  private day(dayIndex: number): { date: string; offset: string | null } {
    let reading = this.days.get(dayIndex);
    if (!reading) {
      const start = this.first.plus({ days: dayIndex });
      const startOffset = start.toFormat('ZZ');
      const endOffset = start.endOf('day').toFormat('ZZ');
      reading = { date: start.toFormat('yyyy-MM-dd'), offset: startOffset === endOffset ? startOffset : null };
      this.days.set(dayIndex, reading);
    }
    return reading;
  }

  private hourOffset(dayIndex: number, hour: number): string {
    const key = dayIndex * 24 + hour;
    let offset = this.hours.get(key);
    if (offset === undefined) {
      offset = this.first.plus({ days: dayIndex }).set({ hour }).toFormat('ZZ');
      this.hours.set(key, offset);
    }
    return offset;
  }
}

function clock(minute: number): string {
  const m = ((minute % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

const h = (hour: number, minute = 0): number => hour * 60 + minute;

// ---------------------------------------------------------------------------------------------
// The catalogue: categories, venues, organizers.

const CATEGORY_ROWS: [id: string, nameNb: string, nameEn: string, slugNb: string, slugEn: string][] = [
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

function categories(): CalendarCategory[] {
  const visible = CATEGORY_ROWS.map(([id, name_nb, name_en, slug_nb, slug_en]): CalendarCategory => ({
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

type Municipality = 'Oslo' | 'Bergen' | 'Trondheim' | 'Tromsø' | 'Bodø' | 'Lillehammer';
/** What kind of place a venue is, so that a quiz lands in a pub and not in a cathedral. */
type VenueType = 'hall' | 'club' | 'church' | 'library' | 'museum' | 'outdoor' | 'community' | 'arena';

const VENUE_ROWS: [slug: string, name: string, address: string, postalCode: string, municipality: Municipality, lat: number, lon: number, type: VenueType][] = [
  ['sentrum-scene', 'Sentrum Scene', 'Arbeidersamfunnets plass 1', '0181', 'Oslo', 59.9155, 10.7517, 'club'],
  ['rockefeller', 'Rockefeller Music Hall', 'Torggata 16', '0181', 'Oslo', 59.9163, 10.7497, 'club'],
  ['blaa', 'Blå', 'Brenneriveien 9C', '0182', 'Oslo', 59.9201, 10.7526, 'club'],
  ['kulturkirken-jakob', 'Kulturkirken Jakob', 'Hausmanns gate 14', '0182', 'Oslo', 59.9178, 10.753, 'church'],
  ['litteraturhuset', 'Litteraturhuset', 'Wergelands vei 29', '0167', 'Oslo', 59.922, 10.7334, 'library'],
  ['deichman-bjorvika', 'Deichman Bjørvika', 'Anne-Cath. Vestlys plass 1', '0150', 'Oslo', 59.9087, 10.7527, 'library'],
  ['operaen', 'Den Norske Opera & Ballett', 'Kirsten Flagstads plass 1', '0150', 'Oslo', 59.9075, 10.7531, 'hall'],
  ['oslo-konserthus', 'Oslo Konserthus', 'Munkedamsveien 14', '0115', 'Oslo', 59.914, 10.7303, 'hall'],
  ['munch', 'MUNCH', 'Edvard Munchs plass 1', '0194', 'Oslo', 59.906, 10.7555, 'museum'],
  ['chateau-neuf', 'Chateau Neuf', 'Slemdalsveien 7', '0369', 'Oslo', 59.93, 10.716, 'club'],
  ['frognerparken', 'Frognerparken', 'Kirkeveien 21', '0268', 'Oslo', 59.927, 10.7003, 'outdoor'],
  ['toyen-kulturhus', 'Tøyen kulturhus', 'Hagegata 22', '0653', 'Oslo', 59.9145, 10.7748, 'community'],
  ['grieghallen', 'Grieghallen', 'Edvard Griegs plass 1', '5015', 'Bergen', 60.3887, 5.329, 'hall'],
  ['usf-verftet', 'USF Verftet', 'Georgernes Verft 12', '5011', 'Bergen', 60.3999, 5.3066, 'club'],
  ['den-nationale-scene', 'Den Nationale Scene', 'Engen 1', '5011', 'Bergen', 60.3918, 5.3196, 'hall'],
  ['bergen-bibliotek', 'Bergen Offentlige Bibliotek', 'Strømgaten 6', '5015', 'Bergen', 60.3903, 5.3317, 'library'],
  ['kode', 'KODE Kunstmuseene', 'Rasmus Meyers allé 3', '5015', 'Bergen', 60.3889, 5.3259, 'museum'],
  ['bryggens-museum', 'Bryggens Museum', 'Dreggsallmenningen 3', '5003', 'Bergen', 60.3985, 5.3228, 'museum'],
  ['floeien', 'Fløien Folkerestaurant', 'Fløyfjellet 2', '5014', 'Bergen', 60.3948, 5.3436, 'outdoor'],
  ['olavshallen', 'Olavshallen', 'Kjøpmannsgata 44', '7011', 'Trondheim', 63.4337, 10.4034, 'hall'],
  ['trondelag-teater', 'Trøndelag Teater', 'Prinsens gate 18', '7012', 'Trondheim', 63.4299, 10.3937, 'hall'],
  ['rockheim', 'Rockheim', 'Brattørkaia 14', '7010', 'Trondheim', 63.4399, 10.4026, 'museum'],
  ['studentersamfundet', 'Studentersamfundet', 'Elgeseter gate 1', '7030', 'Trondheim', 63.4225, 10.395, 'club'],
  ['nidarosdomen', 'Nidarosdomen', 'Kongsgårdsgata 2', '7013', 'Trondheim', 63.4269, 10.3969, 'church'],
  ['vitensenteret', 'Vitensenteret Trondheim', 'Kongens gate 1', '7011', 'Trondheim', 63.4305, 10.3956, 'museum'],
  ['byscenen', 'Byscenen', 'Kjøpmannsgata 46', '7011', 'Trondheim', 63.4342, 10.4036, 'club'],
  ['kulturhuset-tromso', 'Kulturhuset Tromsø', 'Grønnegata 87', '9008', 'Tromsø', 69.6505, 18.9566, 'hall'],
  ['ishavskatedralen', 'Ishavskatedralen', 'Hans Nilsens vei 41', '9020', 'Tromsø', 69.6479, 18.9871, 'church'],
  ['polaria', 'Polaria', 'Hjalmar Johansens gate 12', '9007', 'Tromsø', 69.6433, 18.9483, 'museum'],
  ['verdensteatret', 'Verdensteatret', 'Storgata 93B', '9008', 'Tromsø', 69.651, 18.9551, 'hall'],
  ['driv', 'Driv', 'Søndre Tollbodgate 3B', '9008', 'Tromsø', 69.6475, 18.9588, 'club'],
  ['perspektivet', 'Perspektivet Museum', 'Storgata 95', '9008', 'Tromsø', 69.6513, 18.9551, 'museum'],
  ['stormen-konserthus', 'Stormen konserthus', 'Sjøgata 12', '8006', 'Bodø', 67.2845, 14.3786, 'hall'],
  ['stormen-bibliotek', 'Stormen bibliotek', 'Storgata 14', '8006', 'Bodø', 67.2841, 14.3799, 'library'],
  ['luftfartsmuseet', 'Norsk Luftfartsmuseum', 'Olav V gate 56', '8004', 'Bodø', 67.2757, 14.3931, 'museum'],
  ['bodo-domkirke', 'Bodø domkirke', 'Kongens gate 15', '8006', 'Bodø', 67.2825, 14.3826, 'church'],
  ['maihaugen', 'Maihaugen', 'Maihaugvegen 1', '2609', 'Lillehammer', 61.1089, 10.4843, 'museum'],
  ['lillehammer-kunstmuseum', 'Lillehammer Kunstmuseum', 'Stortorget 2', '2609', 'Lillehammer', 61.1149, 10.4646, 'museum'],
  ['kulturhuset-banken', 'Kulturhuset Banken', 'Kirkegata 41', '2609', 'Lillehammer', 61.116, 10.4652, 'community'],
  ['hakons-hall', 'Håkons Hall', 'Nordsetervegen 45', '2618', 'Lillehammer', 61.1244, 10.4851, 'arena'],
];

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

const MUNICIPALITY_WEIGHTS: [Municipality, number][] = [['Oslo', 40], ['Bergen', 20], ['Trondheim', 15], ['Tromsø', 10], ['Bodø', 7], ['Lillehammer', 8]];

interface Place {
  venue: CalendarVenue;
  municipality: Municipality;
  type: VenueType;
}

interface Host {
  organizer: CalendarOrganizer;
  municipality: Municipality;
  categories: readonly string[];
}

function places(): Place[] {
  return VENUE_ROWS.map(([slug, name, address, postalCode, municipality, latitude, longitude, type]) => ({
    venue: { id: `venue-${slug}`, slug, name, address, postalCode, municipality, location: { latitude, longitude } },
    municipality,
    type,
  }));
}

function hosts(): Host[] {
  return ORGANIZER_ROWS.map(([slug, name, municipality, hasWebsite, categories]) => ({
    organizer: { id: `org-${slug}`, slug, name, website: hasWebsite ? `https://www.${slug}.no` : null },
    municipality,
    categories,
  }));
}

// ---------------------------------------------------------------------------------------------
// What events are about.

type Pair = readonly [nb: string, en: string];

const ARTISTS = [
  'Åsne Bølgen', 'Kjetil Østbø Trio', 'Mari Sæther', 'Bjørnstjerne Big Band', 'Frøya Kvartett', 'Lærke & Ørn',
  'Trønderkoret', 'Nordlys Brass', 'Håkon Fjeld', 'Siri Ås', 'Ingrid Løvås Band', 'Tromsø Kammerorkester',
  'Øystein Bæk', 'Solveig Nærø', 'Fjordgløtt', 'Kråkeslottet', 'Bølgeblikk', 'Sjøgutta', 'Hanne Kjærnes', 'Ådne Vik Duo',
];
const JAZZ_ARTISTS = ['Oslo Swing Ensemble', 'Elin Rød Quintet', 'Blåtimen', 'Nattjazz Kollektivet', 'Sveinung Hølmebakk Trio'];
const CLASSICAL_WORKS: Pair[] = [
  ['Griegs a-mollkonsert', 'Grieg’s Piano Concerto in A minor'],
  ['Sibelius og Svendsen', 'Sibelius and Svendsen'],
  ['Mozarts Requiem', 'Mozart’s Requiem'],
  ['Vårkonsert med strykere', 'Spring concert for strings'],
  ['Bach i domkirken', 'Bach in the cathedral'],
];
const AUTHORS = ['Tove Løkken', 'Jørn Sævik', 'Ragnhild Øyen', 'Bjørg Åkre', 'Per Ståle Nærland', 'Ingvild Hæreid'];
const TOPICS: Pair[] = [
  ['klimaet i nord', 'the climate in the north'],
  ['kunstig intelligens', 'artificial intelligence'],
  ['nordlyset', 'the northern lights'],
  ['havet og fremtiden', 'the ocean and the future'],
  ['norsk språk i endring', 'Norwegian, a language on the move'],
  ['byer for folk', 'cities for people'],
  ['samisk kultur i dag', 'Sámi culture today'],
  ['fjellets historie', 'the history of the mountains'],
];
const FILMS: Pair[] = [
  ['Kon-Tiki', 'Kon-Tiki'],
  ['Sult', 'Hunger'],
  ['Verdens verste menneske', 'The Worst Person in the World'],
  ['Trolljegeren', 'Troll Hunter'],
  ['Elling', 'Elling'],
  ['Nokas', 'Nokas'],
];

interface Theme {
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

const FESTIVAL_THEME: Theme = {
  category: 'FESTIVAL',
  titles: [],
  tags: ['festival', 'program', 'helg'],
  starts: [h(12)],
  duration: [600, 720],
  lead: ['Et festivalprogram for alle aldre, med konserter, samtaler og mat.', 'A festival programme for all ages: concerts, talks and food.'],
  places: ['outdoor', 'hall', 'museum', 'arena'],
};

const THEME_WEIGHTS: [Theme, number][] = THEMES.map((theme) => [theme, theme.category === 'CONCERT' ? 18 : theme.category === 'THEATER' ? 8 : 5]);
const themeOf = (category: string): Theme => THEMES.find((t) => t.category === category) ?? (THEMES[0] as Theme);

const FESTIVALS: Record<Municipality, readonly Pair[]> = {
  Oslo: [['Oslo Vinterjazz', 'Oslo Winter Jazz'], ['Tøyenfestivalen', 'Tøyen Festival']],
  Bergen: [['Matfestivalen på Bryggen', 'Bryggen Food Festival'], ['Bergen Bokdager', 'Bergen Book Days']],
  Trondheim: [['Kammermusikkdager i Trondheim', 'Trondheim Chamber Music Days']],
  Tromsø: [['Nordlysdagene', 'Northern Lights Days']],
  Bodø: [['Bodø Sommerfest', 'Bodø Summer Festival']],
  Lillehammer: [['Lillehammer Litteraturdager', 'Lillehammer Literature Days'], ['Vinterlys på Maihaugen', 'Winter Lights at Maihaugen']],
};

// ---------------------------------------------------------------------------------------------
// Prices: organizers type them by hand, so the demo data is as messy as the real calendar.

const MESSY_PRICES: readonly (string | number)[] = [
  '250,-', '1 250', 'kr 150', 'Gratis', '99.5', 200, 350, '150 kr', 'kr. 450,-', '120', 0, '75,50', '1.200', 'NOK 300', 180, 99.5, '450', '50,-',
];
const BUILT_IN_TYPES = ['REGULAR', 'STUDENT', 'CHILD', 'SENIOR', 'FAMILY', 'MEMBERS', 'REDUCED', 'ASSISTANT'] as const;
const OWN_TYPES: readonly CalendarPrice[] = [
  { type: 'EARLY_BIRD', price: '199,-', name_nb: 'Tidlig-billett', name_en: 'Early bird' },
  { type: 'VIP', price: 1200, name_nb: 'VIP-billett', name_en: 'VIP ticket' },
  { type: 'STANDING', price: 'kr 250', name_nb: 'Ståplass', name_en: 'Standing' },
  { type: 'DAY_PASS', price: '650', name_nb: 'Dagspass', name_en: 'Day pass' },
];

function prices(random: Random): CalendarPrice[] {
  const count = random.weighted([[1, 5], [2, 4], [3, 2]] as const);
  const out: CalendarPrice[] = random
    .sample(BUILT_IN_TYPES, count)
    .map((type) => ({ type, price: random.pick(MESSY_PRICES) }));
  // A built-in type with the organizer's own wording now and then.
  const first = out[0];
  if (first && first.type === 'REGULAR' && random.chance(0.2)) {
    first.name_nb = 'Ordinær';
    first.name_en = 'Standard';
  }
  if (random.chance(0.15)) out.push({ ...random.pick(OWN_TYPES) });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Building events.

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/å/g, 'a')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

interface Context {
  random: Random;
  days: OsloDays;
  places: readonly Place[];
  hosts: readonly Host[];
}

interface Draft {
  title: Pair;
  theme: Theme;
  municipality: Municipality;
  venue: CalendarVenue | null;
  dates: CalendarEventDate[];
  /** First day of the event, counted from today. */
  firstDay: number;
  extraCategories?: string[];
  superEvent?: string | null;
  isSuperEvent?: boolean;
  online?: boolean;
}

function titleFor(random: Random, theme: Theme, place: string): Pair {
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

/** Minutes, in quarters of an hour within the theme's range. */
function durationOf(random: Random, theme: Theme): number {
  return random.int(Math.ceil(theme.duration[0] / 15), Math.floor(theme.duration[1] / 15)) * 15;
}

function date(
  ctx: Context,
  theme: Theme,
  day: number,
  start: number,
  options: { withEnd?: boolean; duration?: number } = {},
): CalendarEventDate {
  const { random, days } = ctx;
  const withEnd = options.withEnd ?? random.chance(0.82);
  const duration = options.duration ?? durationOf(random, theme);
  return {
    start: days.stamp(day, start),
    end: withEnd ? days.stamp(day, start + duration) : null,
    // The organizer's wall-clock entry; most imports carry it, some leave it to be derived.
    startTime: random.chance(0.9) ? clock(start) : null,
    duration: withEnd ? duration : null,
    venue: null,
    ticketsURL: null,
    cancelled: null,
    soldOut: null,
    prices: null,
  };
}

function description(random: Random, theme: Theme, venue: CalendarVenue | null): Pair {
  const note = random.int(0, 3);
  const notesNb = ['Dørene åpner en halvtime før.', 'Begrenset antall plasser!', 'Servering av kaffe &amp; vafler.', 'Trinnfri adkomst.'];
  const notesEn = ['Doors open half an hour before.', 'Limited seating!', 'Coffee &amp; waffles served.', 'Step-free access.'];
  const nb = venue ? `<strong>${notesNb[note] ?? ''}</strong>` : 'Sendes direkte på nett.';
  const en = venue ? `<strong>${notesEn[note] ?? ''}</strong>` : 'Streamed live online.';
  return [`<p>${theme.lead[0]}</p><p>${nb}</p>`, `<p>${theme.lead[1]}</p><p>${en}</p>`];
}

/** FNV-1a: a picture's looks follow from the event id, without drawing on the calendar's random sequence. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193);
  return value >>> 0;
}

/** Mostly landscape, as event photos are; some portrait and square ones, whose crop the focus point decides. */
const PICTURE_SHAPES: readonly (readonly [width: number, height: number])[] = [
  [1600, 900], [1600, 900], [1600, 900], [1600, 900], [1600, 900], [1600, 1067], [1600, 1067], [1200, 1600], [1200, 1600], [1400, 1400],
];

/**
 * The event's pictures: drawn by the service itself (demo-picture-path.ts), each with the size and
 * focus point its data claims. The path is stored root-relative and answered as an absolute URL.
 */
function images(random: Random, id: string, alt: string, category: string): CalendarImage[] {
  const count = random.weighted([[0, 1], [1, 6], [2, 2], [3, 1]] as const);
  return Array.from({ length: count }, (_, n): CalendarImage => {
    const focused = random.chance(0.5);
    const sized = random.chance(0.7);
    const withAlt = random.chance(0.8);
    const focusX = focused ? random.fraction() : null;
    const focusY = focused ? random.fraction() : null;
    const looks = hash(`${id}/${n}`);
    const [width, height] = PICTURE_SHAPES[looks % PICTURE_SHAPES.length]!;
    const picture = {
      motif: demoPictureMotif(category),
      variant: (looks >>> 8) % 10000,
      focusX: focusX === null ? null : Math.round(focusX * 100),
      focusY: focusY === null ? null : Math.round(focusY * 100),
    };
    return {
      urlSmall: demoPicturePath({ ...picture, width: Math.round(width / 2), height: Math.round(height / 2) }),
      urlLarge: demoPicturePath({ ...picture, width, height }),
      alt: withAlt ? alt : null,
      focusX,
      focusY,
      // Spec: null until analysed; the picture has its size all the same.
      width: sized ? width : null,
      height: sized ? height : null,
    };
  });
}

function demoPictureMotif(category: string): DemoPictureMotif {
  const motif = category.toLowerCase();
  return (DEMO_PICTURE_MOTIFS as readonly string[]).includes(motif) ? (motif as DemoPictureMotif) : 'festival';
}

/** A venue of the municipality that suits the theme (any of the municipality's when none does). */
function pickVenue(ctx: Context, municipality: Municipality, theme: Theme): CalendarVenue {
  const local = ctx.places.filter((p) => p.municipality === municipality);
  const suitable = local.filter((p) => theme.places.includes(p.type));
  return ctx.random.pick(suitable.length > 0 ? suitable : local).venue;
}

function pickOrganizers(ctx: Context, municipality: Municipality, category: string): CalendarOrganizer[] {
  const local = ctx.hosts.filter((o) => o.municipality === municipality);
  const suitable = local.filter((o) => o.categories.includes(category));
  const pool = suitable.length > 0 ? suitable : local;
  // Now and then a co-production with another local organizer.
  const main = ctx.random.pick(pool).organizer;
  const partner = ctx.random.chance(0.1) ? ctx.random.pick(local).organizer : null;
  return partner && partner.id !== main.id ? [main, partner] : [main];
}

function finish(ctx: Context, seq: number, draft: Draft): CalendarEvent {
  const { random, days } = ctx;
  const id = `ev-${String(seq).padStart(6, '0')}`;
  const { theme, title, venue } = draft;
  const categoriesOf = [theme.category, ...(draft.extraCategories ?? [])];
  if (theme.category === 'CONCERT' && JAZZ_ARTISTS.some((a) => title[0].includes(a))) categoriesOf.push('JAZZ');
  if (random.chance(0.005)) categoriesOf.push('INTERNAL');
  const ticketsInformation = random.weighted([['ticketsInfo', 6], ['free', 2.5], ['noTicketsInfo', 1.5]] as const);
  const [descNb, descEn] = description(random, theme, venue);
  const organizersOf = pickOrganizers(ctx, draft.municipality, theme.category);
  const createdDay = Math.min(draft.firstDay, 0) - random.int(3, 90);
  const updatedDay = Math.min(createdDay + random.int(0, 20), 0);
  const futurePublishing = random.chance(0.02);
  const registration = theme.category === 'COURSE' && random.chance(0.3);
  const adult = theme.category === 'CONCERT' && random.chance(0.2);
  const slug = `${slugify(title[0])}-${seq}`;
  return {
    id,
    slug,
    title_nb: title[0],
    title_en: random.chance(0.9) ? title[1] : null,
    desc_nb: descNb,
    desc_en: random.chance(0.85) ? descEn : null,
    categories: [...new Set(categoriesOf)],
    tags: random.sample(theme.tags, random.int(0, 3)),
    mode: draft.online ? 'online' : 'offline',
    venue: venue?.id ?? null,
    organizers: organizersOf.map((o) => o.id),
    isSuperEvent: draft.isSuperEvent ?? false,
    superEvent: draft.superEvent ?? null,
    featured: random.chance(0.03),
    featuredSpecialEvent: draft.superEvent ? random.chance(0.1) : random.chance(0.005),
    ticketsInformation,
    ticketsURL: ticketsInformation === 'ticketsInfo' ? `https://billett.example.no/${slug}` : null,
    prices: ticketsInformation === 'ticketsInfo' ? prices(random) : ticketsInformation === 'free' && random.chance(0.3) ? [{ type: 'REGULAR', price: 'Gratis' }] : [],
    images: images(random, id, title[0], theme.category),
    dates: draft.dates,
    eventCancelled: random.chance(0.015),
    eventSoldOut: random.chance(0.02),
    minimumAge: adult ? random.pick([18, 20]) : null,
    maximumAge: theme.category === 'FAMILY' && random.chance(0.3) ? 12 : null,
    cancellationPeriod: registration ? 48 : null,
    views: random.int(0, 5000),
    ageRestriction: adult ? random.pick(['18 år', 'Aldersgrense 20 år', '18+']) : null,
    publishingDate: futurePublishing ? days.stamp(random.int(1, 14), h(8)) : random.chance(0.3) ? days.stamp(createdDay, h(9)) : null,
    ticketsFromDate: ticketsInformation === 'ticketsInfo' && random.chance(0.1) ? days.stamp(createdDay + 1, h(10)) : null,
    created_at: days.stamp(createdDay, h(random.int(8, 15), 5 * random.int(0, 11))),
    updated_at: days.stamp(updatedDay, h(16, 5 * random.int(0, 11))),
    registrationEnabled: registration,
    availableTickets: registration ? random.int(0, 20) : null,
    activeTickets: registration ? 20 : null,
    maxBookingDate: registration ? days.date(draft.firstDay - 1) : null,
    maxBookingTime: registration ? '23:59' : null,
    paymentMethod: registration ? random.pick(['vipps', 'card', 'invoice']) : null,
  };
}

type Kind = 'single' | 'weekly' | 'sameDay' | 'run' | 'long' | 'online' | 'festival';
const KINDS: [Kind, number][] = [['single', 50], ['weekly', 13], ['sameDay', 8], ['run', 12], ['long', 7], ['online', 5], ['festival', 1.2]];

/** Date variations inside a series: a cancelled or sold-out evening, another venue, another price. */
function vary(ctx: Context, dates: CalendarEventDate[], municipality: Municipality, theme: Theme): void {
  const { random } = ctx;
  for (const d of dates) {
    if (random.chance(0.05)) d.cancelled = true;
    else if (random.chance(0.06)) d.soldOut = true;
  }
  const one = random.pick(dates);
  if (random.chance(0.1)) one.venue = pickVenue(ctx, municipality, theme).id;
  if (random.chance(0.08)) one.prices = [{ type: 'REGULAR', price: random.pick(MESSY_PRICES) }];
  if (random.chance(0.05)) one.ticketsURL = `https://billett.example.no/ekstra/${random.int(1000, 9999)}`;
}

function draftOf(ctx: Context, kind: Exclude<Kind, 'festival'>): Draft {
  const { random } = ctx;
  const municipality = random.weighted(MUNICIPALITY_WEIGHTS);
  const firstDay = random.int(-30, 180);
  const placeFor = (theme: Theme): CalendarVenue => pickVenue(ctx, municipality, theme);
  switch (kind) {
    case 'weekly': {
      const theme = themeOf(random.pick(['QUIZ', 'COURSE', 'SOCIAL', 'GAMES', 'SPORT', 'DANCE', 'CONCERT']));
      const venue = placeFor(theme);
      const start = random.pick(theme.starts);
      const duration = durationOf(random, theme);
      const weeks = random.int(4, 12);
      const dates = Array.from({ length: weeks }, (_, w) => date(ctx, theme, firstDay + 7 * w, start, { withEnd: true, duration }));
      vary(ctx, dates, municipality, theme);
      return { title: titleFor(random, theme, venue.name), theme, municipality, venue, dates, firstDay };
    }
    case 'sameDay': {
      const theme = themeOf(random.pick(['FAMILY', 'THEATER', 'GUIDED_TOUR', 'MOVIES']));
      const venue = placeFor(theme);
      const times = random.pick([[h(14), h(18)], [h(11), h(13), h(15)], [h(12), h(16)]]);
      const duration = Math.min(durationOf(random, theme), 100);
      const withEnd = random.chance(0.85);
      const dayCount = random.int(1, 3);
      const dates = Array.from({ length: dayCount }, (_, d) => times.map((t) => date(ctx, theme, firstDay + d, t, { withEnd, duration }))).flat();
      vary(ctx, dates, municipality, theme);
      return { title: titleFor(random, theme, venue.name), theme, municipality, venue, dates, firstDay };
    }
    case 'run': {
      // A theatre run or a concert tour: a handful of evenings, some sold out.
      const theme = themeOf(random.pick(['THEATER', 'THEATER', 'CONCERT', 'MOVIES', 'DANCE']));
      const venue = placeFor(theme);
      const start = random.pick(theme.starts);
      const duration = durationOf(random, theme);
      const count = random.int(2, 5);
      let day = firstDay;
      const dates = Array.from({ length: count }, () => {
        const d = date(ctx, theme, day, start, { withEnd: true, duration });
        day += random.int(1, 3);
        return d;
      });
      vary(ctx, dates, municipality, theme);
      return { title: titleFor(random, theme, venue.name), theme, municipality, venue, dates, firstDay };
    }
    case 'long': {
      // An exhibition open for weeks: one date from the opening to the last day.
      const theme = themeOf(random.pick(['EXHIBITION', 'EXHIBITION', 'MUSEUM']));
      const venue = placeFor(theme);
      const span = random.int(14, 90);
      const opening = date(ctx, theme, firstDay, h(11), { withEnd: false });
      opening.end = ctx.days.stamp(firstDay + span, h(17));
      return { title: titleFor(random, theme, venue.name), theme, municipality, venue, dates: [opening], firstDay };
    }
    case 'online': {
      const theme = themeOf(random.pick(['DEBATE', 'COURSE', 'TECHNOLOGY', 'LITERATURE']));
      const start = random.pick(theme.starts);
      const dates = Array.from({ length: random.int(1, 2) }, (_, i) => {
        const d = date(ctx, theme, firstDay + 7 * i, start, { withEnd: true });
        d.ticketsURL = `https://strom.example.no/live/${random.int(10000, 99999)}`;
        return d;
      });
      const [nb, en] = titleFor(random, theme, 'nett');
      return { title: [`${nb} (strømmes)`, `${en} (streamed)`], theme, municipality, venue: null, dates, firstDay, online: true };
    }
    case 'single':
    default: {
      const theme = random.weighted(THEME_WEIGHTS);
      const venue = placeFor(theme);
      const start = random.pick(theme.starts);
      const extra = theme.category === 'CONCERT' && random.chance(0.1) ? ['CLASSICAL'] : [];
      const title: Pair = extra.length > 0 ? random.pick(CLASSICAL_WORKS) : titleFor(random, theme, venue.name);
      return { title, theme, municipality, venue, dates: [date(ctx, theme, firstDay, start)], firstDay, extraCategories: extra };
    }
  }
}

/** A festival (super event) with its programme; returns as many events as `room` allows. */
function festival(ctx: Context, firstSeq: number, room: number): CalendarEvent[] {
  const { random, days } = ctx;
  const municipality = random.weighted(MUNICIPALITY_WEIGHTS);
  const [nb, en] = random.pick(FESTIVALS[municipality]);
  const firstDay = random.int(-10, 170);
  const year = days.date(firstDay).slice(0, 4);
  const festivalDays = random.int(2, 4);
  const venue = pickVenue(ctx, municipality, FESTIVAL_THEME);
  const container = finish(ctx, firstSeq, {
    title: [`${nb} ${year}`, `${en} ${year}`],
    theme: FESTIVAL_THEME,
    municipality,
    venue,
    isSuperEvent: true,
    firstDay,
    dates: Array.from({ length: festivalDays }, (_, d) => {
      const day = date(ctx, FESTIVAL_THEME, firstDay + d, h(12), { withEnd: true, duration: 11 * 60 + 30 });
      day.startTime = '12:00';
      return day;
    }),
  });
  container.ticketsInformation = 'ticketsInfo';
  container.prices = [
    { type: 'FESTIVAL_PASS', price: '1 250', name_nb: 'Festivalpass', name_en: 'Festival pass' },
    { type: 'DAY_PASS', price: '450,-', name_nb: 'Dagspass', name_en: 'Day pass' },
  ];
  const events = [container];
  const programme = Math.min(room - 1, random.int(4, 10));
  for (let i = 0; i < programme; i++) {
    const childTheme = themeOf(random.pick(['CONCERT', 'CONCERT', 'LITERATURE', 'DEBATE', 'FOOD_DRINKS', 'FAMILY']));
    const childVenue = pickVenue(ctx, municipality, childTheme);
    const day = firstDay + random.int(0, festivalDays - 1);
    const dates = [date(ctx, childTheme, day, random.pick([h(13), h(15), h(17), h(19), h(21)]))];
    if (random.chance(0.2)) dates.push(date(ctx, childTheme, day, h(22, 30)));
    events.push(
      finish(ctx, firstSeq + events.length, {
        title: titleFor(random, childTheme, childVenue.name),
        theme: childTheme,
        municipality,
        venue: childVenue,
        dates,
        firstDay: day,
        superEvent: container.id,
        extraCategories: ['FESTIVAL'],
      }),
    );
  }
  return events;
}

/** The demo calendar, its events generated one at a time (`length` of them) each time they are iterated. */
export interface DemoCalendar {
  categories: CalendarCategory[];
  venues: CalendarVenue[];
  organizers: CalendarOrganizer[];
  events: Iterable<CalendarEvent> & { readonly length: number };
}

/** The events, in order: the same seed and day give the same sequence at every iteration. */
function* demoEvents(options: DemoCalendarOptions): Generator<CalendarEvent> {
  const random = new Random(options.seed);
  const ctx: Context = { random, days: new OsloDays(options.today), places: places(), hosts: hosts() };
  let count = 0;
  while (count < options.events) {
    const kind = random.weighted(KINDS);
    const seq = count + 1;
    // A festival comes with its programme (a dozen events at most), generated together.
    const batch = kind === 'festival' ? festival(ctx, seq, options.events - count) : [finish(ctx, seq, draftOf(ctx, kind))];
    count += batch.length;
    yield* batch;
  }
}

/**
 * A realistic, reproducible Norwegian event calendar around `today`: the 19 public categories plus
 * sub-categories and a hidden one, venues and organizers in six municipalities, and events of every
 * shape the API must handle (series, same-day repeats, festivals with programmes, online events,
 * cancelled and sold-out dates, dates without end time, messy price inputs, future publishing).
 *
 * The events are generated lazily, so that a million of them stream into the loader without ever
 * being held together (`calendar seed --events 1000000`).
 */
export function demoCalendar(options: DemoCalendarOptions): DemoCalendar {
  return {
    categories: categories(),
    venues: places().map((p) => p.venue),
    organizers: hosts().map((o) => o.organizer),
    events: { length: Math.max(0, options.events), [Symbol.iterator]: () => demoEvents(options) },
  };
}

/** The demo calendar as one object, every event in memory (for tests and small calendars). */
export function generateDemoCalendar(options: DemoCalendarOptions): CalendarFile {
  const demo = demoCalendar(options);
  return { categories: demo.categories, venues: demo.venues, organizers: demo.organizers, events: [...demo.events] };
}
