import { firstWhere } from '../first-where.js';
import { GrowingColumn } from '../snapshot/growing-column.js';

/**
 * Folded words mapped to the entities whose labels hold them, for prefix lookups: the unique words
 * sorted by code unit and packed into one array of UTF-16 units (no string per word on the heap: a
 * million events hold a few hundred thousand distinct words), and each word's entries stored next
 * to those of the words that follow it, so that every word starting with a prefix is one contiguous
 * run of words, and their entries one contiguous run of entries.
 */
export interface WordIndex {
  /** Word w is units[starts[w] .. starts[w + 1]). */
  units: Uint16Array;
  starts: Uint32Array;
  /** Word w's entries are entries[entryOffsets[w] .. entryOffsets[w + 1]). */
  entryOffsets: Uint32Array;
  /**
   * `inner * 2^31 + entity`, ascending within each word: inner is 1 when the word begins none of the
   * entity's labels (see WordIndexBuilder), so a word's entries that begin a label come first, each
   * group by entity number.
   */
  entries: Uint32Array;
}

/** The inner bit of an entry. */
export const INNER = 0x80000000;

/** The entity of an entry. */
export function entryEntity(entry: number): number {
  return entry % INNER;
}

/** A run of words [from, to) of a WordIndex. */
export interface WordRun {
  from: number;
  to: number;
}

/** How word w compares with `prefix` cut to the prefix's length: <0 before every word starting with it, 0 starting with it, >0 after. */
function compareToPrefix(index: WordIndex, w: number, prefix: string): number {
  const { units, starts } = index;
  const start = starts[w]!;
  const length = starts[w + 1]! - start;
  const common = Math.min(length, prefix.length);
  for (let k = 0; k < common; k++) {
    const difference = units[start + k]! - prefix.charCodeAt(k);
    if (difference !== 0) return difference;
  }
  // Equal over the shorter: a word shorter than the prefix comes before the words that start with it.
  return length < prefix.length ? -1 : 0;
}

/** The run of words that start with `prefix`, searched within `within` (a run known to hold it). */
export function prefixRun(index: WordIndex, prefix: string, within: WordRun = { from: 0, to: index.starts.length - 1 }): WordRun {
  const from = firstWhere(within.from, within.to, (w) => compareToPrefix(index, w, prefix) >= 0);
  const to = firstWhere(from, within.to, (w) => compareToPrefix(index, w, prefix) > 0);
  return { from, to };
}

/** The unit at `position` of word w, -1 when the word is not that long. */
function unitAt(index: WordIndex, w: number, position: number): number {
  const start = index.starts[w]!;
  return position < index.starts[w + 1]! - start ? index.units[start + position]! : -1;
}

/** One edit (Damerau–Levenshtein) needs a word this long at least: shorter ones would match nearly anything. */
export const TYPO_MIN_UNITS = 4;

/**
 * The runs of words that start with a string within one edit of `word` (a unit wrong, missing, extra,
 * or two neighbours swapped), the word's own included: the words one typo away from being typed as
 * `word` so far. Units that could replace or be inserted are read from the index itself (the units
 * that follow each prefix of the word there), so nothing is tried that no word has. Disjoint, in
 * word order.
 */
export function oneEditRuns(index: WordIndex, word: string): WordRun[] {
  const runs: WordRun[] = [];
  const add = (text: string, within?: WordRun) => {
    const run = prefixRun(index, text, within);
    if (run.to > run.from) runs.push(run);
  };
  add(word);
  const n = word.length;
  for (let i = 0; i < n; i++) add(word.slice(0, i) + word.slice(i + 1));
  for (let i = 0; i + 1 < n; i++) {
    if (word[i] !== word[i + 1]) add(word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2));
  }
  // Replacing the unit at i, or inserting one before it: every unit x that follows word[0..i) in some word.
  for (let i = 0; i <= n; i++) {
    const head = word.slice(0, i);
    const headRun = prefixRun(index, head);
    let w = headRun.from;
    // Words equal to the head itself have no unit at i.
    while (w < headRun.to && unitAt(index, w, i) < 0) w++;
    while (w < headRun.to) {
      const x = String.fromCharCode(unitAt(index, w, i));
      const withX = prefixRun(index, head + x, { from: w, to: headRun.to });
      if (i < n && x !== word[i]) add(head + x + word.slice(i + 1), withX);
      add(head + x + word.slice(i), withX);
      w = withX.to;
    }
  }
  // Runs of prefixes are nested or disjoint: keep the outermost.
  runs.sort((a, b) => a.from - b.from || b.to - a.to);
  const disjoint: WordRun[] = [];
  for (const run of runs) {
    const last = disjoint[disjoint.length - 1];
    if (last && run.from < last.to) continue;
    disjoint.push(run);
  }
  return disjoint;
}

/**
 * Collects (word, entity) entries, then sorts the words once. Entities are numbers of the caller's;
 * each entity's labels are given at once.
 */
export class WordIndexBuilder {
  private readonly wordIds = new Map<string, number>();
  private readonly words: string[] = [];
  private readonly entryWords = new GrowingColumn(new Uint32Array(0), (n) => new Uint32Array(n));
  private readonly entryValues = new GrowingColumn(new Uint32Array(0), (n) => new Uint32Array(n));

  /**
   * The words of one entity's labels (each label as its folded words): each distinct word once, marked
   * inner unless it is the first word of one of the labels.
   */
  add(entity: number, labels: readonly (readonly string[])[]): void {
    const seen: string[] = [];
    const inner: number[] = [];
    for (const words of labels) {
      words.forEach((word, position) => {
        const at = seen.indexOf(word);
        if (at < 0) {
          seen.push(word);
          inner.push(position === 0 ? 0 : 1);
        } else if (position === 0) inner[at] = 0;
      });
    }
    seen.forEach((word, k) => {
      let id = this.wordIds.get(word);
      if (id === undefined) {
        id = this.words.length;
        this.wordIds.set(word, id);
        this.words.push(word);
      }
      this.entryWords.push(id);
      this.entryValues.push(inner[k]! * INNER + entity);
    });
  }

  /** The index, entities renumbered by `renumber` (entity → its number in the index). */
  build(renumber: (entity: number) => number = (entity) => entity): WordIndex {
    const words = this.words;
    const order = Array.from(words.keys()).sort((a, b) => (words[a]! < words[b]! ? -1 : words[a]! > words[b]! ? 1 : 0));
    const rankOfWord = new Uint32Array(words.length);
    order.forEach((id, rank) => (rankOfWord[id] = rank));
    const starts = new Uint32Array(words.length + 1);
    order.forEach((id, rank) => (starts[rank + 1] = starts[rank]! + words[id]!.length));
    const units = new Uint16Array(starts[words.length]!);
    order.forEach((id, rank) => {
      const word = words[id]!;
      for (let k = 0; k < word.length; k++) units[starts[rank]! + k] = word.charCodeAt(k);
    });
    // A counting sort of the entries by their word's rank.
    const count = this.entryWords.length;
    const entryWords = this.entryWords.array;
    const entryValues = this.entryValues.array;
    const entryOffsets = new Uint32Array(words.length + 1);
    for (let k = 0; k < count; k++) {
      const slot = rankOfWord[entryWords[k]!]! + 1;
      entryOffsets[slot] = entryOffsets[slot]! + 1;
    }
    for (let w = 0; w < words.length; w++) entryOffsets[w + 1] = entryOffsets[w + 1]! + entryOffsets[w]!;
    const next = entryOffsets.slice(0, words.length);
    const entries = new Uint32Array(count);
    for (let k = 0; k < count; k++) {
      const value = entryValues[k]!;
      const rank = rankOfWord[entryWords[k]!]!;
      entries[next[rank]!] = (value >= INNER ? INNER : 0) + renumber(value % INNER);
      next[rank] = next[rank]! + 1;
    }
    for (let w = 0; w < words.length; w++) entries.subarray(entryOffsets[w], entryOffsets[w + 1]).sort();
    return { units, starts, entryOffsets, entries };
  }
}

/** Bytes held by an index's arrays. */
export function wordIndexBytes(index: WordIndex): number {
  return index.units.byteLength + index.starts.byteLength + index.entryOffsets.byteLength + index.entries.byteLength;
}
