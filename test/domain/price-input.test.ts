import { describe, it, expect } from 'vitest';
import { readPriceInput } from '../../src/domain/price-input.js';

describe('price input: numbers', () => {
  it.each([
    [0, 0],
    [150, 150],
    [99.4, 99],
    [99.5, 100],
    [99.49, 99],
    [0.5, 1],
    [0.49999999999999994, 0],
    [1250.5, 1251],
    [-0, 0],
  ])('reads %s as %s', (raw, expected) => {
    expect(readPriceInput(raw)).toBe(expected);
  });

  it('returns exactly 0, not -0, for negative zero', () => {
    expect(Object.is(readPriceInput(-0), 0)).toBe(true);
  });

  it.each([
    ['a negative number', -1],
    ['a small negative number', -0.4],
    ['NaN', Number.NaN],
    ['infinity', Number.POSITIVE_INFINITY],
  ])('rejects %s', (_, raw) => {
    expect(readPriceInput(raw)).toBeNull();
  });

  it('reads null and undefined as no price', () => {
    expect(readPriceInput(null)).toBeNull();
    expect(readPriceInput(undefined)).toBeNull();
  });
});

describe('price input: plain strings', () => {
  it.each([
    ['150', 150],
    ['0', 0],
    ['  150  ', 150],
    ['\t150\n', 150],
    ['0150', 150],
  ])('reads %j as %s', (raw, expected) => {
    expect(readPriceInput(raw)).toBe(expected);
  });
});

describe('price input: decimals round half up', () => {
  it.each([
    ['99,50', 100],
    ['99,5', 100],
    ['99.5', 100],
    ['99.50', 100],
    ['99,49', 99],
    ['99.4', 99],
    ['99,99', 100],
    ['0,5', 1],
    ['0,49', 0],
    ['0.500', 1],
    ['0,49999999999999999', 0],
    ['1234.567', 1235],
    ['1.2345', 1],
    ['12,5000', 13],
  ])('reads %j as %s', (raw, expected) => {
    expect(readPriceInput(raw)).toBe(expected);
  });
});

describe('price input: thousands separators', () => {
  it.each([
    ['1 250', 1250],
    ['1\u00a0250', 1250],
    ['1\u202f250', 1250],
    ['1  250', 1250],
    ['1 250 000', 1250000],
    ['1.250', 1250],
    ['1,250', 1250],
    ['12.500', 12500],
    ['123,456', 123456],
    ['1.250.000', 1250000],
    ['1,250,000', 1250000],
    ['1.250,50', 1251],
    ['1,250.50', 1251],
    ['1.250,49', 1250],
    ['1.250.000,5', 1250001],
    ['1 250,50', 1251],
    ['1 250.50', 1251],
    ['1 250.500', 1251],
  ])('reads %j as %s', (raw, expected) => {
    expect(readPriceInput(raw)).toBe(expected);
  });
});

describe('price input: currency words and whole-kroner dashes', () => {
  it.each([
    ['kr 150', 150],
    ['Kr 150', 150],
    ['KR 150', 150],
    ['kr150', 150],
    ['kr. 150', 150],
    ['kr.150', 150],
    ['150 kr', 150],
    ['150kr', 150],
    ['150 KR', 150],
    ['150 kr.', 150],
    ['150 kroner', 150],
    ['kroner 150', 150],
    ['NOK 150', 150],
    ['nok 150', 150],
    ['150 NOK', 150],
    ['150NOK', 150],
    ['150,-', 150],
    ['150,–', 150],
    ['150,—', 150],
    ['150.-', 150],
    ['150 ,-', 150],
    ['150, -', 150],
    ['150 NOK,-', 150],
    ['150 kr,-', 150],
    ['150 kr.-', 150],
    ['150,- kr', 150],
    ['kr 150,-', 150],
    ['kr\u00a0150', 150],
    ['150\u00a0kr', 150],
    ['1 250,50 kr', 1251],
    ['1\u00a0250,50\u00a0kr', 1251],
    ['kr 1.250,-', 1250],
    ['NOK 1,250.50', 1251],
    ['  kr 99,50  ', 100],
    ['0,-', 0],
  ])('reads %j as %s', (raw, expected) => {
    expect(readPriceInput(raw)).toBe(expected);
  });
});

describe('price input: what is not exactly one number', () => {
  it.each([
    ['Gratis'],
    ['gratis'],
    ['fra 100 til 200'],
    ['fra 100'],
    ['100-200'],
    ['100–200'],
    ['100 - 200'],
    ['100/200'],
    ['100 eller 200'],
    [''],
    ['   '],
    ['\u00a0'],
    ['abc'],
    ['kr'],
    ['NOK'],
    [',-'],
    ['kr ,-'],
    ['-150'],
    ['−150'],
    ['+150'],
    ['150 kr kr'],
    ['kr 150 kr'],
    ['NOK 150 kr'],
    ['150,-,-'],
    ['150,- kr,-'],
    ['150 $'],
    ['€150'],
    ['150 €'],
    ['150 USD'],
    ['150kr pr. person'],
    ['ca. 150'],
    ['150,'],
    ['150.'],
    [',50'],
    ['.5'],
    ['1,2,3'],
    ['1.250.00'],
    ['12.34.567'],
    ['1.25.000'],
    ['1.250,000.5'],
    ['1,2.5'],
    ['1 25'],
    ['1 2500'],
    ['12 5,5'],
    ['1 250.000,50'],
    ['1.250 000'],
    ['99,5 0'],
    ['1e3'],
    ['0x10'],
    ['Infinity'],
    ['150 kr-'],
    ['150-'],
    ['99999999999999999999'],
  ])('rejects %j', (raw) => {
    expect(readPriceInput(raw)).toBeNull();
  });
});
