import type { QueryResolvers } from '../../../../generated/resolvers-types.js';
import { invalidArguments } from '../../../api-error.js';
import { buildSuggestInput } from '../../../domain/suggest-input.js';

export const suggest: QueryResolvers['suggest'] = async (_parent, args, ctx) => {
  const built = buildSuggestInput(args.prefix, args.filter, args.limit, ctx.now);
  if (!built.ok) throw invalidArguments(built.invalidArgs, built.detail);
  // Counted under the filter as `events` counts: a preset's window bounds the answer's life the same way.
  const validUntil = built.input.queries.filter.validUntil;
  if (validUntil) ctx.freshUntil.lower(validUntil);
  return ctx.calendar.suggest(built.input);
};
