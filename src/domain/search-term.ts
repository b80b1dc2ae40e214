/**
 * At most this many words reach the database: each word adds conditions to the search query, so
 * the cap keeps the SQL, its parameters and its cost bounded whatever a client sends.
 */
export const MAX_SEARCH_WORDS = 8;

// Letters NFKD leaves whole; mapped as PostgreSQL's `unaccent` does so both sides compare alike.
const UNDECOMPOSABLE: Readonly<Record<string, string>> = {
  ø: 'o',
  æ: 'ae',
  ß: 'ss',
  œ: 'oe',
  đ: 'd',
  ł: 'l',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
const UNDECOMPOSABLE_PATTERN = new RegExp(`[${Object.keys(UNDECOMPOSABLE).join('')}]`, 'gu');

function stripMarks(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '');
}

/**
 * Normalises a free-text search term into words: lowercase, without accents (`å`→`a`, `ø`→`o`,
 * `æ`→`ae`, `é`→`e`), split on anything that is not a Unicode letter or digit (so `%`, `_`, `'`,
 * `\` and quotes never reach a pattern), unique in first-seen order, at most {@link MAX_SEARCH_WORDS}.
 */
export function searchWords(term: string): string[] {
  // Marks are stripped again after lowercasing: `İ` lowercases to `i` plus a combining dot, and
  // compatibility forms (`Ⅻ`) decompose to uppercase letters.
  const folded = stripMarks(stripMarks(term).toLowerCase()).replace(
    UNDECOMPOSABLE_PATTERN,
    (letter) => UNDECOMPOSABLE[letter] ?? letter,
  );
  const words: string[] = [];
  for (const word of folded.split(/[^\p{L}\p{N}]+/u)) {
    if (word === '' || words.includes(word)) continue;
    words.push(word);
    if (words.length === MAX_SEARCH_WORDS) break;
  }
  return words;
}

/** Edits allowed when matching a word: 1 for words of up to 5 letters, 2 for longer ones. */
export function typoTolerance(word: string): number {
  return [...word].length <= 5 ? 1 : 2;
}
