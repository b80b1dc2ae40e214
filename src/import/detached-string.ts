/**
 * A copy of a string that shares no memory with the text it was read from. The streaming
 * tokenizer's strings are slices of the 64 KiB piece of file they come from, and V8 keeps the
 * whole piece alive as long as one slice (or a string concatenated from one) lives: the ids and
 * slugs an import keeps until the end of the file would hold on to the whole file, twice its size
 * (the pieces are mostly UTF-16). Concatenating and slicing again flattens into a new string.
 */
export function detachedString(value: string): string {
  return (' ' + value).slice(1);
}
