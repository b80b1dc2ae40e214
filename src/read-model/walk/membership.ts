import type { PackedLists } from '../snapshot/calendar-snapshot.js';

/** A bitmap over `size` entries with the given members set (an unknown member, undefined, left out). */
export function membership(size: number, members: Iterable<number | undefined>): Uint8Array {
  const set = new Uint8Array(size);
  for (const m of members) if (m !== undefined) set[m] = 1;
  return set;
}

/** Whether any value of entity `i`'s packed list is a member. */
export function anyListed({ offsets, values }: PackedLists, i: number, members: Uint8Array): boolean {
  for (let k = offsets[i]!; k < offsets[i + 1]!; k++) if (members[values[k]!] === 1) return true;
  return false;
}

/** Whether entity `i`'s packed list holds `value`. */
export function listsValue({ offsets, values }: PackedLists, i: number, value: number): boolean {
  for (let k = offsets[i]!; k < offsets[i + 1]!; k++) if (values[k] === value) return true;
  return false;
}
