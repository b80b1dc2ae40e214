import type { Kysely } from 'kysely';
import type { CategoryRow, Database, OrganizerRow, VenueRow } from '../db/database.js';
import { readCatalogue } from '../db/repositories/catalogue.js';

/** The venue, organizer and category catalogues of one data version. */
export interface Catalogue {
  version: string;
  venues: ReadonlyMap<string, VenueRow>;
  organizers: ReadonlyMap<string, OrganizerRow>;
  /** In the calendar's order (position, then id). */
  categories: readonly CategoryRow[];
}

const newer = (a: string, b: string) => BigInt(a) > BigInt(b);

/**
 * The catalogues, kept in process and read again only after an import: they are small (hundreds to
 * a few thousand rows), and nearly every response names venues, organizers or categories, which
 * would otherwise cost a statement each per request.
 */
export class CatalogueCache {
  private current: Catalogue | null = null;
  private loading: Promise<Catalogue> | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The catalogue of data version `version`, or of a newer one when an import has landed since
   * (as any later statement of the request would see).
   */
  async atLeast(version: string): Promise<Catalogue> {
    for (let attempt = 0; ; attempt++) {
      const kept = this.current;
      if (kept && !newer(version, kept.version)) return kept;
      const loaded = await this.load();
      // A read that had started before that version landed: read once more.
      if (!newer(version, loaded.version) || attempt > 0) return loaded;
    }
  }

  private load(): Promise<Catalogue> {
    this.loading ??= readCatalogue(this.db)
      .then((rows): Catalogue => {
        const catalogue: Catalogue = {
          version: rows.version,
          venues: new Map(rows.venues.map((v) => [v.id, v])),
          organizers: new Map(rows.organizers.map((o) => [o.id, o])),
          categories: rows.categories,
        };
        if (!this.current || newer(catalogue.version, this.current.version)) this.current = catalogue;
        return catalogue;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }
}
