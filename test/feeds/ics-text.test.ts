import { describe, expect, it } from 'vitest';
import { escapeText, foldLine } from '../../src/feeds/ics-text.js';
import { osloDateTimeProperty } from '../../src/feeds/oslo-ical-time.js';

const unfold = (folded: string) => folded.replace(/\r\n /g, '').replace(/\r\n$/, '');
const lines = (folded: string) => folded.slice(0, -2).split('\r\n');

describe('iCalendar text: folding', () => {
  it('folds at 75 octets, the leading space of a continuation counted', () => {
    const folded = foldLine(`DESCRIPTION:${'a'.repeat(200)}`);
    expect(lines(folded).map((line) => Buffer.byteLength(line))).toEqual([75, 75, 1 + (212 - 75 - 74)]);
    expect(unfold(folded)).toBe(`DESCRIPTION:${'a'.repeat(200)}`);
  });

  it('never folds inside a UTF-8 sequence or a surrogate pair', () => {
    // 'SUMMARY:' is 8 octets; then 2-, 3- and 4-octet characters, so the 75th octet falls inside one.
    for (const char of ['ø', '€', '🎻']) {
      for (let pad = 0; pad < 4; pad++) {
        const line = `SUMMARY:${'x'.repeat(pad)}${char.repeat(60)}`;
        const folded = foldLine(line);
        for (const part of lines(folded)) {
          expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
          // Each line is whole characters: decoding its bytes gives it back unchanged.
          expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
          expect(part.includes('\uFFFD')).toBe(false);
        }
        expect(unfold(folded)).toBe(line);
      }
    }
  });

  it('folds every string as a walk over its code points would, escaping alike with or without anything to escape', () => {
    // The plain definitions, one code point at a time: what the sliced and short-cut versions must equal.
    const referenceFold = (line: string) => {
      let out = '';
      let octets = 0;
      for (const char of line) {
        const size = Buffer.byteLength(char);
        if (octets + size > 75) {
          out += '\r\n ';
          octets = 1;
        }
        out += char;
        octets += size;
      }
      return `${out}\r\n`;
    };
    const referenceEscape = (text: string) =>
      text
        .replace(/\r\n?/g, '\n')
        // eslint-disable-next-line no-control-regex -- the reference drops the control characters TEXT does not allow.
        .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
        .replace(/[\\;,\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
    const alphabet = ['a', 'Z', ' ', ',', ';', '\\', '\n', '\r', '\t', '\u0007', 'ø', 'Å', '€', '🎻', '\ud800', '\udc00'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 2000; round++) {
      const length = Math.floor(next() * 300);
      // Half the rounds plain ASCII letters (the short cuts), half from the whole alphabet.
      const letters = round % 2 === 0 ? alphabet.slice(0, 3) : alphabet;
      let text = '';
      for (let i = 0; i < length; i++) text += letters[Math.floor(next() * letters.length)]!;
      expect(escapeText(text)).toBe(referenceEscape(text));
      const line = `DESCRIPTION:${escapeText(text)}`;
      const folded = foldLine(line);
      expect(folded).toBe(referenceFold(line));
      for (const part of lines(folded)) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
      expect(unfold(folded)).toBe(line);
    }
  });

  it('escapes backslash, semicolon, comma and line breaks, and drops control characters', () => {
    expect(escapeText('a\\b;c,d\r\ne\nf\rg\u0007h\ti')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng' + 'h\ti');
  });
});

describe('iCalendar time: Oslo wall clock', () => {
  it('writes Oslo local time with TZID, summer and winter', () => {
    expect(osloDateTimeProperty('DTSTART', new Date('2026-07-01T17:00:00Z'))).toBe('DTSTART;TZID=Europe/Oslo:20260701T190000');
    expect(osloDateTimeProperty('DTEND', new Date('2026-12-01T17:00:00Z'))).toBe('DTEND;TZID=Europe/Oslo:20261201T180000');
  });

  it('writes the hour the clocks read twice in UTC, both passes, and the hours around it in Oslo time', () => {
    expect(osloDateTimeProperty('DTSTART', new Date('2026-10-24T23:59:00Z'))).toBe('DTSTART;TZID=Europe/Oslo:20261025T015900');
    expect(osloDateTimeProperty('DTSTART', new Date('2026-10-25T00:00:00Z'))).toBe('DTSTART:20261025T000000Z');
    expect(osloDateTimeProperty('DTSTART', new Date('2026-10-25T01:59:00Z'))).toBe('DTSTART:20261025T015900Z');
    expect(osloDateTimeProperty('DTSTART', new Date('2026-10-25T02:00:00Z'))).toBe('DTSTART;TZID=Europe/Oslo:20261025T030000');
    // Spring: 02:00–02:59 does not exist; 01:59 and 03:00 are one minute apart.
    expect(osloDateTimeProperty('DTSTART', new Date('2026-03-29T00:59:00Z'))).toBe('DTSTART;TZID=Europe/Oslo:20260329T015900');
    expect(osloDateTimeProperty('DTSTART', new Date('2026-03-29T01:00:00Z'))).toBe('DTSTART;TZID=Europe/Oslo:20260329T030000');
  });
});
