/**
 * Remembered results of a pure function, at most `max` of them: the one cache of computed values the
 * service keeps per process (Oslo timestamps and offsets, iCalendar times, prices read from text,
 * import timestamps, compiled record statements). Not for anything whose value can change: nothing
 * here ever expires.
 *
 * The bound: the keys come from data (instants, price texts, file timestamps) and from callers
 * (column selections), so without one a long-running process would keep every value it ever
 * computed. Each user sets `max` a little above its working set (the distinct keys of a large
 * answer, a page, a file), so that a full memo is a sign that the keys no longer repeat.
 *
 * The eviction rule: when full, it is emptied at once, then refills. A hit costs one lookup and
 * nothing else, where an LRU would reorder an entry on every hit (a delete and a set), and these
 * memos sit on the hottest paths (every timestamp of every answer); the price of emptying is that
 * the working set is computed once more per `max` distinct keys, which a pure function allows.
 * Values are never `undefined` (that is "absent"); `null` is a fine value.
 */
export class BoundedMemo<Key, Value> {
  private readonly table = new Map<Key, Value>();
  /** `textKeys`: a dictionary object instead of the Map (see BoundedMemoOptions). */
  private dictionary: Record<string, Value> | null;
  private dictionarySize = 0;

  constructor(
    private readonly max: number,
    options: BoundedMemoOptions = {},
  ) {
    this.dictionary = options.textKeys ? newDictionary<Value>() : null;
  }

  /** The value remembered for `key`, else `compute(key)`, remembered. Pass a function made once, not a closure per call, on hot paths. */
  remember(key: Key, compute: (key: Key) => Value): Value {
    const dictionary = this.dictionary;
    if (dictionary !== null) return this.rememberText(dictionary, key as string, compute as unknown as (key: string) => Value);
    let value = this.table.get(key);
    if (value === undefined) {
      value = compute(key);
      if (this.table.size >= this.max) this.table.clear();
      this.table.set(key, value);
    }
    return value;
  }

  private rememberText(dictionary: Record<string, Value>, key: string, compute: (key: string) => Value): Value {
    let value = dictionary[key];
    if (value === undefined) {
      value = compute(key);
      if (this.dictionarySize >= this.max) this.clear();
      this.dictionary![key] = value;
      this.dictionarySize++;
    }
    return value;
  }

  /** Forgets everything (a value set that is done with, such as an import's timestamps). */
  clear(): void {
    this.table.clear();
    if (this.dictionary !== null) {
      this.dictionary = newDictionary<Value>();
      this.dictionarySize = 0;
    }
  }

  /** How many values are remembered now. */
  get size(): number {
    return this.dictionary !== null ? this.dictionarySize : this.table.size;
  }
}

export interface BoundedMemoOptions {
  /**
   * The keys are strings that arrive as separate copies of equal text (JSON.parse gives each
   * occurrence a string of its own): keep them in a dictionary object rather than a Map. V8
   * internalizes a property key, so after its first lookup a copy compares by pointer; a Map hashes
   * and compares each copy's characters (bench/memo-hot-paths.ts: readImportTimestamp 2.7 times as
   * slow on a Map). @default false
   */
  textKeys?: boolean | undefined;
}

function newDictionary<Value>(): Record<string, Value> {
  return Object.create(null) as Record<string, Value>;
}
