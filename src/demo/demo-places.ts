import type { CalendarVenue } from '../import/import-format.js';

export type Municipality = 'Oslo' | 'Bergen' | 'Trondheim' | 'Tromsø' | 'Bodø' | 'Lillehammer';
/** What kind of place a venue is, so that a quiz lands in a pub and not in a cathedral. */
export type VenueType = 'hall' | 'club' | 'church' | 'library' | 'museum' | 'outdoor' | 'community' | 'arena';

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

/** How the events spread over the municipalities. */
export const MUNICIPALITY_WEIGHTS: [Municipality, number][] = [['Oslo', 40], ['Bergen', 20], ['Trondheim', 15], ['Tromsø', 10], ['Bodø', 7], ['Lillehammer', 8]];

/** A venue, with what the generator picks it by: its municipality and what kind of place it is. */
export interface DemoPlace {
  venue: CalendarVenue;
  municipality: Municipality;
  type: VenueType;
}

export function demoPlaces(): DemoPlace[] {
  return VENUE_ROWS.map(([slug, name, address, postalCode, municipality, latitude, longitude, type]) => ({
    venue: { id: `venue-${slug}`, slug, name, address, postalCode, municipality, location: { latitude, longitude } },
    municipality,
    type,
  }));
}
