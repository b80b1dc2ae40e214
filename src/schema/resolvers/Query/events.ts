import type { QueryResolvers } from '../../../../generated/resolvers-types.js';
import { buildEventQuery, DEFAULT_PAGE_SIZE, eventQueryAt, eventQueryKey, MAX_PAGE_SIZE, type EventQuery } from '../../../domain/event-query.js';
import { chooseSearchMode, findNodePage, findNodeSummary, type FacetKind, type NodePage } from '../../../db/repositories/event-nodes.js';
import { selectedFieldNames, selectionSetsOf } from '../../selected-fields.js';
import { invalidArguments } from '../../errors.js';
import { loadNodes } from '../../event-nodes.js';
import type { GraphQLContext } from '../../context.js';
import type { ComputeSummary, ResultSummary } from '../../result-summaries.js';

const FACETS: readonly FacetKind[] = ['venues', 'organizers', 'categories'];
/** Connection fields read from the whole result rather than from the page. */
const SUMMARY_FIELDS = new Set<string>(['totalCount', 'pageInfo', ...FACETS]);

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
  const connectionSelections = info.fieldNodes.map((f) => f.selectionSet);
  const selected = selectedFieldNames(connectionSelections, info.fragments);
  const facets = FACETS.filter((f) => selected.has(f));
  const wantsSummary = [...selected].some((name) => SUMMARY_FIELDS.has(name));
  const nodeFields = selectedFieldNames(selectionSetsOf('data', connectionSelections, info.fragments), info.fragments);

  const { summary, nodePage } = await summaryAndPage(ctx, query, page, pageSize, facets, wantsSummary);
  ctx.loaders.useDataVersion(nodePage.version);
  return {
    nodes: await loadNodes(ctx, nodePage.nodes, query.groupByDay, { repetitions: nodeFields.has('repetitions') }),
    hasMore: nodePage.hasMore,
    totalCount: summary?.totalCount ?? null,
    page,
    pageSize,
    facets: summary?.facets ?? {},
  };
};

/**
 * The page, read live, and the whole result's summary, reused per filter (see ResultSummaryCache)
 * while it holds and is of the same data version as the page. Without a summary field selected,
 * only a search needs anything beyond the page: its phase (literal or approximate).
 */
async function summaryAndPage(
  ctx: GraphQLContext,
  query: EventQuery,
  page: number,
  pageSize: number,
  facets: readonly FacetKind[],
  wantsSummary: boolean,
): Promise<{ summary: ResultSummary | null; nodePage: NodePage }> {
  const key = eventQueryKey(query);
  // As of any instant: now, or the next change of the result, computed ahead of it.
  const computeAt: ComputeSummary = async (instant) => {
    const asked = eventQueryAt(query, new Date(instant));
    const search = await chooseSearchMode(ctx.db, asked);
    const counted = [...new Set([...facets, ...ctx.resultSummaries.keptFacets(key)])];
    const summary = await findNodeSummary(ctx.db, asked, search, counted);
    return { ...summary, search, validFrom: instant };
  };
  const now = ctx.now.getTime();

  let summary = ctx.resultSummaries.reusable(key, ctx.now, wantsSummary ? facets : [], computeAt) ?? null;
  if (!summary && !wantsSummary) {
    const search = await chooseSearchMode(ctx.db, query);
    return { summary: null, nodePage: await findNodePage(ctx.db, query, page, pageSize, search) };
  }
  let nodePage = summary ? await findNodePage(ctx.db, query, page, pageSize, summary.search, summary.searchStrategy) : null;
  // Missing, or computed on data an import has since replaced: compute it (once more if an import
  // lands in between, or a computation already running counted other facets).
  for (let attempt = 0; attempt < 2 && (!summary || !nodePage || nodePage.version !== summary.version); attempt++) {
    summary = await ctx.resultSummaries.compute(key, now, computeAt);
    if (!facets.every((kind) => summary?.facets[kind])) summary = await ctx.resultSummaries.compute(key, now, computeAt);
    nodePage = await findNodePage(ctx.db, query, page, pageSize, summary.search, summary.searchStrategy);
  }
  return { summary, nodePage: nodePage! };
}
