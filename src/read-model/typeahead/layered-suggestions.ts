import { SUGGEST_CATEGORY, SUGGEST_ORGANIZER, SUGGEST_VENUE, type CalendarSnapshot, type SuggestedEventLabel } from '../snapshot/calendar-snapshot.js';
import type { StaleInBase } from '../layers/catalogue-changes.js';
import type { LayeredSnapshot } from '../layers/layered-snapshot.js';
import type { LayeredWords } from '../layers/layered-result-page.js';
import { Best, before, KIND_NAMES, type Ranked } from './suggestion-ranking.js';
import { entityRankKey, eventRankKey } from './suggestion-index.js';
import { catalogueFound, eventCandidates, findSuggestions, hasNode, HitCounter, maskedEventsOf, type FoundSuggestion, type SearchPhase, type SuggestRequest } from './suggestions.js';
import { INNER, TYPO_MIN_UNITS } from './word-index.js';

/* Typeahead over the layers of a version (layered-snapshot.ts): the answers of suggestions.ts on a full build. */

/** The search words of a suggest request's filter matched in each layer (layeredWordMatches); approximate null without a `searchTerm`. */
export interface LayeredSuggestWords {
  literal: LayeredWords;
  approximate: LayeredWords | null;
}

/** What ranks a suggested event's label (eventRankKey): kept by a delta, else read from its record. */
export type { SuggestedEventLabel } from '../snapshot/calendar-snapshot.js';

/**
 * The labels of `events` of `snapshot`: a delta's from memory (SuggestionIndex.eventLabels), else read
 * (`read`: one statement at the snapshot's version).
 */
export function eventLabelsOf<Label extends SuggestedEventLabel>(
  snapshot: CalendarSnapshot,
  events: readonly number[],
  read: (snapshot: CalendarSnapshot, events: readonly number[]) => Promise<ReadonlyMap<number, Label>>,
): Promise<ReadonlyMap<number, SuggestedEventLabel>> {
  const kept = snapshot.suggestions.eventLabels;
  if (!kept) return read(snapshot, events);
  return Promise.resolve(new Map(events.map((event) => [event, kept[event]!])));
}

/** A suggestion of a layered version: `entity` numbered in `snapshot`, the layer it was found in (a catalogue entity's: the base's when it has it): label it from `snapshot.catalogue`. */
export interface LayeredSuggestion extends FoundSuggestion {
  snapshot: CalendarSnapshot;
}

/** A suggestion across layers: ranked by its label's key (the order of the label ranks of a full build). */
interface KeyRanked extends Ranked<string> {
  snapshot: CalendarSnapshot;
}

/**
 * `findSuggestions` over the layers of a version (layered-snapshot.ts), answering exactly as a full
 * build of that version would. Every event is in one layer (a masked one is unpublished in the base),
 * so: the filter's search phase is decided on both layers; each event suggestion is one layer's (the
 * `limit` best of each, merged); a catalogue entity's hits are the sums of its hits in each layer, its
 * search phase decided on that sum; the typo phase runs when neither layer found anything. A full
 * build orders labels by their rank, the order of their keys (suggestion-index.ts): across layers the
 * keys themselves are compared, an event's made from its label (the delta keeps its events'; the base's
 * few candidates are read: `labelsOf`), a catalogue entity's from its row (the same in both layers unless stale). Each layer
 * numbers entities its own way when the catalogue changed (catalogue-changes.ts): an entity is one by
 * its id, a tag by its name.
 */
export async function findLayeredSuggestions(
  layers: LayeredSnapshot,
  request: Omit<SuggestRequest, 'literal' | 'approximate'>,
  words: LayeredSuggestWords,
  labelsOf: (snapshot: CalendarSnapshot, events: readonly number[]) => Promise<ReadonlyMap<number, SuggestedEventLabel>>,
): Promise<LayeredSuggestion[]> {
  const { bases, delta } = layers;
  if (!delta && bases.length === 1) {
    const base = bases[0]!;
    const found = findSuggestions(base, { ...request, literal: words.literal.bases[0]!, approximate: words.approximate?.bases[0] ?? null });
    return found.map((suggestion) => ({ ...suggestion, snapshot: base }));
  }
  if (request.words.length === 0) return [];
  // Every layer with its request and what of it is left out: a base's masked events and stale catalogue entries.
  const asked = [
    ...bases.map((snapshot, i) => ({
      snapshot,
      request: { ...request, literal: words.literal.bases[i]!, approximate: words.approximate?.bases[i] ?? null },
      masked: layers.maskedIn[i]! > 0 ? maskedEventsOf(snapshot, layers.full.segments[i]!, layers.maskedIn[i]!) : null,
      stale: layers.staleInBases[i]!,
    })),
    ...(delta ? [{ snapshot: delta, request: { ...request, literal: words.literal.delta, approximate: words.approximate?.delta ?? null }, masked: null, stale: null }] : []),
  ];
  let filterPhase: SearchPhase | undefined;
  const decided = () => (filterPhase ??= !words.approximate || asked.some((layer) => hasNode(layer.snapshot, request.queries.filter, layer.request.literal)) ? 'literal' : 'approximate');
  const layerCounters = asked.map((layer) => ({ ...layer, counter: new HitCounter(layer.snapshot, layer.request, { filterPhase: decided, masked: layer.masked }) }));
  const phase = async (typo: boolean): Promise<KeyRanked[]> => {
    const best = new Best<KeyRanked>(request.limit, before);
    // Events: each layer's best, ranked together by their labels' keys (both layers' labels read at once).
    const candidates = layerCounters.map(({ snapshot, counter, request: asked }) => {
      const entries = eventCandidates(snapshot, asked, counter, typo);
      return { snapshot, entries, events: entries.map((entry) => snapshot.suggestions.eventOfRank[entry % INNER]!) };
    });
    const labelled = await Promise.all(
      candidates.map(({ snapshot, events }) => (events.length > 0 ? eventLabelsOf(snapshot, events, labelsOf) : Promise.resolve(new Map<number, SuggestedEventLabel>()))),
    );
    candidates.forEach(({ snapshot, entries, events }, layer) => {
      const labels = labelled[layer]!;
      entries.forEach((entry, i) => {
        const label = labels.get(events[i]!);
        // Read at the snapshot's version: present unless the data changed outside an import.
        if (!label) throw new Error(`event ${snapshot.eventIds[events[i]!]} changed outside an import (data version ${snapshot.version})`);
        best.offer({ quality: entry >= INNER ? 1 : 0, hits: 1, label: eventRankKey(label.slug, label.title_nb, label.title_en), kind: 'EVENT', snapshot, entity: events[i]! });
      });
    });

    // Catalogue entities: one per (kind, id), a tag per name, with its entry in each layer. The base's entries of
    // entities changed since its build are left out (their events are all masked: catalogue-changes.ts).
    const merged = new Map<string, { quality: number; most: number; at: (number | null)[]; kind: number; snapshot: CalendarSnapshot; local: number }>();
    layerCounters.forEach(({ snapshot, counter, request: onLayer, stale }, layer) => {
      const index = snapshot.suggestions;
      const found = catalogueFound(snapshot, onLayer, typo);
      for (let c = 0; c < found.length; c++) {
        if (found[c] === 0) continue;
        const kind = index.catalogueKind[c]!;
        const local = index.catalogueLocal[c]!;
        if (stale && isStale(stale, kind, local)) continue;
        const id = `${kind} ${entityKey(snapshot, kind, local)}`;
        let entity = merged.get(id);
        if (!entity) {
          entity = { quality: found[c]! - 1, most: 0, at: layerCounters.map(() => null), kind, snapshot, local };
          merged.set(id, entity);
        }
        // The labels are the same in every layer: so is the quality.
        entity.quality = Math.min(entity.quality, found[c]! - 1);
        entity.most += counter.most(c);
        entity.at[layer] = c;
      }
    });
    const entities = [...merged.values()].filter((entity) => entity.most > 0).map((entity) => ({ ...entity, label: entityRankKey(entity.snapshot, entity.kind, entity.local) }));
    entities.sort((a, b) => a.quality - b.quality || b.most - a.most || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    const layerCount = (candidate: (typeof entities)[number], searchPhase: SearchPhase) =>
      layerCounters.reduce((total, { counter }, layer) => {
        const c = candidate.at[layer];
        return c === null || c === undefined ? total : total + counter.count(c, searchPhase);
      }, 0);
    for (const candidate of entities) {
      const worst = best.worst;
      // Later candidates have a worse quality, or fewer possible hits, or a later label: none can enter.
      if (best.full && worst && !before({ ...candidate, hits: candidate.most, kind: 'VENUE', entity: 0 }, worst)) break;
      const literal = layerCount(candidate, 'literal');
      const hits = literal > 0 || !words.approximate ? literal : layerCount(candidate, 'approximate');
      if (hits > 0) best.offer({ quality: candidate.quality, hits, label: candidate.label, kind: KIND_NAMES[candidate.kind]!, snapshot: candidate.snapshot, entity: candidate.local });
    }
    return best.list;
  };
  let found = await phase(false);
  if (found.length === 0 && request.words.some((word) => word.length >= TYPO_MIN_UNITS)) found = await phase(true);
  return found.map(({ kind, entity, hits, snapshot }) => ({ kind, entity, hits, snapshot }));
}


/** An entity's identity across layers: the id of a venue, organizer or category (numbered in each layer apart), a tag's name. */
function entityKey(snapshot: CalendarSnapshot, kind: number, local: number): string {
  const { catalogue } = snapshot;
  if (kind === SUGGEST_VENUE) return catalogue.venuesByName[local]!.id;
  if (kind === SUGGEST_ORGANIZER) return catalogue.organizersByName[local]!.id;
  if (kind === SUGGEST_CATEGORY) return catalogue.categories[local]!.id;
  return snapshot.suggestions.tagNames[local]!;
}

function isStale(stale: StaleInBase, kind: number, local: number): boolean {
  if (kind === SUGGEST_VENUE) return stale.venues[local] === 1;
  if (kind === SUGGEST_ORGANIZER) return stale.organizers[local] === 1;
  if (kind === SUGGEST_CATEGORY) return stale.categories[local] === 1;
  return false;
}
