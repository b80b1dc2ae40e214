// Strings and comments are skipped whole; braces are counted; a definition keyword counts only at depth 0.
const TOKENS = /"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n\r]*|[{}]|\b(?:query|mutation|subscription)\s+([_A-Za-z]\w*)/g;

/**
 * The name of the first named operation of a document, read without a GraphQL parser (none ships to
 * the browser). Only top-level definitions count, so a field called `query` in a fragment does not.
 * Undefined for an anonymous operation.
 */
export function operationName(text: string): string | undefined {
  let depth = 0;
  for (const match of text.matchAll(TOKENS)) {
    if (match[0] === '{') depth += 1;
    else if (match[0] === '}') depth -= 1;
    else if (depth === 0 && match[1]) return match[1];
  }
  return undefined;
}
