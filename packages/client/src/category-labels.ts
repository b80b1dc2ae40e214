import type { Language } from './language.js';

export interface CategoryLike {
  id: string;
  name_nb: string;
  name_en: string;
  subCategories?: readonly CategoryLike[] | null | undefined;
}

/**
 * A lookup from category id to label. Events carry ids, not labels, and ids differ per licence,
 * so labels come from this licence's `categories` query (cache it: it rarely changes). An id the
 * list does not know (hidden or just retired) is shown as itself rather than dropped.
 */
export function categoryLabeler(categories: readonly CategoryLike[] | null | undefined, language: Language = 'nb'): (id: string) => string {
  const labels = new Map<string, string>();
  const add = (list: readonly CategoryLike[]) => {
    for (const category of list) {
      labels.set(category.id, language === 'nb' ? category.name_nb : category.name_en);
      if (category.subCategories) add(category.subCategories);
    }
  };
  add(categories ?? []);
  return (id) => labels.get(id) ?? id;
}
