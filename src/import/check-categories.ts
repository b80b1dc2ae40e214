import { CHECK_ORDER } from './check-order.js';
import type { ImportProblems, SectionName } from './import-problems.js';
import type { ParsedItem } from './parse-record.js';
import { text, texts, type RawItem } from './raw-record.js';
import type { StartState } from './read-start-state.js';
import { SectionIds } from './section-ids.js';

/** The problem with a reference to a category id (unknown, retired), or null when it may be used. */
export type CategoryProblem = (id: string) => string | null;

/** Both category sections as written, and what they and the database say about each id. */
interface CategorySections {
  categories: RawItem[];
  retiredCategories: RawItem[];
  fileCategories: Set<string>;
  /** Retired id → its replacements, as the file retires them. */
  fileRetired: Map<string, string[]>;
  start: StartState;
  problems: ImportProblems;
}

export interface CategoryInput {
  categories: readonly ParsedItem<unknown>[];
  retiredCategories: readonly ParsedItem<unknown>[];
  start: StartState;
  /** `categories` is not a list: its ids are unknown, so references into it are not checked. */
  categoriesUnreadable: boolean;
  problems: ImportProblems;
}

/**
 * The categories and retired categories (a few dozen, kept whole), checked at the end of the file
 * when both sections are known: ids, parents, slugs and replacements. Returns the check of a
 * category reference, which needs both sections, for the events' references.
 */
export function checkCategories(input: CategoryInput): CategoryProblem {
  const raw = (items: readonly ParsedItem<unknown>[]): RawItem[] => items.flatMap((i) => (i.record ? [{ index: i.index, record: i.record }] : []));
  const categories = raw(input.categories);
  const retiredCategories = raw(input.retiredCategories);
  const fileRetired = new Map<string, string[]>();
  for (const { record } of retiredCategories) {
    const id = text(record, 'id');
    if (id !== undefined) fileRetired.set(id, texts(record, 'replacedBy').map(([, r]) => r));
  }
  const sections: CategorySections = {
    categories,
    retiredCategories,
    fileCategories: new Set(categories.map((i) => text(i.record, 'id')).filter((id): id is string => id !== undefined)),
    fileRetired,
    start: input.start,
    problems: input.problems,
  };
  const categoryProblem = categoryReferenceCheck(sections, input.categoriesUnreadable);

  checkDuplicateIds('categories', categories, input.problems);
  checkParents(sections, categoryProblem);
  checkCategorySlugs(sections);
  checkDuplicateIds('retiredCategories', retiredCategories, input.problems);
  checkReplacements(sections, categoryProblem);
  return categoryProblem;
}

function replacementsOf(sections: CategorySections, id: string): string[] | undefined {
  return sections.fileRetired.get(id) ?? sections.start.retired.get(id);
}

function retiredMessage(id: string, replacedBy: string[]): string {
  const hint = replacedBy.length > 0 ? ` (replaced by ${replacedBy.join(', ')})` : '';
  return `category ${JSON.stringify(id)} is retired${hint} and cannot be used again`;
}

/** A reference must name a category of the file or the database that is not retired (by either). */
function categoryReferenceCheck(sections: CategorySections, categoriesUnreadable: boolean): CategoryProblem {
  return (id) => {
    const replacedBy = replacementsOf(sections, id);
    if (replacedBy !== undefined) return retiredMessage(id, replacedBy);
    if (categoriesUnreadable || sections.fileCategories.has(id) || sections.start.categories.has(id)) return null;
    return `unknown category ${JSON.stringify(id)}`;
  };
}

function place(section: SectionName, index: number, check: number, sub = 0) {
  return { section, index, check, sub };
}

function checkDuplicateIds(section: SectionName, items: readonly RawItem[], problems: ImportProblems): void {
  const ids = new SectionIds(section, problems);
  for (const { index, record } of items) ids.add(index, text(record, 'id'));
}

/** A listed category is not retired; its parent is a usable category, and no chain of parents loops. */
function checkParents(sections: CategorySections, categoryProblem: CategoryProblem): void {
  const { categories, start, problems } = sections;
  const parentOf = new Map<string, string | null>([...start.categories.values()].map((c) => [c.id, c.parent_id]));
  for (const { record } of categories) {
    const id = text(record, 'id');
    if (id !== undefined) parentOf.set(id, text(record, 'parent') ?? null);
  }
  for (const { index, record } of categories) {
    const id = text(record, 'id');
    const parent = text(record, 'parent');
    if (id === undefined) continue;
    const at = place('categories', index, CHECK_ORDER.categoryRetiredOrParent);
    const replacedBy = replacementsOf(sections, id);
    if (replacedBy !== undefined) problems.add(`categories[${index}].id: ${retiredMessage(id, replacedBy)}`, at);
    if (parent === undefined) continue;
    if (parent === id) {
      problems.add(`categories[${index}].parent: a category cannot be its own parent`, at);
      continue;
    }
    const parentProblem = categoryProblem(parent);
    if (parentProblem) {
      problems.add(`categories[${index}].parent: ${parentProblem}`, at);
      continue;
    }
    // Walk up; a chain longer than the number of categories has looped.
    let current: string | null | undefined = parent;
    for (let steps = 0; current && steps <= parentOf.size; steps++) {
      if (current === id) {
        problems.add(`categories[${index}].parent: the parent chain loops back to ${JSON.stringify(id)}`, at);
        break;
      }
      current = parentOf.get(current);
    }
  }
}

/** Category slugs are unique per language among the categories after the import; retired ones go. */
function checkCategorySlugs(sections: CategorySections): void {
  const { categories, fileCategories, fileRetired, start, problems } = sections;
  for (const [field, check] of [['slug_nb', CHECK_ORDER.categorySlugNb], ['slug_en', CHECK_ORDER.categorySlugEn]] as const) {
    const claims = new Map<string, { id: string; index?: number }>();
    for (const c of start.categories.values()) if (!fileCategories.has(c.id) && !fileRetired.has(c.id)) claims.set(c[field], { id: c.id });
    for (const { index, record } of categories) {
      const id = text(record, 'id');
      const slug = text(record, field);
      if (id === undefined || slug === undefined) continue;
      const claim = claims.get(slug);
      if (!claim) claims.set(slug, { id, index });
      else if (claim.id !== id) {
        const holder = claim.index === undefined ? `category ${JSON.stringify(claim.id)}` : `categories[${claim.index}]`;
        problems.add(`categories[${index}].${field}: slug ${JSON.stringify(slug)} is already used by ${holder}`, place('categories', index, check));
      }
    }
  }
}

/** "Replacement ids must be existing, not retired categories", each listed once, never the retired id itself. */
function checkReplacements(sections: CategorySections, categoryProblem: CategoryProblem): void {
  const { retiredCategories, problems } = sections;
  for (const { index, record } of retiredCategories) {
    const id = text(record, 'id');
    const seen = new Set<string>();
    for (const [k, replacement] of texts(record, 'replacedBy')) {
      const path = `retiredCategories[${index}].replacedBy[${k}]`;
      const problem = replacement === id ? 'a category cannot replace itself' : seen.has(replacement) ? 'listed twice' : categoryProblem(replacement);
      if (problem) problems.add(`${path}: ${problem}`, place('retiredCategories', index, CHECK_ORDER.replacement, k));
      seen.add(replacement);
    }
  }
}
