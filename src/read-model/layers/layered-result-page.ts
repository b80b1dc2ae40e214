import type { LayeredSnapshot } from './layered-snapshot.js';
import type { WordMatch } from '../search/search-matches.js';
import { findResultPage } from '../walk/find-result-page.js';
import { findSegmentedPage } from './segmented-result-page.js';
import { listedBefore, mergedFacet, type LayeredNode } from './layered-node.js';
import type { FacetCount, FacetKind, ResultPage, ResultRequest } from '../walk/result-page.js';

export interface LayeredResultPage extends Omit<ResultPage, 'nodes'> {
  nodes: LayeredNode[];
}

/** The request's search words matched in each layer: per base (in the bases' order) and in the delta (layeredWordMatches). */
export interface LayeredWords {
  bases: readonly (readonly WordMatch[])[];
  delta: readonly WordMatch[];
}

/**
 * `findResultPage` over the layers of a version (layered-snapshot.ts), answering exactly as a full build
 * of that version would. Every event is in one layer, so each layer's nodes are the version's nodes of
 * its events, and the version's first (page + 1) · pageSize nodes are the first of each layer's merged in
 * listing order (start, event id, date id). The delta (small) gives all of its first ones, D of them;
 * then at most D of the page's predecessors are the delta's, so the page's base nodes are among the
 * base's positions [page · pageSize − D, (page + 1) · pageSize): the base is asked for those alone
 * (`nodesFrom`; its walk, plan, total and `hasMore` are the page's), and each node's merged position is
 * its position in its layer plus the other layer's nodes listed before it. Totals and facet hits are
 * sums (facets merged by id, most hits first, ties by id, as `rankFacet` orders them).
 * A full build in segments is merged by shares instead (segmented-result-page.ts).
 */
export function findLayeredPage(layers: LayeredSnapshot, asked: Omit<ResultRequest, 'words'>, words: LayeredWords): LayeredResultPage {
  const { bases, delta } = layers;
  if (bases.length > 1) {
    // A full build in segments: every layer's share merged (segmented-result-page.ts).
    const snapshots = delta ? [...bases, delta] : bases;
    const requests = snapshots.map((_, i) => ({ ...asked, words: i < bases.length ? words.bases[i]! : words.delta }));
    const { nodes, page } = findSegmentedPage(snapshots, requests, snapshots.map((_, i) => i >= bases.length));
    return { ...page, nodes };
  }
  const base = bases[0]!;
  const request: ResultRequest = { ...asked, words: words.bases[0]! };
  const deltaWords = words.delta;
  if (!delta) {
    const page = findResultPage(base, request);
    return { ...page, nodes: page.nodes.map(({ event, date }) => ({ snapshot: base, event, date })) };
  }
  const firstNode = request.page * request.pageSize;
  const lastNode = firstNode + request.pageSize;
  const fromDelta = findResultPage(delta, { ...request, words: deltaWords, page: 0, pageSize: lastNode, nodesFrom: 0 });
  const d = fromDelta.nodes;
  const nodesFrom = Math.max(0, firstNode - d.length);
  const fromBase = findResultPage(base, { ...request, nodesFrom });
  const b = fromBase.nodes;
  // Merged in listing order: b[k] is the base's node at position nodesFrom + k, d[j] the delta's at j,
  // and the node met at step (k, j) is at merged position nodesFrom + k + j. A base node's is exact (j:
  // the delta's nodes listed before it). A delta node met before b[0] may have some of the base's first
  // `nodesFrom` nodes after it, so its own is at most that: exact when nodesFrom is 0, else below the
  // page anyway (j < D, so nodesFrom + j < page · pageSize).
  const nodes: LayeredNode[] = [];
  for (let k = 0, j = 0; nodesFrom + k + j < lastNode && (k < b.length || j < d.length); ) {
    const inPage = nodesFrom + k + j >= firstNode;
    if (j >= d.length || (k < b.length && listedBefore(base, b[k]!.event, b[k]!.date, delta, d[j]!.event, d[j]!.date))) {
      if (inPage) nodes.push({ snapshot: base, ...b[k]! });
      k++;
    } else {
      if (inPage) nodes.push({ snapshot: delta, ...d[j]! });
      j++;
    }
  }
  let totalCount = fromBase.totalCount === null || fromDelta.totalCount === null ? null : fromBase.totalCount + fromDelta.totalCount;
  // A layer without a total has more nodes than the page's end (first-nodes counts that far); with both, the sum says.
  const hasMore = fromBase.hasMore || fromDelta.hasMore || (totalCount !== null && totalCount > lastNode);
  // Nothing asked to count (first-nodes): the total is known only when the walk ran out before the page was full.
  if (!request.wantsTotal && request.facets.length === 0 && totalCount !== null && totalCount > lastNode) totalCount = null;
  const facets: Partial<Record<FacetKind, FacetCount[]>> = {};
  for (const kind of request.facets) facets[kind] = mergedFacet(fromBase.facets[kind] ?? [], fromDelta.facets[kind] ?? []);
  return { nodes, hasMore, totalCount, facets };
}

export type { LayeredNode } from './layered-node.js';
