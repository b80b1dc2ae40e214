import { sql, type Transaction } from 'kysely';
import type { CategoryRow, Database, OrganizerRow, VenueRow } from '../../db/database.js';
import { norwegianNameKey } from '../../db/repositories/catalogue.js';
import type { CalendarSnapshot } from './calendar-snapshot.js';

/*
 * A snapshot's catalogue, as load-snapshot.ts reads it in its one view: venues, organizers and categories,
 * numbered in name order, with the columns the walk filters on.
 */

export function pickCatalogueColumns(c: CatalogueColumns): CatalogueColumns {
  return {
    catalogue: c.catalogue,
    venueIds: c.venueIds,
    venueBySlug: c.venueBySlug,
    venueFoldedNames: c.venueFoldedNames,
    venueMunicipalities: c.venueMunicipalities,
    venuePostalCodes: c.venuePostalCodes,
    venueLatitudes: c.venueLatitudes,
    venueLongitudes: c.venueLongitudes,
    organizerIds: c.organizerIds,
    organizerBySlug: c.organizerBySlug,
    organizerFoldedNames: c.organizerFoldedNames,
  };
}

export type CatalogueColumns = Pick<
  CalendarSnapshot,
  | 'catalogue'
  | 'venueIds'
  | 'venueBySlug'
  | 'venueFoldedNames'
  | 'venueMunicipalities'
  | 'venuePostalCodes'
  | 'venueLatitudes'
  | 'venueLongitudes'
  | 'organizerIds'
  | 'organizerBySlug'
  | 'organizerFoldedNames'
>;

export interface CatalogueRead {
  snapshot: CatalogueColumns;
  venueIndex: Map<string, number>;
  organizerIndex: Map<string, number>;
  categoryFolded: Map<string, string>;
}

export async function readCatalogue(trx: Transaction<Database>): Promise<CatalogueRead> {
  const venueRows = await trx
    .selectFrom('venues')
    .selectAll()
    .select(sql<string>`calendar_fold(name)`.as('folded'))
    .orderBy(norwegianNameKey('name'))
    .orderBy('id')
    .execute();
  const organizerRows = await trx
    .selectFrom('organizers')
    .selectAll()
    .select(sql<string>`calendar_fold(name)`.as('folded'))
    .orderBy(norwegianNameKey('name'))
    .orderBy('id')
    .execute();
  const categoryRows = await trx
    .selectFrom('categories')
    .selectAll()
    .select(sql<string>`calendar_fold(name_nb || ' ' || name_en)`.as('folded'))
    .orderBy('position')
    .orderBy('id')
    .execute();

  const venuesByName: VenueRow[] = venueRows.map(({ folded: _folded, ...venue }) => venue);
  const organizersByName: OrganizerRow[] = organizerRows.map(({ folded: _folded, ...organizer }) => organizer);
  const categories: CategoryRow[] = categoryRows.map(({ folded: _folded, ...category }) => category);
  const venueIndex = new Map(venueRows.map((v, i) => [v.id, i]));
  const organizerIndex = new Map(organizerRows.map((o, i) => [o.id, i]));
  const venueLatitudes = new Float64Array(venueRows.length);
  const venueLongitudes = new Float64Array(venueRows.length);
  venueRows.forEach((v, i) => {
    venueLatitudes[i] = v.latitude ?? Number.NaN;
    venueLongitudes[i] = v.longitude ?? Number.NaN;
  });
  return {
    snapshot: {
      catalogue: {
        venues: new Map(venuesByName.map((v) => [v.id, v])),
        organizers: new Map(organizersByName.map((o) => [o.id, o])),
        categories,
        categoriesById: new Map(categories.map((c) => [c.id, c])),
        venuesByName,
        organizersByName,
      },
      venueIds: venueRows.map((v) => v.id),
      venueBySlug: new Map(venueRows.map((v, i) => [v.slug, i])),
      venueFoldedNames: venueRows.map((v) => v.folded),
      venueMunicipalities: venueRows.map((v) => (v.municipality == null ? null : v.municipality.toLowerCase())),
      venuePostalCodes: venueRows.map((v) => v.postal_code),
      venueLatitudes,
      venueLongitudes,
      organizerIds: organizerRows.map((o) => o.id),
      organizerBySlug: new Map(organizerRows.map((o, i) => [o.slug, i])),
      organizerFoldedNames: organizerRows.map((o) => o.folded),
    },
    venueIndex,
    organizerIndex,
    categoryFolded: new Map(categoryRows.map((c) => [c.id, c.folded])),
  };
}
