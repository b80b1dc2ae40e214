import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { findResultPage } from '../walk/find-result-page.js';
import type { FacetCount, FacetKind, ResultPage, ResultRequest } from '../walk/result-page.js';
import { listedBefore, mergedFacet, type LayeredNode } from './layered-node.js';

/**
 * A page over several layers, each holding its own events (the bases of a full build in segments, and
 * the delta): each layer's nodes are the version's nodes of its events, so the version's first
 * (p + 1)·s nodes are the first of each layer's merged in listing order, and totals and facet hits add up.
 *
 * Asked by shares (docs/performance.md "A base in segments"): a segment holds the events whose id hashes
 * to it, about 1/k of any listing's nodes, so each is asked first for 1.25·(p + 1)·s/k + 8 of its first
 * nodes, and asked again for twice as many only when the merge runs past the last node it gave while it
 * has more (past that point it may hold nodes listed earlier than the others' next). A layer marked
 * `whole` (the delta: its events are any, not a hash's share) is asked for all (p + 1)·s at once.
 */
export function findSegmentedPage(layers: readonly CalendarSnapshot[], requests: readonly ResultRequest[], whole: readonly boolean[]): { nodes: LayeredNode[]; page: Omit<ResultPage, 'nodes'> } {
  const request = requests[0]!;
  const first = request.page * request.pageSize;
  const last = first + request.pageSize;
  const shares = layers.reduce((n, _, i) => (whole[i] ? n : n + 1), 0);
  const share = Math.min(last, Math.ceil((1.25 * last) / Math.max(1, shares)) + 8);
  const asks = layers.map((_, i) => (whole[i] ? last : share));
  const ask = (i: number) => findResultPage(layers[i]!, { ...requests[i]!, page: 0, pageSize: asks[i]!, nodesFrom: 0 });
  const answers = layers.map((_, i) => ask(i));
  for (;;) {
    const { nodes, taken, short } = mergedAnswers(layers, answers, first, last, true);
    if (short < 0) return { nodes, page: summedAnswers(request, answers, taken) };
    asks[short] = Math.min(last, asks[short]! * 2);
    answers[short] = ask(short);
  }
}

/**
 * The layers' answers merged in listing order up to the page end (`last`): the page's nodes (from
 * `first`) and how many of each answer's nodes were taken. `stopShort`: stop where an answer that has
 * more nodes than it gave runs out (`short` names it; -1 when none did).
 */
export function mergedAnswers(
  layers: readonly CalendarSnapshot[],
  answers: readonly ResultPage[],
  first: number,
  last: number,
  stopShort: boolean,
): { nodes: LayeredNode[]; taken: number[]; short: number } {
  const taken = new Array<number>(layers.length).fill(0);
  const nodes: LayeredNode[] = [];
  for (let position = 0; position < last; position++) {
    let best = -1;
    for (let i = 0; i < layers.length; i++) {
      const answer = answers[i]!;
      const node = answer.nodes[taken[i]!];
      if (node === undefined) {
        if (stopShort && answer.hasMore && answer.nodes.length < last) return { nodes, taken, short: i };
        continue;
      }
      if (best < 0) best = i;
      else {
        const held = answers[best]!.nodes[taken[best]!]!;
        if (listedBefore(layers[i]!, node.event, node.date, layers[best]!, held.event, held.date)) best = i;
      }
    }
    if (best < 0) break;
    const node = answers[best]!.nodes[taken[best]!++]!;
    if (position >= first) nodes.push({ snapshot: layers[best]!, ...node });
  }
  return { nodes, taken, short: -1 };
}

/** Totals, `hasMore` and facets of the layers' answers (`taken`: their nodes merged), as one snapshot of all their events gives them. */
export function summedAnswers(request: ResultRequest, answers: readonly ResultPage[], taken: readonly number[]): Omit<ResultPage, 'nodes'> {
  const last = (request.page + 1) * request.pageSize;
  let totalCount: number | null = 0;
  for (const answer of answers) totalCount = totalCount === null || answer.totalCount === null ? null : totalCount + answer.totalCount;
  // A node past the page: one not taken, or one an answer did not give.
  const hasMore = answers.some((answer, i) => taken[i]! < answer.nodes.length || answer.hasMore) || (totalCount !== null && totalCount > last);
  // Nothing asked to count (first-nodes): the total is known only when every walk ran out before the page was full.
  if (!request.wantsTotal && request.facets.length === 0 && totalCount !== null && totalCount > last) totalCount = null;
  const facets: Partial<Record<FacetKind, FacetCount[]>> = {};
  for (const kind of request.facets) facets[kind] = mergedFacet(...answers.map((answer) => answer.facets[kind] ?? []));
  return { hasMore, totalCount, facets };
}
