import { Kind, parse, type DocumentNode } from 'graphql';
import { loadPersistedDocuments } from '../trusted-documents.js';

/** The label of a GraphQL request whose document names no operation (or that never got as far as one). */
export const ANONYMOUS_OPERATION = '(anonymous)';
/** The label of every named operation past the cap. */
export const OTHER_OPERATION = '(other)';
/** Names besides the trusted documents' that get a label of their own, first come first served. */
export const MAX_OTHER_OPERATION_NAMES = 50;

function operationNames(document: DocumentNode): string[] {
  return document.definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION && definition.name ? [definition.name.value] : []));
}

/** The operation names of the trusted documents (queries/*.graphql, as the persisted-documents manifest). */
function trustedOperationNames(): Set<string> {
  try {
    return new Set([...loadPersistedDocuments().values()].flatMap((text) => operationNames(parse(text))));
  } catch {
    // No manifest (a trimmed deployment): every name then takes one of the capped slots.
    return new Set();
  }
}

/**
 * Operation names are the one caller-chosen text in a metric label, and every distinct label value
 * is a series kept for ever: a script sending `query q1`, `query q2`, ... would grow the scrape
 * without bound. So: the trusted documents' names always have their own label; other names get one
 * while fewer than MAX_OTHER_OPERATION_NAMES have been seen by this process, and `(other)` after.
 */
export function createOperationLabeler(max = MAX_OTHER_OPERATION_NAMES, trusted = trustedOperationNames()): (name: string | undefined) => string {
  const others = new Set<string>();
  return (name) => {
    if (name === undefined) return ANONYMOUS_OPERATION;
    if (trusted.has(name) || others.has(name)) return name;
    if (others.size < max) {
      others.add(name);
      return name;
    }
    return OTHER_OPERATION;
  };
}
