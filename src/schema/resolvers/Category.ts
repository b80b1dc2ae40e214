import type { CategoryFacetResolvers, CategoryResolvers } from '../../../generated/resolvers-types.js';
import type { SharedResolvers } from '../field-coverage.js';

/** The fields a category and a category facet both have. */
const categoryFields = {
  id: (c) => c.id,
  name_nb: (c) => c.name_nb,
  name_en: (c) => c.name_en,
  slug_nb: (c) => c.slug_nb,
  slug_en: (c) => c.slug_en,
  visible: (c) => c.visible,
} satisfies SharedResolvers<CategoryResolvers, CategoryFacetResolvers>;

export const Category = {
  ...categoryFields,
  subCategories: async (c, _a, ctx) => (await ctx.loaders.categories()).filter((s) => s.parent_id === c.id),
} satisfies CategoryResolvers;

export const CategoryFacet = {
  ...categoryFields,
  hits: (c) => c.hits,
} satisfies CategoryFacetResolvers;
