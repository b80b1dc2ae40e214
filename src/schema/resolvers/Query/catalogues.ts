import type { QueryResolvers } from '../../../../generated/resolvers-types.js';

/** Retired categories are deleted from the table, so everything listed is current (hidden ones flagged). */
export const categories: QueryResolvers['categories'] = async (_p, _a, ctx) =>
  (await ctx.loaders.categories()).filter((c) => c.parent_id == null);

/** In Norwegian name order (æ, ø, å after z), as read into the request's snapshot. */
export const venues: QueryResolvers['venues'] = async (_p, _a, ctx) => [...(await ctx.calendar.catalogue()).venuesByName];

export const organizers: QueryResolvers['organizers'] = async (_p, _a, ctx) => [...(await ctx.calendar.catalogue()).organizersByName];
