import type { QueryResolvers } from '../../../../generated/resolvers-types.js';
import { listOrganizers, listVenues } from '../../../db/repositories/catalogue.js';

/** Retired categories are deleted from the table, so everything listed is current (hidden ones flagged). */
export const categories: QueryResolvers['categories'] = async (_p, _a, ctx) =>
  (await ctx.loaders.categories()).filter((c) => c.parent_id == null);

export const venues: QueryResolvers['venues'] = (_p, _a, ctx) => listVenues(ctx.db);

export const organizers: QueryResolvers['organizers'] = (_p, _a, ctx) => listOrganizers(ctx.db);
