import { detachedString } from './detached-string.js';
import type { SectionIds } from './section-ids.js';
import type { StoredRows } from './stored-rows.js';

/**
 * Whether a venue or organizer id that events reference, and that the file does not list (yet),
 * is stored: asked of the database once per id, and remembered to the end of the file.
 */
export class StoredIds {
  private readonly known = new Map<string, boolean>();

  constructor(
    private readonly table: 'venues' | 'organizers',
    /** Whether the table held any row before the import; if not, nothing is asked. */
    private readonly held: boolean,
    private readonly inFile: SectionIds,
    private readonly rows: StoredRows,
  ) {}

  async learn(ids: Iterable<string>): Promise<void> {
    const asked = [...new Set(ids)].filter((id) => !this.inFile.has(id) && !this.known.has(id));
    if (asked.length === 0) return;
    const found = this.held ? await this.rows.existing(this.table, asked) : new Set<string>();
    for (const id of asked) this.known.set(detachedString(id), found.has(id));
  }

  has(id: string): boolean {
    return this.known.get(id) === true;
  }
}
