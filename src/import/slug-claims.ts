import { CHECK_ORDER } from './check-order.js';
import { detachedString } from './detached-string.js';
import type { ImportProblems } from './import-problems.js';
import type { ParsedItem } from './parse-record.js';
import { text } from './raw-record.js';
import type { SectionIds } from './section-ids.js';

/** A slug whose stored holder may still appear in the file (and then give it up). */
interface OpenSlug {
  index: number;
  slug: string;
  holder: string;
  /** The earlier record of the file that claimed the slug first, if any. */
  claimant: number | null;
}

/**
 * "Slugs are unique among the records that exist after the import", for one streamed section
 * (venues, organizers or events): the first record of the file to claim each slug, the stored rows
 * that held one before the import, and the claims only the end of the file can decide.
 */
export class SlugClaims {
  private readonly claims = new Map<string, number>();
  /** Stored rows that held a slug before the import and had not appeared in the file when it was claimed. */
  private readonly storedHolders = new Map<string, string>();
  private readonly openSlugs: OpenSlug[] = [];

  constructor(
    private readonly section: 'venues' | 'organizers' | 'events',
    /** How a stored holder is named in a problem: `venue "V-1"`. */
    private readonly kind: string,
    private readonly ids: SectionIds,
    private readonly problems: ImportProblems,
  ) {}

  /** Learns which rows held a slug before the import, from rows read in the import's own transaction. */
  learnHolders(rows: readonly { id: string; slug: string }[]): void {
    // A row whose id the file lists is the file's own (written or about to be): it claims no slug.
    for (const row of rows) if (!this.ids.has(row.id)) this.storedHolders.set(row.slug, row.id);
  }

  /**
   * Stored rows the file does not list (and that survive it) hold their slug first, then the file's
   * records claim theirs in order. Whether a stored holder is listed later is only known at the
   * end; until then the slug stays open.
   */
  check(items: readonly ParsedItem<unknown>[], storedSurvive: boolean): void {
    for (const { index, record } of items) {
      const id = record ? text(record, 'id') : undefined;
      const slug = record ? text(record, 'slug') : undefined;
      if (id === undefined || slug === undefined) continue;
      const first = this.claims.get(slug);
      let claimant: number | null = null;
      if (first === undefined) this.claims.set(detachedString(slug), index);
      else if (this.ids.at(first) !== id) claimant = first;
      const holder = storedSurvive ? this.storedHolders.get(slug) : undefined;
      if (holder !== undefined && holder !== id && !this.ids.has(holder)) this.openSlugs.push({ index, slug: detachedString(slug), holder, claimant });
      else if (claimant !== null) this.report(index, slug, `${this.section}[${claimant}]`);
    }
  }

  /** At the end of the file: a stored holder that never appeared keeps its slug. */
  close(): void {
    for (const { index, slug, holder, claimant } of this.openSlugs) {
      if (!this.ids.has(holder)) this.report(index, slug, `${this.kind} ${JSON.stringify(holder)}`);
      else if (claimant !== null) this.report(index, slug, `${this.section}[${claimant}]`);
    }
  }

  private report(index: number, slug: string, holder: string): void {
    const { section } = this;
    this.problems.add(`${section}[${index}].slug: slug ${JSON.stringify(slug)} is already used by ${holder}`, { section, index, check: CHECK_ORDER.slug });
  }
}
