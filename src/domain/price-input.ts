import { BoundedMemo } from './bounded-memo.js';

/**
 * Reads an organizer's stored raw price input as a whole number of kroner, rounded half up.
 *
 * Numbers: non-negative finite values are rounded half up (99.5 → 100, 99.4 → 99); others → null.
 *
 * Strings, case-insensitive, after trimming:
 * - Whitespace of any kind (including no-break spaces U+00A0 and U+202F) counts as a space.
 * - One currency word, before or after the number: `kr`, `kr.`, `kroner`, `NOK`
 *   (`kr 150`, `kr. 150`, `150kr`, `150 NOK`).
 * - One "whole kroner" dash after the number or the trailing word: `,-` `.-` `,–` `,—`
 *   (`150,-`, `150 NOK,-`).
 * - Separators inside the number:
 *   - spaces group thousands (`1 250`), in groups of three;
 *   - when both `.` and `,` appear, the last one is the decimal separator and the other groups
 *     thousands (`1.250,50`, `1,250.50`);
 *   - one kind repeated groups thousands (`1.250.000`);
 *   - a single `.` or `,` after 1-3 digits (not a lone `0`) and before exactly 3 digits groups
 *     thousands (`1.250`, `12,500`) — Norwegian prices rarely carry three decimals;
 *   - any other single `.` or `,` is the decimal separator (`99,50`, `99.5`, `0.500`, `1 250,50`).
 * - Anything that is not exactly one non-negative number gives null: `Gratis`, `fra 100 til 200`,
 *   `100-200`, `100/200`, `-150`, `kr`, `,-`, ``.
 *
 * Rounding works on the decimal digits themselves, so no binary floating-point error can move a
 * value across the half (e.g. `0,49999999999999999` → 0).
 */
export function readPriceInput(raw: string | number | null | undefined): number | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'number') return readPriceNumber(raw);
  return priceByText.remember(raw, readPriceString);
}

/**
 * Prices already read, by their text. A calendar's price texts repeat ("Gratis", "250 kr") and a
 * page of a thousand events reads one or more each: one lookup instead of a normalisation and
 * three regular expressions.
 */
const priceByText = new BoundedMemo<string, number | null>(10_000);

function readPriceNumber(value: number): number | null {
  if (!Number.isFinite(value) || value < 0) return null;
  // Math.round is half up for non-negative values; `+ 0` turns -0 into 0.
  return Math.round(value) + 0;
}

const CURRENCY_WORD = String.raw`(?:kroner|kr\.?|nok)`;
const WHOLE_KRONER_DASH = String.raw`[.,]\s?[-–—]`;
// The number starts and ends with a digit, so a trailing `,` of `,-` is left to the dash.
const NUMBER = String.raw`\d(?:[\d .,]*\d)?`;
const PRICE_SHAPE = new RegExp(
  String.raw`^(?:(?<prefix>${CURRENCY_WORD})\s?)?(?<number>${NUMBER})` +
    String.raw`(?<dash>\s?${WHOLE_KRONER_DASH})?(?:\s?(?<suffix>${CURRENCY_WORD}))?(?<lastDash>\s?${WHOLE_KRONER_DASH})?$`,
  'u',
);

function readPriceString(raw: string): number | null {
  const text = raw.replace(/\s+/gu, ' ').trim().toLowerCase();
  const match = PRICE_SHAPE.exec(text);
  if (!match?.groups) return null;
  const { prefix, number, dash, suffix, lastDash } = match.groups;
  if (number === undefined) return null;
  // One currency word and one dash at most: `kr 150 kr` or `150,- kr,-` is not a clean price.
  if (prefix !== undefined && suffix !== undefined) return null;
  if (dash !== undefined && lastDash !== undefined) return null;
  const decimal = splitNumber(number);
  if (!decimal) return null;
  return roundHalfUp(decimal.integer, decimal.fraction);
}

interface DecimalDigits {
  integer: string;
  fraction: string;
}

const SPACE_GROUPED = /^\d{1,3}(?: \d{3})+$/;

const GROUPED_BY: Record<string, RegExp> = { '.': /^\d{1,3}(?:\.\d{3})+$/, ',': /^\d{1,3}(?:,\d{3})+$/ };

function groupedBy(separator: '.' | ',', digits: string): boolean {
  return GROUPED_BY[separator]!.test(digits);
}

/** Splits a number made of digits, spaces, `.` and `,` into integer and fraction digits. */
function splitNumber(number: string): DecimalDigits | null {
  const lastDot = number.lastIndexOf('.');
  const lastComma = number.lastIndexOf(',');
  let decimalAt = -1;
  let thousands: '.' | ',' | null = null;

  if (lastDot >= 0 && lastComma >= 0) {
    decimalAt = Math.max(lastDot, lastComma);
    thousands = lastDot > lastComma ? ',' : '.';
  } else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ',';
    const count = number.split(separator).length - 1;
    if (count > 1) {
      thousands = separator;
    } else {
      const at = number.indexOf(separator);
      const before = number.slice(0, at);
      const after = number.slice(at + 1);
      if (/^\d{1,3}$/.test(before) && before !== '0' && /^\d{3}$/.test(after)) {
        thousands = separator;
      } else {
        decimalAt = at;
      }
    }
  }

  const integerText = decimalAt >= 0 ? number.slice(0, decimalAt) : number;
  const fraction = decimalAt >= 0 ? number.slice(decimalAt + 1) : '';
  if (!/^\d*$/.test(fraction)) return null;
  if (decimalAt >= 0 && fraction === '') return null;

  const hasSpaces = integerText.includes(' ');
  if (thousands !== null && hasSpaces) return null;
  if (thousands !== null) {
    if (!groupedBy(thousands, integerText)) return null;
    return { integer: integerText.split(thousands).join(''), fraction };
  }
  if (hasSpaces) {
    if (!SPACE_GROUPED.test(integerText)) return null;
    return { integer: integerText.replaceAll(' ', ''), fraction };
  }
  if (!/^\d+$/.test(integerText)) return null;
  return { integer: integerText, fraction };
}

function roundHalfUp(integer: string, fraction: string): number | null {
  const whole = Number(integer);
  const rounded = (fraction[0] ?? '0') >= '5' ? whole + 1 : whole;
  // Beyond 2^53 the digits no longer map to one integer.
  return Number.isSafeInteger(rounded) ? rounded : null;
}
