import { sql, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/database.js';
import { typoTolerance } from '../../domain/search-term.js';
import { eventIndexOf, type CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import type { LayeredSnapshot } from '../layers/layered-snapshot.js';
import { readAtSnapshotVersion } from '../records/read-at-version.js';
import { segmentOfId } from '../segments/event-segments.js';

/** A search phase: literal substring matching, or approximate matching of titles and descriptions. */
export type SearchMode = 'literal' | 'approximate';

/**
 * What one search word matches in one snapshot: events (by their own text, an organizer's or a
 * listed category's name) and venues (by name; a date matches through its own venue).
 */
export interface WordMatch {
  events: Uint8Array;
  venues: Uint8Array;
}

/** Memory the kept matches of one snapshot may take (one byte per event and venue per word). */
const KEPT_MATCH_BYTES = 64 * 1024 * 1024;

/** Per snapshot (keyed by it, gone with it): a word's matches hold for one data version only. */
const keptMatches = new WeakMap<CalendarSnapshot, LRUCache<string, Promise<WordMatch>>>();

/**
 * The matches of a word in a snapshot, kept per (snapshot, phase, word): the event texts are searched
 * by PostgreSQL's trigram index once, the catalogue names (a few thousand) in memory. Throws
 * DataVersionMoved when the database already holds a newer version than the snapshot.
 */
export function wordMatch(db: Kysely<Database>, snapshot: CalendarSnapshot, word: string, mode: SearchMode): Promise<WordMatch> {
  let kept = keptMatches.get(snapshot);
  if (!kept) {
    const perWord = Math.max(1, snapshot.eventIds.length + snapshot.venueIds.length);
    // Bounded by size, not by a count: a count bound is allocated up front, and for a small calendar
    // (millions of words' worth) that took seconds of the main thread at its first search.
    kept = new LRUCache({ maxSize: KEPT_MATCH_BYTES, sizeCalculation: () => perWord });
    keptMatches.set(snapshot, kept);
  }
  const key = `${mode} ${word}`;
  let match = kept.get(key);
  if (!match) {
    match = computeWordMatch(db, snapshot, word, mode);
    kept.set(key, match);
    const cache = kept;
    // A failure (database unavailable, version moved) is not kept.
    match.catch(() => cache.delete(key));
  }
  return match;
}

/** Every word's matches (`wordMatch`), in the words' order. */
export function wordMatches(db: Kysely<Database>, snapshot: CalendarSnapshot, words: readonly string[], mode: SearchMode): Promise<WordMatch[]> {
  return Promise.all(words.map((word) => wordMatch(db, snapshot, word, mode)));
}

/** A search word's matches in each layer of a version: one per base (in the bases' order) and the delta's. */
export interface LayeredWordMatch {
  bases: WordMatch[];
  delta: WordMatch | null;
}

/**
 * The matches of a word in each layer of a version (layered-snapshot.ts), from one statement: an id
 * the delta holds is the delta's, any other its segment's base's (a masked one is unpublished there).
 * Kept per (bases of the version, phase, word), as `wordMatch` keeps them.
 */
export function layeredWordMatch(db: Kysely<Database>, layers: LayeredSnapshot, word: string, mode: SearchMode): Promise<LayeredWordMatch> {
  const { bases, delta } = layers;
  if (!delta && bases.length === 1) return wordMatch(db, bases[0]!, word, mode).then((base) => ({ bases: [base], delta: null }));
  let kept = keptLayeredMatches.get(bases);
  if (!kept) {
    const perWord = Math.max(1, bases.reduce((n, base) => n + base.eventIds.length + base.venueIds.length, 0) + (delta ? delta.eventIds.length + delta.venueIds.length : 0));
    kept = new LRUCache({ maxSize: KEPT_MATCH_BYTES, sizeCalculation: () => perWord });
    keptLayeredMatches.set(bases, kept);
  }
  const key = `${mode} ${word}`;
  let match = kept.get(key);
  if (!match) {
    match = (async () => {
      const rows = await textMatchRows(db, bases[0]!, word, mode, bases.length - 1);
      const inDelta: string[] = [];
      const inBases: string[][] = bases.map(() => []);
      for (const { id, segment } of rows) (delta && eventIndexOf(delta, id) >= 0 ? inDelta : inBases[segment]!).push(id);
      return { bases: bases.map((base, i) => matchesOf(base, inBases[i]!, word, mode)), delta: delta && matchesOf(delta, inDelta, word, mode) };
    })();
    kept.set(key, match);
    const cache = kept;
    match.catch(() => cache.delete(key));
  }
  return match;
}

const keptLayeredMatches = new WeakMap<readonly CalendarSnapshot[], LRUCache<string, Promise<LayeredWordMatch>>>();

/** The ids of the events whose text matches the word, read at the snapshot's version. */
async function textMatchIds(db: Kysely<Database>, snapshot: CalendarSnapshot, word: string, mode: SearchMode): Promise<string[]> {
  return (await textMatchRows(db, snapshot, word, mode, 0)).map((row) => row.id);
}

/** textMatchIds, each id with its segment of a full build of `segmentMask` + 1 segments (event-segments.ts). */
async function textMatchRows(db: Kysely<Database>, snapshot: CalendarSnapshot, word: string, mode: SearchMode, segmentMask: number): Promise<{ id: string; segment: number }[]> {
  const textMatches = mode === 'literal' ? literalTextMatches(word, segmentMask) : approximateTextMatches(word, segmentMask);
  const rows = await readAtSnapshotVersion(snapshot, async () => (await textMatches.execute(db)).rows);
  return rows.flatMap((row) => (row.id == null ? [] : [{ id: row.id, segment: Number(row.segment ?? 0) }]));
}

async function computeWordMatch(db: Kysely<Database>, snapshot: CalendarSnapshot, word: string, mode: SearchMode): Promise<WordMatch> {
  return matchesOf(snapshot, await textMatchIds(db, snapshot, word, mode), word, mode);
}

/** A word's matches in a snapshot: the events of `ids` (their text matched), and, literally, through the names it holds. */
function matchesOf(snapshot: CalendarSnapshot, ids: readonly string[], word: string, mode: SearchMode): WordMatch {
  const events = new Uint8Array(snapshot.eventIds.length);
  const venues = new Uint8Array(snapshot.venueIds.length);
  for (const id of ids) {
    const event = eventIndexOf(snapshot, id);
    if (event >= 0) events[event] = 1;
  }
  if (mode === 'approximate') return { events, venues };

  // Literal matches also come through names held in the snapshot.
  const organizers = snapshot.organizerFoldedNames.map((name) => name.includes(word));
  const categories = snapshot.categoryFoldedNames.map((name) => name !== '' && name.includes(word));
  const { eventOrganizers, eventCategories } = snapshot;
  for (let e = 0; e < events.length; e++) {
    if (events[e] === 1) continue;
    for (let k = eventOrganizers.offsets[e]!; k < eventOrganizers.offsets[e + 1]!; k++) if (organizers[eventOrganizers.values[k]!]) events[e] = 1;
    for (let k = eventCategories.offsets[e]!; k < eventCategories.offsets[e + 1]!; k++) if (categories[eventCategories.values[k]!]) events[e] = 1;
  }
  snapshot.venueFoldedNames.forEach((name, v) => {
    if (name.includes(word)) venues[v] = 1;
  });
  return { events, venues };
}

interface MatchRow {
  version: string | number;
  id: string | null;
  segment: number | null;
}

/**
 * Events whose folded text contains the word (trigram index), with the data version of the same
 * statement: a row per event, or one row without an id when none matches. Words are letters and
 * digits only (see searchWords) and bound as parameters, never spliced into SQL.
 */
function literalTextMatches(word: string, segmentMask: number) {
  return sql<MatchRow>`
    select cs.version, se.id, ${segmentOfId('se.id', segmentMask)} as segment from calendar_state cs
    left join events se on se.search_text like ${`%${word}%`}`;
}

/**
 * Events whose text contains a dictionary word within the typing tolerance of the word: one error
 * for words of up to 5 letters, two for longer ones (trigram index, then Levenshtein).
 */
function approximateTextMatches(word: string, segmentMask: number) {
  const tolerance = typoTolerance(word);
  return sql<MatchRow>`
    select cs.version, near.id, ${segmentOfId('near.id', segmentMask)} as segment from calendar_state cs
    left join (
      select distinct se.id from search_words sw
      join events se on se.search_text like '%' || sw.word || '%'
      where sw.word operator(public.%) ${word} and public.levenshtein_less_equal(sw.word, ${word}, ${tolerance}) <= ${tolerance}
    ) near on true`;
}
