import type { QueryResolvers } from '../../../../generated/resolvers-types.js';
import { buildEventQuery, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../domain/event-query.js';
import type { FacetKind } from '../../../read-model/walk/result-page.js';
import { selectedFieldNames, selectionSetsOf } from '../../selected-fields.js';
import { invalidArguments } from '../../../api-error.js';
import { eventNodes } from '../../event-node.js';
import { nodeOptionsFor } from '../../node-options.js';

const FACETS: readonly FacetKind[] = ['venues', 'organizers', 'categories'];

export const events: QueryResolvers['events'] = async (_parent, args, ctx, info) => {
  const page = args.page ?? 0;
  const pageSize = args.pageSize ?? DEFAULT_PAGE_SIZE;
  const built = buildEventQuery(args.filter, ctx.now);
  const invalidArgs = built.ok ? [] : [...built.invalidArgs];
  if (page < 0) invalidArgs.push('page');
  if (pageSize <= 0 || pageSize > MAX_PAGE_SIZE) invalidArgs.push('pageSize');
  if (!built.ok || invalidArgs.length > 0) {
    const details = [built.ok ? undefined : built.detail, pageSize > MAX_PAGE_SIZE ? `pageSize may be at most ${MAX_PAGE_SIZE}` : undefined];
    throw invalidArguments(invalidArgs, details.filter((d) => d !== undefined).join('; ') || undefined);
  }
  // "A cached answer of a preset never outlives its window."
  if (built.query.validUntil) ctx.freshUntil.lower(built.query.validUntil);
  // Only the work the operation asks for: facets and totals are whole-result aggregates.
  const connectionSelections = info.fieldNodes.map((f) => f.selectionSet);
  const selected = selectedFieldNames(connectionSelections, info.fragments);
  const nodeFields = selectedFieldNames(selectionSetsOf('data', connectionSelections, info.fragments), info.fragments);
  const result = await ctx.calendar.eventsPage({
    query: built.query,
    page,
    pageSize,
    facets: FACETS.filter((f) => selected.has(f)),
    wantsTotal: selected.has('totalCount') || selected.has('pageInfo'),
    ...nodeOptionsFor(nodeFields),
  });
  return { ...result, nodes: eventNodes(result.nodes), page, pageSize };
};
