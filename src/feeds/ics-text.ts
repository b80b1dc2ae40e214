/**
 * RFC 5545 content lines: TEXT escaping (§3.3.11) and line folding (§3.1). Google Calendar drops a
 * whole subscribed feed over one line it cannot read, so every line goes through these two.
 */

/** The longest a line may be, in octets, before its CRLF (RFC 5545 §3.1: "SHOULD NOT be longer than 75 octets"). */
export const MAX_LINE_OCTETS = 75;

/** Anything escapeText changes: most text (ids, names, URLs) has none, and is returned as it is. */
// eslint-disable-next-line no-control-regex -- the control characters are what TEXT escapes or drops.
const NEEDS_ESCAPING = /[\\;,\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * A TEXT value: backslash, semicolon and comma escaped, line breaks written as `\n`, and the other
 * control characters (which TEXT does not allow, tab aside) dropped.
 */
export function escapeText(text: string): string {
  if (!NEEDS_ESCAPING.test(text)) return text;
  return text
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- the control characters TEXT does not allow are dropped.
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/[\\;,\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** Any UTF-16 code unit past ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * One content line, folded so that no line is longer than 75 octets: a fold is CRLF plus one space,
 * and the space counts towards the next line's 75. Folds fall between code points, never inside a
 * UTF-8 sequence (a client that reassembles bytes would otherwise read mojibake), nor inside a
 * surrogate pair. Ends with CRLF. Cut in slices, not built a character at a time: a description
 * is thousands of characters, and a feed holds hundreds.
 */
export function foldLine(line: string): string {
  if (!NON_ASCII.test(line)) {
    // One octet per character: 75 on the first line, 74 after each fold's space.
    if (line.length <= MAX_LINE_OCTETS) return `${line}\r\n`;
    let out = line.slice(0, MAX_LINE_OCTETS);
    for (let at = MAX_LINE_OCTETS; at < line.length; at += MAX_LINE_OCTETS - 1) out += `\r\n ${line.slice(at, at + MAX_LINE_OCTETS - 1)}`;
    return `${out}\r\n`;
  }
  let out = '';
  let octets = 0;
  let sliceStart = 0;
  for (let i = 0; i < line.length; ) {
    const code = line.charCodeAt(i);
    // A surrogate pair is one 4-octet code point; a lone surrogate is written as U+FFFD (3 octets).
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < line.length && (line.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (octets + size > MAX_LINE_OCTETS) {
      out += `${line.slice(sliceStart, i)}\r\n `;
      sliceStart = i;
      octets = 1;
    }
    octets += size;
    i += pair ? 2 : 1;
  }
  return `${out}${line.slice(sliceStart)}\r\n`;
}

/** `NAME;PARAMS:value`, folded; `value` must already be in its value type's form (escape TEXT first). */
export function contentLine(name: string, value: string): string {
  return foldLine(`${name}:${value}`);
}
