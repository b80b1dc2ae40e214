/**
 * RFC 5545 content lines: TEXT escaping (§3.3.11) and line folding (§3.1). Google Calendar drops a
 * whole subscribed feed over one line it cannot read, so every line goes through these two.
 */

/** The longest a line may be, in octets, before its CRLF (RFC 5545 §3.1: "SHOULD NOT be longer than 75 octets"). */
export const MAX_LINE_OCTETS = 75;

/**
 * A TEXT value: backslash, semicolon and comma escaped, line breaks written as `\n`, and the other
 * control characters (which TEXT does not allow, tab aside) dropped.
 */
export function escapeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/[\\;,\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** UTF-8 length of one code point. */
function octetsOf(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/**
 * One content line, folded so that no line is longer than 75 octets: a fold is CRLF plus one space,
 * and the space counts towards the next line's 75. Folds fall between code points, never inside a
 * UTF-8 sequence (a client that reassembles bytes would otherwise read mojibake), nor inside a
 * surrogate pair. Ends with CRLF.
 */
export function foldLine(line: string): string {
  // Most lines are short ASCII: nothing to count.
  if (line.length <= MAX_LINE_OCTETS && !/[^\u0000-\u007f]/.test(line)) return `${line}\r\n`;
  let out = '';
  let octets = 0;
  for (const char of line) {
    const size = octetsOf(char.codePointAt(0)!);
    if (octets + size > MAX_LINE_OCTETS) {
      out += '\r\n ';
      octets = 1;
    }
    out += char;
    octets += size;
  }
  return `${out}\r\n`;
}

/** `NAME;PARAMS:value`, folded; `value` must already be in its value type's form (escape TEXT first). */
export function contentLine(name: string, value: string): string {
  return foldLine(`${name}:${value}`);
}
