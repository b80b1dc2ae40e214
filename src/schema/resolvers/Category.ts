import type { CategoryFacetResolvers, CategoryResolvers } from '../../../generated/resolvers-types.js';

const categoryFields = {
  id: (c: { id: string }) => c.id,
  name_nb: (c: { name_nb: string }) => c.name_nb,
  name_en: (c: { name_en: string }) => c.name_en,
  slug_nb: (c: { slug_nb: string }) => c.slug_nb,
  slug_en: (c: { slug_en: string }) => c.slug_en,
  visible: (c: { visible: boolean }) => c.visible,
};

export const Category: CategoryResolvers = {
  ...categoryFields,
  subCategories: async (c, _a, ctx) => (await ctx.loaders.categories()).filter((s) => s.parent_id === c.id),
};

export const CategoryFacet: CategoryFacetResolvers = {
  ...categoryFields,
  hits: (c) => c.hits,
};
