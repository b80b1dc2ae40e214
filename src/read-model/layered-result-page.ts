import type { CalendarSnapshot } from './calendar-snapshot.js';
import type { LayeredSnapshot } from './layered-snapshot.js';
import type { WordMatch } from './search-matches.js';
import { findResultPage } from './walk/find-result-page.js';
import type { FacetCount, FacetKind, ResultPage, ResultRequest } from './walk/result-page.js';

/** A node of a layered answer: an event and its promoted date, numbered in the layer holding them. */
export interface LayeredNode {
  snapshot: CalendarSnapshot;
  event: number;
  date: number;
}

export interface LayeredResultPage extends Omit<ResultPage, 'nodes'> {
  nodes: LayeredNode[];
}

/**
 * `findResultPage` over the layers of a version (layered-snapshot.ts), answering exactly as a full build
 * of that version would. Every event is in one layer, so each layer's nodes are the version's nodes of
 * its events: the first (page + 1) · pageSize of each layer (every strategy of each, planned per layer)
 * are merged in listing order (start, event id, date id) and the page cut from them; totals and facet
 * hits are sums (facets merged by id, most hits first, ties by id, as `rankFacet` orders them).
 * `deltaWords`: the request's search words matched in the delta (`wordMatches` of it).
 */
export function findLayeredPage(layers: LayeredSnapshot, request: ResultRequest, deltaWords: readonly WordMatch[]): LayeredResultPage {
  const { base, delta } = layers;
  if (!delta) {
    const page = findResultPage(base, request);
    return { ...page, nodes: page.nodes.map(({ event, date }) => ({ snapshot: base, event, date })) };
  }
  const lastNode = (request.page + 1) * request.pageSize;
  const upTo = { ...request, page: 0, pageSize: lastNode };
  const fromBase = findResultPage(base, upTo);
  const fromDelta = findResultPage(delta, { ...upTo, words: deltaWords });
  const merged: LayeredNode[] = [];
  const b = fromBase.nodes;
  const d = fromDelta.nodes;
  for (let i = 0, j = 0; merged.length < lastNode && (i < b.length || j < d.length); ) {
    if (j >= d.length || (i < b.length && listedBefore(base, b[i]!.event, b[i]!.date, delta, d[j]!.event, d[j]!.date))) {
      merged.push({ snapshot: base, ...b[i++]! });
    } else merged.push({ snapshot: delta, ...d[j++]! });
  }
  const counted = fromBase.nodes.length + fromDelta.nodes.length;
  const hasMore = fromBase.hasMore || fromDelta.hasMore || counted > lastNode;
  let totalCount = fromBase.totalCount === null || fromDelta.totalCount === null ? null : fromBase.totalCount + fromDelta.totalCount;
  // Nothing asked to count (first-nodes): the total is known only when the walk ran out before the page was full.
  if (!request.wantsTotal && request.facets.length === 0 && totalCount !== null && totalCount > lastNode) totalCount = null;
  const facets: Partial<Record<FacetKind, FacetCount[]>> = {};
  for (const kind of request.facets) facets[kind] = mergedFacet(fromBase.facets[kind] ?? [], fromDelta.facets[kind] ?? []);
  return { nodes: merged.slice(request.page * request.pageSize), hasMore, totalCount, facets };
}

/** Listing order across layers: by start, then event id (code-unit order, as event numbers follow), then date id. */
function listedBefore(a: CalendarSnapshot, aEvent: number, aDate: number, b: CalendarSnapshot, bEvent: number, bDate: number): boolean {
  const aStart = a.dateStart[aDate]!;
  const bStart = b.dateStart[bDate]!;
  if (aStart !== bStart) return aStart < bStart;
  const aId = a.eventIds[aEvent]!;
  const bId = b.eventIds[bEvent]!;
  if (aId !== bId) return aId < bId;
  return a.dateId[aDate]! < b.dateId[bDate]!;
}

function mergedFacet(a: readonly FacetCount[], b: readonly FacetCount[]): FacetCount[] {
  const hits = new Map<string, number>();
  for (const { id, hits: n } of [...a, ...b]) hits.set(id, (hits.get(id) ?? 0) + n);
  const merged: FacetCount[] = [];
  for (const [id, n] of hits) if (n > 0) merged.push({ id, hits: n });
  return merged.sort((x, y) => y.hits - x.hits || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}
