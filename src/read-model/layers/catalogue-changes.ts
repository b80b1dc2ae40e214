import type { CategoryRow } from '../../db/database.js';
import type { SnapshotCatalogue } from '../snapshot/calendar-snapshot.js';

/*
 * A catalogue that changed since the last full build, applied to the layers (issue 54): the delta is
 * built on the newest catalogue with numbers of its own, the base keeps the full build's, and the two
 * meet by id (facets merge by id already; typeahead merges its catalogue entities by id: layered-
 * suggestions.ts). What keeps the base exact: an import that changes a venue or an organizer marks every
 * event of it changed (db/repositories/event-changes.ts, `recordCatalogueChanges`), so those events are
 * masked in the base and read into the delta with the new rows; a retired category's events likewise
 * (`recordCategoryRetirement`), and of a category whose labels, slugs, visibility or parent changed. So
 * a base event only ever refers to venues, organizers and categories whose rows did not change, and the
 * base's own answers (filters by slug, municipality, place, name search) stay right. Only the base's
 * catalogue entries of changed or removed entities are stale, and their events are all masked: typeahead
 * leaves those entries out. A category whose visibility or parent changed is the exception: whether its
 * children are suggested depends on it ("visible, under a visible parent"), and their events are not
 * marked, so that change is a full build ('catalogue'). A position alone only orders the catalogue.
 */

/** Per kind, the base's entity numbers whose rows changed or left the newest catalogue (1), in its numbering. */
export interface StaleInBase {
  venues: Uint8Array;
  organizers: Uint8Array;
  categories: Uint8Array;
}

/** How the newest catalogue relates to the full build's. */
export type CatalogueChange =
  | { kind: 'same' }
  /** Layered: the delta on the newest catalogue, the base's stale entries marked. */
  | { kind: 'layered'; stale: StaleInBase }
  /** An existing category's visibility or parent changed: a full build. */
  | { kind: 'full' };

export function catalogueChange(full: SnapshotCatalogue, newest: SnapshotCatalogue): CatalogueChange {
  let changed = full.venuesByName.length !== newest.venuesByName.length || full.organizersByName.length !== newest.organizersByName.length || full.categories.length !== newest.categories.length;
  const categories = new Uint8Array(full.categories.length);
  for (let k = 0; k < full.categories.length; k++) {
    const before = full.categories[k]!;
    const now = newest.categoriesById.get(before.id);
    if (now === undefined) {
      // Retired: its events were marked changed and moved off it.
      categories[k] = 1;
      changed = true;
    } else if (before.visible !== now.visible || before.parent_id !== now.parent_id) return { kind: 'full' };
    else if (!sameLabels(before, now)) {
      // Relabelled: its events were marked changed.
      categories[k] = 1;
      changed = true;
    } else if (before.position !== now.position) changed = true;
  }
  const stale = (rows: readonly { id: string }[], by: ReadonlyMap<string, object>) => {
    const flags = new Uint8Array(rows.length);
    rows.forEach((row, i) => {
      const now = by.get(row.id);
      if (now === undefined || !sameRow(row, now)) {
        flags[i] = 1;
        changed = true;
      }
    });
    return flags;
  };
  const venues = stale(full.venuesByName, newest.venues);
  const organizers = stale(full.organizersByName, newest.organizers);
  return changed ? { kind: 'layered', stale: { venues, organizers, categories } } : { kind: 'same' };
}

/** A category's labels and slugs (what typeahead and name search read of it). */
function sameLabels(a: CategoryRow, b: CategoryRow): boolean {
  return a.name_nb === b.name_nb && a.name_en === b.name_en && a.slug_nb === b.slug_nb && a.slug_en === b.slug_en;
}

/** Rows of the same table: every column equal. */
function sameRow(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key of Object.keys(x)) if (!Object.is(x[key], y[key])) return false;
  return Object.keys(x).length === Object.keys(y).length;
}
