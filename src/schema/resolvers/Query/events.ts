import type { QueryResolvers } from '../../../../generated/resolvers-types.js';
import { buildEventQuery, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../domain/event-query.js';
import { chooseSearchMode, findNodePage, type FacetKind } from '../../../db/repositories/event-nodes.js';
import { selectedFieldNames } from '../../selected-fields.js';
import { invalidArguments } from '../../errors.js';
import { loadNodes } from '../../event-nodes.js';

const FACETS: readonly FacetKind[] = ['venues', 'organizers', 'categories'];

export const events: QueryResolvers['events'] = async (_parent, args, ctx, info) => {
  const page = args.page ?? 0;
  const pageSize = args.pageSize ?? DEFAULT_PAGE_SIZE;
  const built = buildEventQuery(args.filter, ctx.now);
  const invalidArgs = built.ok ? [] : [...built.invalidArgs];
  if (page < 0) invalidArgs.push('page');
  if (pageSize <= 0 || pageSize > MAX_PAGE_SIZE) invalidArgs.push('pageSize');
  if (!built.ok || invalidArgs.length > 0) {
    throw invalidArguments(invalidArgs, pageSize > MAX_PAGE_SIZE ? `pageSize may be at most ${MAX_PAGE_SIZE}` : undefined);
  }
  const query = built.query;
  const search = await chooseSearchMode(ctx.db, query);
  const selected = selectedFieldNames(info.fieldNodes.map((f) => f.selectionSet), info.fragments);
  const result = await findNodePage(ctx.db, query, page, pageSize, search, FACETS.filter((f) => selected.has(f)));
  return {
    nodes: await loadNodes(ctx, result.nodes, query.groupByDay),
    totalCount: result.totalCount,
    page,
    pageSize,
    facets: result.facets,
  };
};
