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

/** The whole folding of a text, before it is split into words. */
function foldText(text: string): string {
  // Marks are stripped again after lowercasing: `İ` lowercases to `i` plus a combining dot, and
  // compatibility forms (`Ⅻ`) decompose to uppercase letters.
  return stripMarks(stripMarks(text).toLowerCase()).replace(UNDECOMPOSABLE_PATTERN, (letter) => UNDECOMPOSABLE[letter] ?? letter);
}

const WORD_SEPARATOR = /[^\p{L}\p{N}]+/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Each UTF-16 unit folded alone, with ' ' for whatever is not a letter or digit; null when the unit
 * cannot be folded alone (see foldedWords). Filled as units are met: most texts use a few dozen.
 */
const FOLDED_UNITS = new Map<number, string | null>();

function foldedUnit(code: number): string | null {
  let folded = FOLDED_UNITS.get(code);
  if (folded === undefined) {
    const unit = String.fromCharCode(code);
    // Σ lowercases to ς or σ depending on its neighbours (Unicode's Final_Sigma), so does whatever
    // decomposes to it: texts holding one take the whole-text way.
    if (stripMarks(unit).includes('\u03a3')) folded = null;
    else {
      folded = '';
      for (const letter of foldText(unit)) folded += LETTER_OR_DIGIT.test(letter) ? letter : ' ';
    }
    FOLDED_UNITS.set(code, folded);
  }
  return folded;
}

/**
 * Every word of a text, folded as search terms are (see searchWords), in order, repeats kept. The
 * folding is the same unit by unit (NFKD decomposes and lowercasing maps each code point alone; the
 * marks it reorders are dropped), so a text is folded from a table of its units, which is what lets
 * the read model fold every title of a large calendar in its build (a few hundred nanoseconds per
 * title instead of microseconds). Texts with surrogate pairs or a Σ take the whole-text way.
 */
export function foldedWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) word += text[i]!;
      else if (code >= 0x41 && code <= 0x5a) word += String.fromCharCode(code + 0x20);
      else if (word !== '') {
        words.push(word);
        word = '';
      }
      continue;
    }
    const folded = (code & 0xf800) === 0xd800 ? null : foldedUnit(code);
    if (folded === null) return foldText(text).split(WORD_SEPARATOR).filter((w) => w !== '');
    for (let k = 0; k < folded.length; k++) {
      const letter = folded[k]!;
      if (letter !== ' ') word += letter;
      else if (word !== '') {
        words.push(word);
        word = '';
      }
    }
  }
  if (word !== '') words.push(word);
  return words;
}

/**
 * Normalises a free-text search term into words: lowercase, without accents (`å`→`a`, `ø`→`o`,
 * `æ`→`ae`, `é`→`e`), split on anything that is not a Unicode letter or digit (so `%`, `_`, `'`,
 * `\` and quotes never reach a pattern), unique in first-seen order, at most {@link MAX_SEARCH_WORDS}.
 */
export function searchWords(term: string): string[] {
  const words: string[] = [];
  for (const word of foldedWords(term)) {
    if (words.includes(word)) continue;
    words.push(word);
    if (words.length === MAX_SEARCH_WORDS) break;
  }
  return words;
}

/** Edits allowed when matching a word: 1 for words of up to 5 letters, 2 for longer ones. */
export function typoTolerance(word: string): number {
  return [...word].length <= 5 ? 1 : 2;
}
