import { describe, it, expect } from 'vitest';
import { foldedWords, MAX_SEARCH_WORDS, searchWords, typoTolerance } from '../../src/domain/search-term.js';
import { mulberry32 } from '../../src/demo/seeded-random.js';

describe('search term: words', () => {
  it('lowercases, strips accents and drops punctuation', () => {
    expect(searchWords('  Café   Trådløsa!! ')).toEqual(['cafe', 'tradlosa']);
  });

  it('keeps digits and drops a percent sign', () => {
    expect(searchWords('100%')).toEqual(['100']);
  });

  it('turns SQL syntax into plain words', () => {
    expect(searchWords("'; drop table events; --")).toEqual(['drop', 'table', 'events']);
  });

  it('folds Norwegian letters the way unaccent does', () => {
    expect(searchWords('Blåbærsyltetøy')).toEqual(['blabaersyltetoy']);
    expect(searchWords('ÆRLIG ØYE ÅPEN')).toEqual(['aerlig', 'oye', 'apen']);
  });

  it('folds letters NFKD does not decompose', () => {
    expect(searchWords('Straße Œuvre Đakovo Łódź Þór Ðað')).toEqual(['strasse', 'oeuvre', 'dakovo', 'lodz', 'thor', 'dad']);
  });

  it('strips other diacritics', () => {
    expect(searchWords('Über Crème brûlée Señor naïve Ångström São Dvořák')).toEqual([
      'uber',
      'creme',
      'brulee',
      'senor',
      'naive',
      'angstrom',
      'sao',
      'dvorak',
    ]);
  });

  it('handles decomposed input like composed input', () => {
    expect(searchWords('Cafe\u0301 Tra\u030adlo\u0308sa')).toEqual(['cafe', 'tradlosa']);
  });

  it('folds compatibility forms', () => {
    expect(searchWords('ﬁlm ＡＢＣ')).toEqual(['film', 'abc']);
  });

  it('lowercases dotted capital I without leaving a combining dot', () => {
    expect(searchWords('İstanbul')).toEqual(['istanbul']);
  });

  it('treats LIKE wildcards, escapes and quotes as separators', () => {
    expect(searchWords('a_b%c\\d"e\'f`g')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('treats hyphens, slashes and dots as separators', () => {
    expect(searchWords('rock-konsert/jazz.kveld')).toEqual(['rock', 'konsert', 'jazz', 'kveld']);
  });

  it('treats any whitespace as a separator', () => {
    expect(searchWords('jazz\u00a0\tblues\nsoul\u202ffunk')).toEqual(['jazz', 'blues', 'soul', 'funk']);
  });

  it('keeps letters and digits of other scripts', () => {
    expect(searchWords('Москва 東京 ٣')).toEqual(['москва', '東京', '٣']);
  });

  it('keeps letters and digits together within a word', () => {
    expect(searchWords('Mozart250 2026')).toEqual(['mozart250', '2026']);
  });

  it('drops repeated words, keeping the first position', () => {
    expect(searchWords('Jazz jazz JAZZ blues jazz Blues')).toEqual(['jazz', 'blues']);
    expect(searchWords('café cafe CAFÉ')).toEqual(['cafe']);
  });

  it('returns no words for empty, blank or punctuation-only terms', () => {
    expect(searchWords('')).toEqual([]);
    expect(searchWords('   ')).toEqual([]);
    expect(searchWords("%_'\\\"--;")).toEqual([]);
  });

  it('keeps at most eight words', () => {
    expect(MAX_SEARCH_WORDS).toBe(8);
    expect(searchWords('a b c d e f g h i j')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });

  it('counts the cap after removing duplicates', () => {
    expect(searchWords('a a b b c c d d e e f f g g h h i')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });
});

describe('search term: typo tolerance', () => {
  it.each([
    ['', 1],
    ['a', 1],
    ['jazz', 1],
    ['rocks', 1],
    ['konsert', 2],
    ['teater', 2],
    ['東京東京東京', 2],
  ])('allows %j %s edit(s)', (word, expected) => {
    expect(typoTolerance(word)).toBe(expected);
  });

  it('counts characters, not UTF-16 code units', () => {
    expect(typoTolerance('𝒶𝒷𝒸𝒹𝑒')).toBe(1);
  });
});

describe('search term: folding a text unit by unit', () => {
  // The folding as written for a whole text (the rule); foldedWords reads it from a table of units.
  const UNDECOMPOSABLE: Record<string, string> = { ø: 'o', æ: 'ae', ß: 'ss', œ: 'oe', đ: 'd', ł: 'l', ð: 'd', þ: 'th', ı: 'i' };
  const stripMarks = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '');
  const wholeText = (text: string) =>
    stripMarks(stripMarks(text).toLowerCase())
      .replace(/[øæßœđłðþı]/gu, (letter) => UNDECOMPOSABLE[letter]!)
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word !== '');

  it('keeps every word in order, repeats included', () => {
    expect(foldedWords('Konsert – konsert: Øya/Åsane 2026')).toEqual(['konsert', 'konsert', 'oya', 'asane', '2026']);
  });

  it('folds every UTF-16 unit as the whole-text way does, between letters and at a word’s end', () => {
    const wrong: string[] = [];
    for (let code = 0x80; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const unit = String.fromCharCode(code);
      for (const text of [`Ab${unit}c d${unit}`, `${unit}${unit} X`]) {
        if (JSON.stringify(foldedWords(text)) !== JSON.stringify(wholeText(text))) wrong.push(code.toString(16));
      }
    }
    expect(wrong).toEqual([]);
  });

  it('folds random texts of letters, marks, symbols and surrogate pairs as the whole-text way does', () => {
    const random = mulberry32(31);
    const pieces = ['A', 'z', ' ', '-', 'Å', 'ø', 'Σ', 'ς', 'İ', 'ﬁ', '\u0301', '\u0308', '½', '𝒜', '😀', 'Ⅻ', 'ǅ', 'ϴ', 'Ϲ', '\u0345', 'ß', 'ẞ'];
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let k = 0, n = 1 + Math.floor(random() * 8); k < n; k++) text += random() < 0.7 ? pieces[Math.floor(random() * pieces.length)] : String.fromCharCode(0x80 + Math.floor(random() * 0x2f00));
      expect(foldedWords(text), JSON.stringify(text)).toEqual(wholeText(text));
    }
  });

  it('lowercases a final sigma by its neighbours, as the whole text does', () => {
    expect(foldedWords('ΟΔΟΣ ΣΑΣ')).toEqual(['οδος', 'σας']);
  });
});
