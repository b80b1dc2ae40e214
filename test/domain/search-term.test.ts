import { describe, it, expect } from 'vitest';
import { MAX_SEARCH_WORDS, searchWords, typoTolerance } from '../../src/domain/search-term.js';

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
